/** A vertical timeline: each entry has a marker, a title, a time and content, with an optional action. */
import { Caption1, Text, makeStyles, mergeClasses, tokens } from '@fluentui/react-components'
import type { ReactNode } from 'react'

const useStyles = makeStyles({
  list: { listStyleType: 'none', margin: 0, padding: 0 },
  item: { position: 'relative', paddingLeft: '28px', paddingBottom: tokens.spacingVerticalL },
  line: { position: 'absolute', left: '7px', top: '16px', bottom: 0, width: '2px', backgroundColor: tokens.colorNeutralStroke2 },
  dot: { position: 'absolute', left: '2px', top: '4px', width: '12px', height: '12px', borderRadius: '50%', backgroundColor: tokens.colorNeutralForeground3 },
  primary: { backgroundColor: tokens.colorBrandBackground },
  head: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'baseline', flexWrap: 'wrap' },
  time: { color: tokens.colorNeutralForeground3 },
  body: { marginTop: tokens.spacingVerticalXXS, overflowWrap: 'anywhere' },
})

export interface TimelineEntry {
  key: string
  title: ReactNode
  time: ReactNode
  /** machine-readable time for the <time> element */
  dateTime?: string
  content?: ReactNode
  action?: ReactNode
  primary?: boolean
}

export function Timeline({ entries, label }: { entries: readonly TimelineEntry[]; label: string }) {
  const styles = useStyles()
  return (
    <ol className={styles.list} aria-label={label}>
      {entries.map((e, i) => (
        <li key={e.key} className={styles.item}>
          {i < entries.length - 1 && <span className={styles.line} aria-hidden />}
          <span className={e.primary ? mergeClasses(styles.dot, styles.primary) : styles.dot} aria-hidden />
          <div className={styles.head}>
            <Text weight="semibold">{e.title}</Text>
            <Caption1 className={styles.time}><time dateTime={e.dateTime}>{e.time}</time></Caption1>
            {e.action}
          </div>
          {e.content && <div className={styles.body}>{e.content}</div>}
        </li>
      ))}
    </ol>
  )
}
