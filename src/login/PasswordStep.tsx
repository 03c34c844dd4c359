import { useState } from 'react'
import { Button, Field, Input, Spinner } from '@fluentui/react-components'
import { EyeOffRegular, EyeRegular } from '@fluentui/react-icons'
import { useLingui } from '@lingui/react/macro'
import type { LoginFlow } from './useLoginFlow.ts'
import { useLoginStyles } from './loginStyles.ts'
import { useFocusRequest } from './useFocusRequest.ts'

/** Step one: username and password. */
export function PasswordStep({ flow }: { flow: LoginFlow }) {
  const { t } = useLingui()
  const styles = useLoginStyles()
  const { state, edit } = flow
  const { username: usernameRef, password: passwordRef } = useFocusRequest(state.focus, state.focusSeq)
  const [shown, setShown] = useState(false)

  return (
    <>
      <Field label={t`Username`} required validationMessage={state.missing.username ? t`Please enter your username` : undefined}>
        <Input
          ref={usernameRef}
          name="username"
          value={state.username}
          onChange={(_e, d) => edit('username', d.value)}
          readOnly={state.busy}
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
        />
      </Field>
      <Field label={t`Password`} required validationMessage={state.missing.password ? t`Please enter your password` : undefined}>
        <Input
          ref={passwordRef}
          name="password"
          type={shown ? 'text' : 'password'}
          value={state.password}
          onChange={(_e, d) => edit('password', d.value)}
          readOnly={state.busy}
          autoComplete="current-password"
          contentAfter={
            <Button
              appearance="transparent"
              size="small"
              icon={shown ? <EyeOffRegular /> : <EyeRegular />}
              aria-label={t`Show password`}
              aria-pressed={shown}
              onClick={() => setShown((v) => !v)}
            />
          }
        />
      </Field>
      <div className={styles.actions}>
        <Button
          type="submit"
          appearance="primary"
          disabledFocusable={state.busy}
          icon={state.busy ? <Spinner size="tiny" aria-hidden /> : undefined}
        >
          {state.busy ? t`Logging in…` : t`Log in`}
        </Button>
      </div>
    </>
  )
}
