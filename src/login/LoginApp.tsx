import { useMemo } from 'react'
import { FluentProvider } from '@fluentui/react-components'
import { darkTheme } from '../app/darkTheme.ts'
import { lightTheme } from '../app/theme.ts'
import { LoginPage, type LoginPageProps } from './LoginPage.tsx'
import { ResetPasswordPage } from './ResetPasswordPage.tsx'
import { usePrefersDark } from './useColorScheme.ts'

/** Fluent with the green brand theme, light or dark as the system asks. */
export function LoginApp({ resetToken, ...props }: LoginPageProps & { resetToken?: string }) {
  const dark = usePrefersDark()
  const theme = useMemo(() => (dark ? darkTheme() : lightTheme()), [dark])
  return (
    <FluentProvider theme={theme} style={{ colorScheme: dark ? 'dark' : 'light' }}>
      {resetToken !== undefined ? <ResetPasswordPage token={resetToken} /> : <LoginPage {...props} />}
    </FluentProvider>
  )
}
