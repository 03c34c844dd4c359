import { useMemo } from 'react'
import { FluentProvider } from '@fluentui/react-components'
import { darkTheme, lightTheme } from '../app/theme.ts'
import { LoginPage, type LoginPageProps } from './LoginPage.tsx'
import { usePrefersDark } from './useColorScheme.ts'

/** Fluent with the green brand theme, light or dark as the system asks. */
export function LoginApp(props: LoginPageProps) {
  const dark = usePrefersDark()
  const theme = useMemo(() => (dark ? darkTheme() : lightTheme()), [dark])
  return (
    <FluentProvider theme={theme} style={{ colorScheme: dark ? 'dark' : 'light' }}>
      <LoginPage {...props} />
    </FluentProvider>
  )
}
