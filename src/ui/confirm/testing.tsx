/** Test-only helpers for the confirm, import and export dialogs (never imported by production code). */
import { generateKeyPairSync } from 'node:crypto'
import type { ReactElement } from 'react'
import { FluentProvider } from '@fluentui/react-components'
import { i18n } from '@lingui/core'
import { I18nProvider } from '@lingui/react'
import { render, type RenderResult } from '@testing-library/react'
import { lightTheme } from '../../app/theme.ts'

/** A `jms_public_key` cookie value (quoted base64 of a PEM public key, as the server sets it). */
export const PUBLIC_KEY_COOKIE = (() => {
  const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 1024 })
  return `"${btoa(publicKey.export({ type: 'spki', format: 'pem' }).toString())}"`
})()

export function renderUi(ui: ReactElement): RenderResult {
  if (i18n.locale !== 'en') i18n.loadAndActivate({ locale: 'en', messages: {} })
  return render(
    <I18nProvider i18n={i18n}>
      <FluentProvider theme={lightTheme()}>{ui}</FluentProvider>
    </I18nProvider>,
  )
}
