/**
 * Profile → Temporary password (`/profile/temp-password`, shown when AUTH_TEMP_TOKEN is on): a one-time password
 * valid 300 s for a terminal component's login (the SSH gateway accepts it once as the user's password).
 */
import { Body1, Button, Card, makeStyles, MessageBar, MessageBarBody, tokens } from '@fluentui/react-components'
import { KeyRegular } from '@fluentui/react-icons'
import { Trans, useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import { createTempPassword } from '../../api/profile.ts'
import { describeError } from '../../ui/common/errors.ts'
import { Page } from '../../ui/common/Page.tsx'
import { CopyField } from './CopyField.tsx'

const useStyles = makeStyles({
  card: { maxWidth: '640px', padding: tokens.spacingHorizontalXL, display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL },
})

export function TempPasswordPage() {
  const { t } = useLingui()
  const styles = useStyles()
  const [made, setMade] = useState<{ secret: string; date_expired: string } | null>(null)
  const [error, setError] = useState('')
  const [busy, setBusy] = useState(false)
  const generate = async () => {
    setBusy(true)
    setError('')
    try {
      setMade(await createTempPassword())
    } catch (e) {
      setError(describeError(e))
    } finally {
      setBusy(false)
    }
  }
  return (
    <Page title={t`Temporary password`} back={false}>
      <Card className={styles.card}>
        <Body1><Trans>A temporary password logs you in once to a terminal component (for example the SSH gateway) within 5 minutes of its creation, in place of your password.</Trans></Body1>
        {error && <MessageBar intent="error"><MessageBarBody>{error}</MessageBarBody></MessageBar>}
        {made && (
          <>
            <CopyField label={t`Temporary password`} value={made.secret} />
            <Body1><Trans>Valid until {made.date_expired}, for one login. It is not shown again.</Trans></Body1>
          </>
        )}
        <div><Button appearance="primary" icon={<KeyRegular />} disabled={busy} onClick={() => void generate()}>
          {made ? <Trans>Generate another</Trans> : <Trans>Generate</Trans>}
        </Button></div>
      </Card>
    </Page>
  )
}
