/**
 * An info card of key/value rows. `detailItems` builds the rows of an object from its metadata with the
 * table's formatters (labels, choices, related names, dates, secrets).
 */
import { Card, CardHeader, Text, makeStyles, tokens } from '@fluentui/react-components'
import type { ReactNode } from 'react'
import type { FieldMeta } from '../../api/metadata.ts'
import type { Row } from '../../api/resources.ts'
import { CellValue } from '../table/CellValue.tsx'
import { chooseFormatter } from '../table/formatters.ts'

const useStyles = makeStyles({
  card: { minWidth: 0 },
  list: { display: 'grid', gridTemplateColumns: 'minmax(120px, 200px) minmax(0, 1fr)', margin: 0 },
  key: { color: tokens.colorNeutralForeground3, padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalS}`, borderTop: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke3}` },
  value: { margin: 0, padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalS}`, overflowWrap: 'anywhere', borderTop: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke3}`, minWidth: 0 },
})

export interface DetailItem {
  key: string
  label: string
  value: ReactNode
}

export function InfoCard({ title, items, headerAction }: { title: string; items: readonly DetailItem[]; headerAction?: ReactNode }) {
  const styles = useStyles()
  return (
    <Card className={styles.card}>
      <CardHeader header={<Text as="h2" weight="semibold" size={400}>{title}</Text>} action={headerAction as never} />
      <dl className={styles.list}>
        {items.map((item) => (
          <div key={item.key} style={{ display: 'contents' }}>
            <dt className={styles.key}>{item.label}</dt>
            <dd className={styles.value}>{item.value}</dd>
          </div>
        ))}
      </dl>
    </Card>
  )
}

/** Rows for `names` (or every readable field) of an object, labelled by the metadata. */
export function detailItems(object: Row, fields: readonly FieldMeta[], names?: readonly string[], labels: Readonly<Record<string, string>> = {}): DetailItem[] {
  const byName = new Map(fields.map((f) => [f.name, f]))
  const chosen = names ?? fields.filter((f) => !f.writeOnly).map((f) => f.name)
  return chosen.filter((n) => n in object || byName.has(n)).map((name) => {
    const field = byName.get(name)
    const kind = field ? chooseFormatter(field) : 'text'
    return {
      key: name,
      label: labels[name] ?? field?.label ?? name,
      value: <CellValue kind={kind === 'detailLink' ? 'text' : kind} value={object[name]} field={field} layout="block" />,
    }
  })
}
