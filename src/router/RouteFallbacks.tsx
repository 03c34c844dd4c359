import { makeStyles, Spinner } from '@fluentui/react-components'
import { useLingui } from '@lingui/react/macro'
import type { ErrorComponentProps } from '@tanstack/react-router'
import { logoutUrl } from '../app/appActor.ts'
import { ErrorPage } from '../ui/pages/ErrorPage.tsx'
import { ForbiddenPage } from '../ui/pages/ForbiddenPage.tsx'
import { StartupErrorPage } from '../ui/pages/StartupErrorPage.tsx'
import { ForbiddenError, StartupFailedError } from './errors.ts'

const useStyles = makeStyles({ pending: { display: 'flex', justifyContent: 'center', padding: '64px' } })

export function RoutePending() {
  const styles = useStyles()
  const { t } = useLingui()
  return (
    <div className={styles.pending}>
      <Spinner label={t`Loading…`} />
    </div>
  )
}

/** Errors of one route: 403 for guards that refused, otherwise a retry screen. */
export function RouteErrorPage({ error, reset }: ErrorComponentProps) {
  if (error instanceof ForbiddenError) return <ForbiddenPage reason={error.reason} />
  return <ErrorPage message={error instanceof Error ? error.message : undefined} onRetry={() => { reset(); window.location.reload() }} />
}

/** Errors of the root route: the start-up failed. */
export function RootErrorPage(props: ErrorComponentProps) {
  const { error } = props
  if (error instanceof StartupFailedError) {
    const kind = error.failure?.kind
    const problem = kind === 'no_organizations' ? 'no_organizations' : kind === 'no_session_mark' ? 'no_session' : 'unavailable'
    return <StartupErrorPage problem={problem} logoutHref={logoutUrl()} onRetry={() => window.location.reload()} />
  }
  return <RouteErrorPage {...props} />
}
