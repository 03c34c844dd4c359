import { useEffect, useState, type FormEvent } from 'react'
import { Button, Divider } from '@fluentui/react-components'
import { useLingui } from '@lingui/react/macro'
import { LanguageMenu } from './LanguageMenu.tsx'
import { LoginNotice } from './LoginNotice.tsx'
import { ConfirmStep } from './ConfirmStep.tsx'
import { MfaStep } from './MfaStep.tsx'
import { PasswordStep } from './PasswordStep.tsx'
import { useBranding } from './useBranding.ts'
import { ssoStartFromLocation, useLoginFlow } from './useLoginFlow.ts'
import { useLoginStyles } from './loginStyles.ts'

const TITLE_ID = 'login-title'

export interface LoginPageProps {
  /** the `?next=` to pass through */
  next?: string
  /** where to go after a successful login (tests replace the real navigation) */
  navigate?: (url: string) => void
}

/** The whole login page: branding, the language switch and the two-step form. */
export function LoginPage({ next, navigate }: LoginPageProps) {
  const { t } = useLingui()
  const styles = useLoginStyles()
  const { branding, methods, settled } = useBranding()
  const [start] = useState(() => ssoStartFromLocation())
  const flow = useLoginFlow(next, navigate, start)
  const [logoFailed, setLogoFailed] = useState(false)
  const title = branding.title || (settled ? t`Log in` : '')

  useEffect(() => {
    if (title) document.title = title
  }, [title])

  const onSubmit = (e: FormEvent) => {
    e.preventDefault()
    void flow.submit()
  }

  return (
    <div className={styles.page}>
      <header className={styles.header}>
        <LanguageMenu />
      </header>
      <main className={styles.main}>
        <section className={styles.card} aria-labelledby={TITLE_ID}>
          <div className={styles.brand}>
            {branding.logo && !logoFailed && (
              <img className={styles.logo} src={branding.logo} alt={title} onError={() => setLogoFailed(true)} />
            )}
            <h1 id={TITLE_ID} className={styles.title}>{title}</h1>
          </div>
          <form className={styles.form} onSubmit={onSubmit} noValidate aria-busy={flow.state.busy}>
            <h2 className={styles.stepTitle}>
              {flow.state.step === 'password' ? t`Log in to your account` : flow.state.step === 'confirm' ? t`Waiting for approval` : t`Multi-factor authentication`}
            </h2>
            {flow.state.notice && <LoginNotice notice={flow.state.notice} />}
            {flow.state.step === 'password' ? <PasswordStep flow={flow} /> : flow.state.step === 'confirm' ? <ConfirmStep flow={flow} /> : <MfaStep flow={flow} />}
          </form>
          {flow.state.step === 'password' && methods.length > 0 && (
            <nav className={styles.form} aria-label={t`Other ways to log in`}>
              <Divider>{t`or`}</Divider>
              {methods.map((m) => (
                <Button key={m.name} as="a" appearance="secondary" href={next ? `${m.url}?next=${encodeURIComponent(next)}` : m.url}>
                  {t`Log in with ${m.title}`}
                </Button>
              ))}
            </nav>
          )}
        </section>
      </main>
    </div>
  )
}
