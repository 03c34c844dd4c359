/**
 * The frame of a generic page (spec §2.4): heading, optional help message, back button (disabled without
 * history or on a dashboard) and header actions. The shell provides the main landmark and the notices host.
 */
import { Button, MessageBar, MessageBarBody, Title2, makeStyles, tokens } from '@fluentui/react-components'
import { ArrowLeftRegular } from '@fluentui/react-icons'
import { useLingui } from '@lingui/react/macro'
import { useRouter } from '@tanstack/react-router'
import type { ReactNode } from 'react'

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, minWidth: 0 },
  head: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  title: { margin: 0, flexGrow: 1, minWidth: 0, overflowWrap: 'anywhere' },
  actions: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  box: {
    backgroundColor: tokens.colorNeutralBackground1, borderRadius: tokens.borderRadiusLarge, padding: tokens.spacingHorizontalL,
    boxShadow: tokens.shadow2, minWidth: 0,
  },
})

export function canGoBack(pathname: string, historyLength: number): boolean {
  return historyLength > 1 && !/\/dashboard\/?$/.test(pathname)
}

export interface PageProps {
  title: string
  help?: ReactNode
  actions?: ReactNode
  back?: boolean
  /** put the content in a box (forms) */
  boxed?: boolean
  children: ReactNode
}

export function Page({ title, help, actions, back = true, boxed, children }: PageProps) {
  const { t } = useLingui()
  const styles = useStyles()
  const router = useRouter()
  const backEnabled = typeof window !== 'undefined' && canGoBack(window.location.pathname, window.history.length)
  return (
    <section className={styles.page} aria-labelledby="page-title">
      <div className={styles.head}>
        {back && (
          <Button appearance="subtle" icon={<ArrowLeftRegular />} aria-label={t`Back`} title={t`Back`} disabled={!backEnabled} onClick={() => router.history.back()} />
        )}
        <Title2 as="h1" id="page-title" className={styles.title}>{title}</Title2>
        {actions && <div className={styles.actions}>{actions}</div>}
      </div>
      {help && (
        <MessageBar intent="info">
          <MessageBarBody>{help}</MessageBarBody>
        </MessageBar>
      )}
      {boxed ? <div className={styles.box}>{children}</div> : children}
    </section>
  )
}
