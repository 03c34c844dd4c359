import { useMemo } from 'react'
import { createLightTheme, FluentProvider } from '@fluentui/react-components'
import { BRAND_GREEN } from '../app/brand.ts'
import { darkTheme } from '../app/darkTheme.ts'
import { LoginPage, type LoginPageProps } from './LoginPage.tsx'
import { ResetPasswordPage } from './ResetPasswordPage.tsx'
import { usePrefersDark } from './useColorScheme.ts'

/**
 * Fluent with the green brand theme, light or dark as the system asks. The login page is a build of its own without
 * the console's build-time light theme (src/app/theme.ts): its provider writes the whole theme.
 */
export function LoginApp({ resetToken, ...props }: LoginPageProps & { resetToken?: string }) {
  const dark = usePrefersDark()
  const theme = useMemo(() => (dark ? darkTheme() : createLightTheme(BRAND_GREEN)), [dark])
  return (
    <FluentProvider theme={theme} style={{ colorScheme: dark ? 'dark' : 'light' }}>
      {resetToken !== undefined ? <ResetPasswordPage token={resetToken} /> : <LoginPage {...props} />}
    </FluentProvider>
  )
}
