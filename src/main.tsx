import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { createAppActor, routerPath } from './app/appActor.ts'
import { App } from './app/App.tsx'
import { activateLocale, detectLocale } from './app/i18n.ts'
import { hashLinkTarget } from './router/guards.ts'
import { createAppRouter } from './router/router.tsx'
import { registerTransferTools } from './ui/export/transferTools.tsx'
import { Shell } from './ui/layout/Shell.tsx'

async function main() {
  // Import and export join every list's header tools.
  registerTransferTools()
  // Links the server still writes as /ui/#/x become /ui/x before anything reads the location.
  const target = hashLinkTarget(routerPath(window.location.pathname), window.location.hash)
  if (target) window.history.replaceState(null, '', `/ui${target}`)
  await activateLocale(detectLocale())
  let inspect
  if (import.meta.env.DEV && new URLSearchParams(window.location.search).has('inspect')) {
    // Development only, and never in the first load of a production build.
    const { createBrowserInspector } = await import('@statelyai/inspect')
    inspect = createBrowserInspector().inspect
  }
  const app = createAppActor({ inspect })
  const router = createAppRouter(app, Shell)
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App app={app} router={router} />
    </StrictMode>,
  )
}

void main()
