import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { I18nProvider } from '@lingui/react'
import { fetchProfile } from '../api/profile.ts'
import { activateLocale, detectLocale, i18n, selectCatalogs } from '../app/i18n.ts'
import { LunaApp } from './LunaApp.tsx'
import { routeFromLocation } from './route.ts'

const container = document.getElementById('root')
if (!container) throw new Error('luna.html has no #root')

// The web terminal's own catalogue: only its messages, not the console's.
selectCatalogs({
  en: () => import('../../locales/luna/en.ts'),
  zh: () => import('../../locales/luna/zh.ts'),
  ja: () => import('../../locales/luna/ja.ts'),
})

// `?inspect`: the built-in inspector, as in the console (a lazy chunk; in production only for permitted users).
if (new URLSearchParams(window.location.search).has('inspect')) {
  void import('../shell/mountInspector.tsx').then(async (inspector) => {
    inspector.startInspection()
    const profile = await fetchProfile().catch(() => undefined)
    inspector.showInspector(profile?.perms ?? [])
  })
}

/** Entry of luna.html (`/luna/`, `/luna/connect?token=…`): the console's language, then the page. */
void activateLocale(detectLocale())
  .catch(() => undefined)
  .then(() => {
    createRoot(container).render(
      <StrictMode>
        <I18nProvider i18n={i18n}>
          <LunaApp route={routeFromLocation(window.location)} />
        </I18nProvider>
      </StrictMode>,
    )
  })
