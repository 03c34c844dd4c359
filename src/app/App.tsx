import { FluentProvider, tokens } from '@fluentui/react-components'
import { I18nProvider } from '@lingui/react'
import { RouterProvider } from '@tanstack/react-router'
import { useSelector } from '@xstate/react'
import { useEffect, useMemo, useState } from 'react'
import { primaryColor } from '../api/settings.ts'
import { KeepTabsterSoon } from '../ui/common/keepTabsterSoon.tsx'
import type { AppRouter } from '../router/router.tsx'
import { AppProvider } from './AppProvider.tsx'
import type { AppActorRef, AppSnapshot } from './appMachine.ts'
import { i18n } from './i18n.ts'
import { brandFor } from './brand.ts'
import { loadDarkTheme, themeFor, type DarkTheme } from './theme.ts'
import { useThemeMode } from './themeMode.ts'

const selectPrimary = (s: AppSnapshot) => primaryColor(s.context.settings)

let loadedDark: DarkTheme | undefined

/** The dark theme once wanted and loaded (main.tsx loads it before the first render when the scheme is dark). */
function useDarkTheme(wanted: boolean): DarkTheme | undefined {
  const [dark, setDark] = useState(() => loadedDark)
  useEffect(() => {
    if (!wanted || dark) return
    let live = true
    void loadDarkTheme().then((d) => {
      loadedDark = d
      if (live) setDark(() => d)
    })
    return () => { live = false }
  }, [wanted, dark])
  return dark
}

/** Before the first render: the dark theme, when that is the scheme, so the console does not start light. */
export async function prepareTheme(scheme: 'light' | 'dark'): Promise<void> {
  if (scheme === 'dark') loadedDark = await loadDarkTheme().catch(() => undefined)
}

/** Providers of the console: language, Fluent theme (server colour, light/dark/system), root actor, router. */
export function App({ app, router }: { app: AppActorRef; router: AppRouter }) {
  const { scheme } = useThemeMode()
  const primary = useSelector(app, selectPrimary)
  const dark = useDarkTheme(scheme === 'dark')
  const theme = useMemo(() => themeFor(scheme, brandFor(primary), dark), [scheme, primary, dark])
  useEffect(() => {
    document.documentElement.style.colorScheme = scheme
    document.documentElement.dataset.theme = scheme
    // The light theme leaves the neutral colours to the stylesheet's variables, which the body inherits from :root.
    document.body.style.backgroundColor = theme.colorNeutralBackground2 ?? tokens.colorNeutralBackground2
  }, [scheme, theme])
  return (
    <I18nProvider i18n={i18n}>
      <FluentProvider theme={theme} style={{ height: '100%' }}>
        <KeepTabsterSoon />
        <AppProvider app={app}>
          <RouterProvider router={router} />
        </AppProvider>
      </FluentProvider>
    </I18nProvider>
  )
}
