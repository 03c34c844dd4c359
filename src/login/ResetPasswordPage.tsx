/**
 * The page behind a reset link (`/core/auth/password/reset/?token=…`, from the reset or account-created mail):
 * who the link is for, the new password twice, the server's rule errors on their fields, then a link to log in.
 */
import { useEffect, useState, type FormEvent } from 'react'
import { Button, Field, Input, Link, MessageBar, MessageBarBody, Spinner } from '@fluentui/react-components'
import { useLingui } from '@lingui/react/macro'
import { fetchResetInfo, resetPassword, ResetError, type ResetInfo } from '../api/auth.ts'
import { LanguageMenu } from './LanguageMenu.tsx'
import { useLoginStyles } from './loginStyles.ts'

const TITLE_ID = 'reset-title'
export const RESET_PATH = '/core/auth/password/reset/'

/** The token of a reset link in the current location, or undefined on any other page. */
export function resetTokenFromLocation(): string | undefined {
  if (typeof window === 'undefined' || !window.location.pathname.startsWith(RESET_PATH.slice(0, -1))) return undefined
  return new URLSearchParams(window.location.search).get('token') ?? ''
}

export function ResetPasswordPage({ token }: { token: string }) {
  const { t } = useLingui()
  const styles = useLoginStyles()
  const [info, setInfo] = useState<ResetInfo>()
  const [linkError, setLinkError] = useState('')
  const [password, setPassword] = useState('')
  const [again, setAgain] = useState('')
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [topError, setTopError] = useState('')
  const [busy, setBusy] = useState(false)
  const [done, setDone] = useState('')

  useEffect(() => {
    document.title = t`Reset password`
    fetchResetInfo(token).then(setInfo, (e: unknown) => setLinkError(e instanceof Error ? e.message : String(e)))
  }, [token, t])

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    const missing: Record<string, string> = {}
    if (!password) missing.new_password = t`Please enter the new password`
    if (!again) missing.new_password_again = t`Please enter the new password again`
    else if (password && again !== password) missing.new_password_again = t`The two passwords do not match`
    setErrors(missing)
    setTopError('')
    if (Object.keys(missing).length) return
    setBusy(true)
    try {
      setDone(await resetPassword(token, password, again))
    } catch (err) {
      if (err instanceof ResetError && Object.keys(err.fields).length) setErrors(err.fields)
      else setTopError(err instanceof Error ? err.message : String(err))
    } finally {
      setBusy(false)
    }
  }

  const minLength = Number(info?.rules.SECURITY_PASSWORD_MIN_LENGTH) || 0
  return (
    <div className={styles.page}>
      <header className={styles.header}>
        <LanguageMenu />
      </header>
      <main className={styles.main}>
        <section className={styles.card} aria-labelledby={TITLE_ID}>
          <h1 id={TITLE_ID} className={styles.title}>{t`Reset password`}</h1>
          {linkError && (
            <MessageBar intent="error" role="alert" layout="multiline"><MessageBarBody>{linkError}</MessageBarBody></MessageBar>
          )}
          {!info && !linkError && <Spinner label={t`Loading…`} />}
          {done && (
            <>
              <MessageBar intent="success" role="status" layout="multiline"><MessageBarBody>{done}</MessageBarBody></MessageBar>
              <Link href="/core/auth/login/">{t`Go to the login page`}</Link>
            </>
          )}
          {info && !done && (
            <form className={styles.form} onSubmit={(e) => void submit(e)} noValidate aria-busy={busy}>
              <h2 className={styles.stepTitle}>{t`Set a new password for ${info.name || info.username} (${info.username})`}</h2>
              {topError && (
                <MessageBar intent="error" role="alert" layout="multiline"><MessageBarBody>{topError}</MessageBarBody></MessageBar>
              )}
              <Field label={t`New password`} required validationMessage={errors.new_password}
                hint={minLength ? t`At least ${minLength} characters` : undefined}>
                <Input name="new_password" type="password" value={password} autoComplete="new-password" onChange={(_e, d) => setPassword(d.value)} readOnly={busy} />
              </Field>
              <Field label={t`Confirm password`} required validationMessage={errors.new_password_again}>
                <Input name="new_password_again" type="password" value={again} autoComplete="new-password" onChange={(_e, d) => setAgain(d.value)} readOnly={busy} />
              </Field>
              <div className={styles.actions}>
                <Button type="submit" appearance="primary" disabledFocusable={busy} icon={busy ? <Spinner size="tiny" aria-hidden /> : undefined}>
                  {t`Set password`}
                </Button>
              </div>
            </form>
          )}
        </section>
      </main>
    </div>
  )
}
