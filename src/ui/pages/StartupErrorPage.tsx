import { Button } from '@fluentui/react-components'
import { useLingui } from '@lingui/react/macro'
import { StatusPage } from './StatusPage.tsx'

export type StartupProblem = 'no_organizations' | 'no_session' | 'unavailable'

/** The console could not start (spec 000 §4.1): no organization at all, the session ended, or the server failed. */
export function StartupErrorPage({ problem, logoutHref, onRetry }: { problem: StartupProblem; logoutHref: string; onRetry: () => void }) {
  const { t } = useLingui()
  const logout = <Button as="a" href={logoutHref}>{t`Log out`}</Button>
  if (problem === 'no_organizations') {
    return (
      <StatusPage title={t`You are not a member of any organization`} actions={logout}>
        {t`Ask an administrator to add you to an organization, then log in again.`}
      </StatusPage>
    )
  }
  if (problem === 'no_session') {
    return <StatusPage title={t`Your session has ended`} actions={logout}>{t`Please log in again.`}</StatusPage>
  }
  return (
    <StatusPage
      title={t`The console could not start`}
      actions={<><Button appearance="primary" onClick={onRetry}>{t`Try again`}</Button>{logout}</>}
    >
      {t`The server did not answer as expected. Check your network and try again.`}
    </StatusPage>
  )
}
