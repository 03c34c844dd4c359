import {
  Body1, Button, Card, Field, Input, Link, makeStyles, MessageBar, MessageBarBody, Subtitle1, Title2, tokens,
} from '@fluentui/react-components'
import { CheckmarkRegular, CircleRegular } from '@fluentui/react-icons'
import { useLingui } from '@lingui/react/macro'
import { useNavigate } from '@tanstack/react-router'
import { useState, type FormEvent } from 'react'
import { useAppActor, useAppSelector } from '../../../app/AppProvider.tsx'
import { logoutUrl, whenSettled } from '../../../app/appActor.ts'
import type { AppSnapshot } from '../../../app/appMachine.ts'
import { ApiError } from '../../../api/client.ts'
import { MissingPublicKeyError } from '../../../api/crypto.ts'
import { changePassword, patchProfile } from '../../../api/profile.ts'
import { fieldMessages, isSystemAdmin, needsOtpBinding, passwordChecks } from './model.ts'
import { OtpBinding } from './OtpBinding.tsx'

const useStyles = makeStyles({
  page: { minHeight: '100vh', display: 'flex', justifyContent: 'center', padding: tokens.spacingVerticalXXL, boxSizing: 'border-box', backgroundColor: tokens.colorNeutralBackground2, ':focus': { outlineStyle: 'none' } },
  card: { width: 'min(720px, 100%)', padding: tokens.spacingHorizontalXXL, height: 'fit-content' },
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXL },
  section: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  rules: { listStyleType: 'none', margin: 0, padding: 0, display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalL },
  rule: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalXS },
  ok: { color: tokens.colorPaletteGreenForeground1 },
  actions: { display: 'flex', gap: tokens.spacingHorizontalL, alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap' },
})

const selectProfile = (s: AppSnapshot) => s.context.profile!
const selectSettings = (s: AppSnapshot) => s.context.settings

/** "New password again": empty is its own error (it was only compared, so two empty boxes passed — issue 17). */
export function againProblem(password: string, again: string): 'required' | 'mismatch' | undefined {
  if (!again) return 'required'
  return again === password ? undefined : 'mismatch'
}

type Values = Record<'name' | 'email' | 'phone' | 'old_password' | 'new_password' | 'new_password_again', string>

/**
 * First login (spec 000 §2.2): review name, email and phone; bind OTP when MFA is enforced; change the password
 * when the server asks for it. Saving clears `is_first_login` and continues to the default view.
 */
