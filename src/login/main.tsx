import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { I18nProvider } from '@lingui/react'
import { activateLocale, detectLocale, i18n, selectCatalogs } from '../app/i18n.ts'
import { LoginApp } from './LoginApp.tsx'
import { nextFromLocation } from './useLoginFlow.ts'
import { resetTokenFromLocation } from './ResetPasswordPage.tsx'

const container = document.getElementById('root')
if (!container) throw new Error('login.html has no #root')

// The login page's own catalogue: only its messages, not the console's.
selectCatalogs({
  en: () => import('../../locales/login/en.ts'),
  zh: () => import('../../locales/login/zh.ts'),
  ja: () => import('../../locales/login/ja.ts'),
})

/** Entry of login.html: language first (cookie, browser, zh), then the page. */
void activateLocale(detectLocale())
  .catch(() => undefined)
  .then(() => {
    createRoot(container).render(
      <StrictMode>
        <I18nProvider i18n={i18n}>
          <LoginApp next={nextFromLocation()} resetToken={resetTokenFromLocation()} />
        </I18nProvider>
      </StrictMode>,
    )
  })
