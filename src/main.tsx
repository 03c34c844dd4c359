import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { createAppActor, routerPath } from './app/appActor.ts'
import { App } from './app/App.tsx'
import { activateLocale, detectLocale } from './app/i18n.ts'
import { hashLinkTarget } from './router/guards.ts'
import { createAppRouter } from './router/router.tsx'
import { registerTransferTools } from './ui/export/transferTools.tsx'
import { Shell } from './ui/layout/Shell.tsx'

/**
 * Starts loading the code of the page the browser opened now, beside the start-up calls: its route's guard waits
 * for the app to be ready, its code need not (issue 17, "fewer round trips").
 */
function preloadOpenedPage(router: ReturnType<typeof createAppRouter>): void {
  try {
    for (const match of router.matchRoutes(router.state.location) ?? []) {
      const route = (router.routesById as Record<string, Parameters<typeof router.loadRouteChunk>[0] | undefined>)[match.routeId]
      if (route) void Promise.resolve(router.loadRouteChunk(route)).catch(() => {}) // a failure shows when the page really loads
    }
  } catch {
    // only a head start: the router loads the page anyway
  }
}

async function main() {
  // Import and export join every list's header tools.
  registerTransferTools()
  // Links the server still writes as /ui/#/x become /ui/x before anything reads the location.
  const target = hashLinkTarget(routerPath(window.location.pathname), window.location.hash)
  if (target) window.history.replaceState(null, '', `/ui${target}`)
  // The catalogue downloads while the app starts (its start-up calls are already under way, src/api/early.ts)
  // and the opened page's code loads (below); nothing renders before it is active.
  const locale = activateLocale(detectLocale())
  let inspect
  if (import.meta.env.DEV && new URLSearchParams(window.location.search).has('inspect')) {
    // Development only, and never in the first load of a production build.
    const { createBrowserInspector } = await import('@statelyai/inspect')
    inspect = createBrowserInspector().inspect
  }
  const app = createAppActor({ inspect })
  const router = createAppRouter(app, Shell)
  preloadOpenedPage(router)
  await locale
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App app={app} router={router} />
    </StrictMode>,
  )
}

void main()
