/** `/luna/monitor/<session id>/`: an auditor's read-only live view of a session (Audit → Sessions → Monitor). */
import { makeStyles, Text, tokens } from '@fluentui/react-components'
import { useLingui } from '@lingui/react/macro'
import { LiveScreen } from '../ui/terminal/LiveScreen.tsx'

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, padding: tokens.spacingHorizontalL, height: '100%', minHeight: 0, boxSizing: 'border-box' },
})

export function MonitorView({ sessionId, scheme, fontSize }: { sessionId: string; scheme: 'light' | 'dark'; fontSize: number }) {
  const { t } = useLingui()
  const styles = useStyles()
  return (
    <div className={styles.root}>
      <Text as="h2" size={400} weight="semibold">{t`Session monitor`}</Text>
      <LiveScreen start={{ type: 'monitor', session: sessionId }} scheme={scheme} fontSize={fontSize} label={t`Live session screen`} />
    </div>
  )
}
