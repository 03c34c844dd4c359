import { FluentProvider } from '@fluentui/react-components'
import { I18nProvider } from '@lingui/react'
import { RouterProvider } from '@tanstack/react-router'
import { useSelector } from '@xstate/react'
import { useEffect, useMemo } from 'react'
import { primaryColor } from '../api/settings.ts'
import type { AppRouter } from '../router/router.tsx'
import { AppProvider } from './AppProvider.tsx'
import type { AppActorRef, AppSnapshot } from './appMachine.ts'
import { i18n } from './i18n.ts'
import { brandFor, themeFor } from './theme.ts'
import { useThemeMode } from './themeMode.ts'

const selectPrimary = (s: AppSnapshot) => primaryColor(s.context.settings)

/** Providers of the console: language, Fluent theme (server colour, light/dark/system), root actor, router. */
export function App({ app, router }: { app: AppActorRef; router: AppRouter }) {
  const { scheme } = useThemeMode()
  const primary = useSelector(app, selectPrimary)
  const theme = useMemo(() => themeFor(scheme, brandFor(primary)), [scheme, primary])
  useEffect(() => {
    document.documentElement.style.colorScheme = scheme
    document.documentElement.dataset.theme = scheme
    document.body.style.backgroundColor = theme.colorNeutralBackground2
  }, [scheme, theme])
  return (
    <I18nProvider i18n={i18n}>
      <FluentProvider theme={theme} style={{ height: '100%' }}>
        <AppProvider app={app}>
          <RouterProvider router={router} />
        </AppProvider>
      </FluentProvider>
    </I18nProvider>
  )
}
