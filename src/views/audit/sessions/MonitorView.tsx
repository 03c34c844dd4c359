/** The auditor's live view of an online session (a lazy chunk: xterm). Terminate is the detail page's command. */
import { useLingui } from '@lingui/react/macro'
import { useThemeMode } from '../../../app/themeMode.ts'
import { LiveScreen } from '../../../ui/terminal/LiveScreen.tsx'

export function MonitorView({ sessionId }: { sessionId: string }) {
  const { t } = useLingui()
  const { scheme } = useThemeMode()
  return <LiveScreen start={{ type: 'monitor', session: sessionId }} scheme={scheme} label={t`Live session screen`} />
}
