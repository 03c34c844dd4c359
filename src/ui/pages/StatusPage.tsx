import { Body1, makeStyles, Text, Title2, tokens } from '@fluentui/react-components'
import type { ReactNode } from 'react'

const useStyles = makeStyles({
  root: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    justifyContent: 'center',
    textAlign: 'center',
    gap: tokens.spacingVerticalM,
    minHeight: '50vh',
    padding: tokens.spacingHorizontalXXL,
  },
  code: {
    fontSize: '64px',
    lineHeight: '72px',
    fontWeight: tokens.fontWeightSemibold,
    color: tokens.colorBrandForeground1,
  },
  actions: { display: 'flex', gap: tokens.spacingHorizontalM, flexWrap: 'wrap', justifyContent: 'center' },
})

/** A full-area message: a code (404, 403…), a heading, a sentence, and actions. */
export function StatusPage({ code, title, children, actions }: { code?: string; title: string; children?: ReactNode; actions?: ReactNode }) {
  const styles = useStyles()
  return (
    <section className={styles.root} aria-labelledby="status-page-title">
      {code && <Text className={styles.code} aria-hidden="true">{code}</Text>}
      <Title2 as="h1" id="status-page-title">{title}</Title2>
      {children && <Body1>{children}</Body1>}
      {actions && <div className={styles.actions}>{actions}</div>}
    </section>
  )
}
