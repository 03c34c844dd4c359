import { useLingui } from '@lingui/react/macro'
import { useParams } from '@tanstack/react-router'
import { Page } from '../common/Page.tsx'
import { TaskLog } from '../tasks/TaskLog.tsx'

/** The task log routes (`/ops/celery/task/:id/log`, `/ops/ansible/…`, `/ops/task/task/…`): one execution's live log. */
export function TaskLogPage() {
  const { t } = useLingui()
  const { id } = useParams({ strict: false }) as { id?: string }
  const ansible = typeof window !== 'undefined' && window.location.pathname.includes('/ops/ansible/')
  return (
    <Page title={t`Task log`} back={false}>
      <TaskLog key={id} executionId={id ?? ''} type={ansible ? 'ansible' : 'celery'} />
    </Page>
  )
}
