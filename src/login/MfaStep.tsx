import { Button, Field, Input, Spinner } from '@fluentui/react-components'
import { useLingui } from '@lingui/react/macro'
import type { LoginFlow } from './useLoginFlow.ts'
import { useLoginStyles } from './loginStyles.ts'
import { useFocusRequest } from './useFocusRequest.ts'

/** Step two: the six-digit code of the user's authenticator app. */
export function MfaStep({ flow }: { flow: LoginFlow }) {
  const { t } = useLingui()
  const styles = useLoginStyles()
  const { state, edit, back } = flow
  const { code: codeRef } = useFocusRequest(state.focus, state.focusSeq)
  const username = state.username.trim()

  return (
    <>
      <p className={styles.hint}>{t`Account ${username}: enter the 6-digit code shown by your authenticator app.`}</p>
      <Field label={t`Verification code`} required>
        <Input
          ref={codeRef}
          name="code"
          value={state.code}
          onChange={(_e, d) => edit('code', d.value)}
          readOnly={state.busy}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          pattern="[0-9]*"
        />
      </Field>
      <div className={styles.actions}>
        <Button
          type="submit"
          appearance="primary"
          disabledFocusable={state.busy}
          icon={state.busy ? <Spinner size="tiny" aria-hidden /> : undefined}
        >
          {state.busy ? t`Verifying…` : t`Verify`}
        </Button>
        <Button appearance="subtle" onClick={back} disabledFocusable={state.busy}>
          {t`Back`}
        </Button>
      </div>
    </>
  )
}
