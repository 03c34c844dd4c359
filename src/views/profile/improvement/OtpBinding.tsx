import { Body1, Button, Caption1, Field, Input, makeStyles, MessageBar, MessageBarBody, Spinner, tokens } from '@fluentui/react-components'
import { CheckmarkCircleFilled } from '@fluentui/react-icons'
import { useLingui } from '@lingui/react/macro'
import { useEffect, useMemo, useState } from 'react'
import { ApiError } from '../../../api/client.ts'
import { enableOtp, fetchOtpSetup, type OtpSetup } from '../../../api/profile.ts'
import { fieldMessages, groupSecret, isOtpCode, OTP_LENGTH } from './model.ts'
import { encodeQr, qrPath } from './qr.ts'

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  setup: { display: 'flex', gap: tokens.spacingHorizontalXL, flexWrap: 'wrap', alignItems: 'flex-start' },
  qr: { width: '180px', height: '180px', backgroundColor: '#ffffff', borderRadius: tokens.borderRadiusMedium, flexShrink: 0 },
  facts: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, minWidth: '240px', flexGrow: 1 },
  code: { fontFamily: tokens.fontFamilyMonospace, overflowWrap: 'anywhere', userSelect: 'all' },
  verify: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'flex-end', flexWrap: 'wrap' },
  done: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'center', color: tokens.colorPaletteGreenForeground1 },
})

/** Bind an authenticator app: QR code, the secret and URI as text, then a 6-digit code. */
export function OtpBinding({ bound, onBound }: { bound: boolean; onBound: () => void }) {
  const { t } = useLingui()
  const styles = useStyles()
  const [setup, setSetup] = useState<OtpSetup | null>(null)
  const [loadError, setLoadError] = useState('')
  const [code, setCode] = useState('')
  const [codeError, setCodeError] = useState('')
  const [busy, setBusy] = useState(false)

  useEffect(() => {
    if (bound) return
    let live = true
    fetchOtpSetup()
      .then((s) => live && setSetup(s))
      .catch((e: unknown) => live && setLoadError(e instanceof Error ? e.message : String(e)))
    return () => {
      live = false
    }
  }, [bound])
  const qr = useMemo(() => (setup?.otpauth_uri ? encodeQr(setup.otpauth_uri) : null), [setup])

  if (bound) {
    return (
      <div className={styles.done} role="status">
        <CheckmarkCircleFilled aria-hidden="true" />
        <Body1>{t`Your authenticator app is bound.`}</Body1>
      </div>
    )
  }
  if (loadError) return <MessageBar intent="error"><MessageBarBody>{loadError}</MessageBarBody></MessageBar>
  if (!setup) return <Spinner size="small" label={t`Preparing a new secret…`} />

  const verify = async () => {
    if (!isOtpCode(code)) {
      setCodeError(t`MFA error, please check`)
      return
    }
    setBusy(true)
    setCodeError('')
    try {
      await enableOtp(code)
      onBound()
    } catch (e) {
      const fields = e instanceof ApiError ? fieldMessages(e.fieldErrors) : {}
      setCodeError(fields.code || (e instanceof Error ? e.message : t`MFA error, please check`))
    } finally {
      setBusy(false)
    }
  }
  const size = qr ? qr.modules.length + 8 : 0
  return (
    <div className={styles.root}>
      <Body1>{t`Scan the code with an authenticator app (for example Google Authenticator or FreeOTP), or enter the secret by hand. Then type the 6-digit code the app shows.`}</Body1>
      <div className={styles.setup}>
        {qr && (
          <svg className={styles.qr} viewBox={`0 0 ${size} ${size}`} role="img" aria-label={t`QR code of the authenticator link`} shapeRendering="crispEdges">
            <path d={qrPath(qr.modules)} fill="#000000" />
          </svg>
        )}
        <div className={styles.facts}>
          <Caption1>{t`Secret`}</Caption1>
          <code className={styles.code} data-testid="otp-secret">{groupSecret(setup.secret)}</code>
          <Caption1>{t`Link`}</Caption1>
          <code className={styles.code} data-testid="otp-uri">{setup.otpauth_uri}</code>
        </div>
      </div>
      <div className={styles.verify}>
        <Field label={t`Verification code`} validationMessage={codeError || undefined} validationState={codeError ? 'error' : 'none'} required>
          <Input
            value={code}
            onChange={(_, d) => setCode(d.value.replace(/\s+/g, ''))}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={OTP_LENGTH}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault()
                void verify()
              }
            }}
          />
        </Field>
        <Button onClick={() => void verify()} disabled={busy}>{t`Verify`}</Button>
      </div>
    </div>
  )
}
