import { makeStyles, tokens } from '@fluentui/react-components'
import { useLingui } from '@lingui/react/macro'
import { useParams } from '@tanstack/react-router'
import { Page } from '../common/Page.tsx'
import { TaskLog } from '../tasks/TaskLog.tsx'

const useStyles = makeStyles({
  // The log routes render without the shell (they open in their own tab, as the reference's do).
  frame: { padding: `${tokens.spacingVerticalL} ${tokens.spacingHorizontalXL}`, boxSizing: 'border-box', minHeight: '100vh' },
})

/** The task log routes (`/ops/celery/task/:id/log`, `/ops/ansible/…`, `/ops/task/task/…`): one execution's live log. */
export function TaskLogPage() {
  const { t } = useLingui()
  const styles = useStyles()
  const { id } = useParams({ strict: false }) as { id?: string }
  const ansible = typeof window !== 'undefined' && window.location.pathname.includes('/ops/ansible/')
  return (
    <main className={styles.frame}>
      <Page title={t`Task log`} back={false}>
        <TaskLog key={id} executionId={id ?? ''} type={ansible ? 'ansible' : 'celery'} />
      </Page>
    </main>
  )
}
