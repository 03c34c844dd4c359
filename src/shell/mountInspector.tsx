/**
 * Loads the built-in inspector (a lazy chunk: main.tsx imports it only for `?inspect`). In development anyone
 * may inspect; in a production build only a user holding INSPECTOR_PERMISSION (docs/decisions/inspector-permission.md), checked once
 * the profile is read — otherwise the recording stops and nothing is shown.
 */
import { createRoot } from 'react-dom/client'
import { FluentProvider, webLightTheme } from '@fluentui/react-components'
import { I18nProvider } from '@lingui/react'
import type { AppActorRef } from '../app/appMachine.ts'
import { whenSettled } from '../app/appActor.ts'
import { i18n } from '../app/i18n.ts'
import { hasPermission } from '../router/permissions.ts'
import { InspectorPanel } from '../ui/inspector/InspectorPanel.tsx'
import { connectInspector, inspectActors, startRecording, stopRecording } from '../ui/inspector/registry.ts'
import { InspectorStore } from '../ui/inspector/store.ts'

/** Who may open the inspector in a production build: those who may view the system settings. */
export const INSPECTOR_PERMISSION = 'settings.view_setting'

/** Starts recording (before the root actor exists); returns the observer to give the root actor. */
export function startInspection(): typeof inspectActors {
  startRecording()
  return inspectActors
}

export async function mountInspector(app: AppActorRef, production = !import.meta.env.DEV): Promise<boolean> {
  const settled = await whenSettled(app)
  return showInspector(settled.context.profile?.perms ?? [], production)
}

/**
 * Shows the inspector's view when allowed (any user in development; INSPECTOR_PERMISSION in production), else
 * stops the recording. The web terminal's entry calls it with the profile's permissions (src/luna/main.tsx).
 */
export function showInspector(perms: readonly string[], production = !import.meta.env.DEV): boolean {
  if (production && !hasPermission(perms, [INSPECTOR_PERMISSION])) {
    stopRecording()
    return false
  }
  const store = new InspectorStore()
  for (const event of connectInspector((event) => store.add(event, true))) store.add(event, false)
  const host = document.createElement('div')
  host.id = 'inspector-root'
  document.body.appendChild(host)
  createRoot(host).render(
    <I18nProvider i18n={i18n}>
      <FluentProvider theme={webLightTheme}>
        <InspectorPanel store={store} />
      </FluentProvider>
    </I18nProvider>,
  )
  return true
}
