// Fluent's light theme as the stylesheet's variables, made at build time (src/app/theme.ts, lightTheme).
import 'virtual:bastion/light-theme.css'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { createAppActor, routerPath } from './app/appActor.ts'
import { App, prepareTheme } from './app/App.tsx'
import { dropEarly } from './api/earlyAnswers.ts'
import { activateLocale, detectLocale } from './app/i18n.ts'
import { currentScheme } from './app/themeMode.ts'
import { hashLinkTarget } from './router/guards.ts'
import { createAppRouter } from './router/router.tsx'
import { registerTransferTools } from './ui/export/transferTools.tsx'
import { Shell } from './shell/Shell.tsx'
import type * as BuiltInInspector from './shell/mountInspector.tsx'

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
  // Marks of the first visit's timeline (`BENCH_LIST=1 npm run bench:console` prints them).
  performance.mark('bastion:main')
  // Import and export join every list's header tools.
  registerTransferTools()
  // Links the server still writes as /ui/#/x become /ui/x before anything reads the location.
  const target = hashLinkTarget(routerPath(window.location.pathname), window.location.hash)
  if (target) window.history.replaceState(null, '', `/ui${target}`)
  // The catalogue downloads while the app starts (its start-up calls are already under way, src/api/early.ts)
  // and the opened page's code loads (below); nothing renders before it is active.
  const locale = activateLocale(detectLocale())
  // `?inspect`: the built-in inspector (a lazy chunk; in production only for permitted users, mountInspector.tsx);
  // `?inspect=stately` in development: the hosted Stately inspector (needs the internet).
  const inspectParam = new URLSearchParams(window.location.search).get('inspect')
  let inspect
  let builtIn: typeof BuiltInInspector | undefined
  if (import.meta.env.DEV && inspectParam === 'stately') {
    const { createBrowserInspector } = await import('@statelyai/inspect')
    inspect = createBrowserInspector().inspect
  } else if (inspectParam !== null) {
    builtIn = await import('./shell/mountInspector.tsx')
    inspect = builtIn.startInspection()
  }
  const app = createAppActor({ inspect })
  void builtIn?.mountInspector(app)
  const router = createAppRouter(app, Shell)
  preloadOpenedPage(router)
  // Early answers (src/api/early.ts) serve the first page only: what is left after it is forgotten.
  const stopDropping = router.subscribe('onResolved', () => {
    stopDropping()
    dropEarly()
  })
  await Promise.all([locale, prepareTheme(currentScheme())])
  performance.mark('bastion:render')
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App app={app} router={router} />
    </StrictMode>,
  )
}

void main()
