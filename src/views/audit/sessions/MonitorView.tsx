/**
 * The auditor's live view of an online session, in the session detail's Monitor tab (a lazy chunk; xterm is the
 * `xterm` chunk the web terminal loads too): the session's screen now, then its output as it comes, read-only.
 * Terminate is the detail page's command; the same view opens in a window of its own at `/luna/monitor/<id>/`.
 */
import { Link, makeStyles, tokens } from '@fluentui/react-components'
import { OpenRegular } from '@fluentui/react-icons'
import { useLingui } from '@lingui/react/macro'
import { monitorUrl } from '../../../api/terminal.ts'
import { useThemeMode } from '../../../app/themeMode.ts'
import { LiveScreen } from '../../../ui/terminal/LiveScreen.tsx'

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, minWidth: 0 },
  window: { display: 'inline-flex', alignItems: 'center', gap: tokens.spacingHorizontalXS, alignSelf: 'flex-start' },
})

export function MonitorView({ sessionId }: { sessionId: string }) {
  const { t } = useLingui()
  const { scheme } = useThemeMode()
  const styles = useStyles()
  return (
    <div className={styles.root} data-monitor-view="">
      <LiveScreen start={{ type: 'monitor', session: sessionId }} scheme={scheme} label={t`Live session screen`} />
      <Link className={styles.window} href={monitorUrl(sessionId)} target="_blank" rel="noopener">
        <OpenRegular aria-hidden="true" />{t`Open in a window of its own`}
      </Link>
    </div>
  )
}