export function ProfileImprovementPage() {
  const { t, i18n } = useLingui()
  const styles = useStyles()
  const app = useAppActor()
  const navigate = useNavigate()
  const profile = useAppSelector(selectProfile)
  const settings = useAppSelector(selectSettings)
  const [otpBound, setOtpBound] = useState(false)
  const needOtp = needsOtpBinding(profile, settings)
  const needPassword = profile.need_update_password
  const [values, setValues] = useState<Values>({
    name: profile.name, email: profile.email, phone: profile.phone, old_password: '', new_password: '', new_password_again: '',
  })
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [formError, setFormError] = useState('')
  const [saving, setSaving] = useState(false)
  const checks = passwordChecks(values.new_password, settings.PASSWORD_RULE, isSystemAdmin(profile))

  const set = (key: keyof Values) => (_: unknown, d: { value: string }) => setValues((v) => ({ ...v, [key]: d.value }))
  const field = (key: keyof Values) => ({ validationMessage: errors[key] || undefined, validationState: errors[key] ? ('error' as const) : ('none' as const) })

  function clientErrors(): Record<string, string> {
    const out: Record<string, string> = {}
    if (!values.name.trim()) out.name = t`This field is required.`
    if (!values.email.trim()) out.email = t`This field is required.`
    else if (!/^[^\s@]+@[^\s@]+$/.test(values.email.trim())) out.email = t`Enter a valid email address.`
    if (needPassword) {
      if (!values.old_password) out.old_password = t`This field is required.`
      if (!values.new_password) out.new_password = t`This field is required.`
      else if (checks.some((c) => !c.ok)) out.new_password = t`The password does not follow the rules.`
      const again = againProblem(values.new_password, values.new_password_again)
      if (again === 'required') out.new_password_again = t`This field is required.`
      else if (again === 'mismatch') out.new_password_again = t`The two passwords do not match.`
    }
    return out
  }

  function showFailure(e: unknown) {
    if (e instanceof ApiError && e.fieldErrors) {
      const fields = fieldMessages(e.fieldErrors)
      const { non_field_errors: nfe, detail, error, ...rest } = fields
      setErrors(rest)
      setFormError(nfe || detail || error || (Object.keys(rest).length ? '' : e.message))
    } else if (e instanceof MissingPublicKeyError) {
      setFormError(t`The page is missing its encryption key. Reload the page and try again.`)
    } else {
      setFormError(e instanceof Error ? e.message : String(e))
    }
  }

  async function submit(e: FormEvent) {
    e.preventDefault()
    const found = clientErrors()
    setErrors(found)
    setFormError('')
    if (Object.keys(found).length) return
    setSaving(true)
    try {
      // The password first: if it fails, the user stays here (is_first_login is still true).
      if (needPassword) {
        await changePassword({ old_password: values.old_password, new_password: values.new_password, new_password_again: values.new_password_again })
      }
      await patchProfile({ name: values.name.trim(), email: values.email.trim(), phone: values.phone.trim(), is_first_login: false })
      app.send({ type: 'RELOAD_PROFILE' })
      await whenSettled(app)
      await navigate({ to: '/' as never, replace: true })
    } catch (err) {
      showFailure(err)
    } finally {
      setSaving(false)
    }
  }

  return (
    <main className={styles.page} tabIndex={-1}>
      <Card className={styles.card}>
        <form className={styles.form} onSubmit={(e) => void submit(e)} noValidate>
          <header className={styles.section}>
            <Title2 as="h1">{t`Complete your profile`}</Title2>
            <Body1>{t`Welcome! Please check your details before you start.`}</Body1>
          </header>
          <section className={styles.section} aria-labelledby="improve-basic">
            <Subtitle1 as="h2" id="improve-basic">{t`Basic information`}</Subtitle1>
            <Field label={t`Name`} required {...field('name')}>
              <Input value={values.name} onChange={set('name')} maxLength={128} autoComplete="name" />
            </Field>
            <Field label={t`Email`} required {...field('email')}>
              <Input type="email" value={values.email} onChange={set('email')} maxLength={128} autoComplete="email" />
            </Field>
            <Field label={t`Phone`} {...field('phone')}>
              <Input type="tel" value={values.phone} onChange={set('phone')} maxLength={128} autoComplete="tel" />
            </Field>
          </section>
          {needOtp && (
            <section className={styles.section} aria-labelledby="improve-mfa">
              <Subtitle1 as="h2" id="improve-mfa">{t`Multi-factor authentication`}</Subtitle1>
              <OtpBinding bound={otpBound} onBound={() => setOtpBound(true)} />
            </section>
          )}
          {needPassword && (
            <section className={styles.section} aria-labelledby="improve-password">
              <Subtitle1 as="h2" id="improve-password">{t`Change your password`}</Subtitle1>
              <Body1>{t`An administrator asks you to set a new password.`}</Body1>
              <Field label={t`Current password`} required {...field('old_password')}>
                <Input type="password" value={values.old_password} onChange={set('old_password')} autoComplete="current-password" />
              </Field>
              <Field label={t`New password`} required {...field('new_password')}>
                <Input type="password" value={values.new_password} onChange={set('new_password')} autoComplete="new-password" />
              </Field>
              {checks.length > 0 && (
                <ul className={styles.rules} aria-label={t`Password rules`}>
                  {checks.map((c) => (
                    <li key={c.key} className={styles.rule}>
                      {c.ok ? <CheckmarkRegular className={styles.ok} aria-label={t`met`} /> : <CircleRegular aria-label={t`not met`} />}
                      <Body1>{i18n._(c.label)}</Body1>
                    </li>
                  ))}
                </ul>
              )}
              <Field label={t`New password again`} required {...field('new_password_again')}>
                <Input type="password" value={values.new_password_again} onChange={set('new_password_again')} autoComplete="new-password" />
              </Field>
            </section>
          )}
          {formError && (
            <MessageBar intent="error">
              <MessageBarBody>{formError}</MessageBarBody>
            </MessageBar>
          )}
          <div className={styles.actions}>
            <Link href={logoutUrl()}>{t`Log out`}</Link>
            <Button type="submit" appearance="primary" disabled={saving || (needOtp && !otpBound)}>
              {t`Save and continue`}
            </Button>
          </div>
        </form>
      </Card>
    </main>
  )
}
