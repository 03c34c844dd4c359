/** Test-only: renders a component inside the providers the console gives every page (Lingui, Fluent's light theme). */
import { FluentProvider, webLightTheme } from '@fluentui/react-components'
import { i18n } from '@lingui/core'
import { I18nProvider } from '@lingui/react'
import { render } from '@testing-library/react'
import type { ReactNode } from 'react'

export function renderInApp(ui: ReactNode) {
  return render(<I18nProvider i18n={i18n}><FluentProvider theme={webLightTheme}>{ui}</FluentProvider></I18nProvider>)
}
