/**
 * The TanStack Router tree, built from the route catalogue under basepath /ui. Every route's `beforeLoad` is the
 * same guard: wait for the root app actor (start-up, profile of the current organization), switch to the route's
 * view, then apply `decide` (spec 000 §2.2, §6). Pages load lazily.
 */
import {
  createRootRouteWithContext, createRoute, createRouter, defaultParseSearch, lazyRouteComponent, Outlet, redirect, type AnyRoute,
} from '@tanstack/react-router'
import { trackOrigins } from '../ui/common/origin.ts'
import { isViewAllowed } from '../../machines/index.ts'
import { ensureView, viewOrgState, whenSettled } from '../app/appActor.ts'
import type { AppActorRef, AppSnapshot } from '../app/appMachine.ts'
import { ROUTABLE } from './catalog.ts'
import { ForbiddenError, StartupFailedError } from './errors.ts'
import { decide, hashLinkTarget, NOT_FOUND_PATH, type GuardState } from './guards.ts'
import { pageLoader } from './pages.ts'
import { startPageData } from './pageData.ts'
import { hasPerm } from '../ui/common/perms.ts'
import { retryImport } from '../ui/common/retryImport.ts'
import { manifestRoute } from '../views/entries.ts'
import type { RouteDef } from './types.ts'
import { PageTitle } from './PageTitle.tsx'
import { RootErrorPage, RoutePending, RouteErrorPage } from './RouteFallbacks.tsx'

export interface RouterContext {
  app: AppActorRef
  /**
   * Whether a page's loader waits for its data before the page shows: on every later navigation (the page left
   * stays until the data is there); on the first page of a visit only `FIRST_PAGE_WAIT_MS` at most (there is no
   * page to keep showing, so when the data is late the shell and the page's frame render while it comes —
   * docs/architecture.md, "First visit").
   */
  awaitData?: () => boolean
}

/**
 * How long the first page's loader waits for its data: long enough that data already asked early (src/api/early.ts)
 * renders with the page in one pass, short enough that late data does not hold back the shell.
 */
export const FIRST_PAGE_WAIT_MS = 150

declare module '@tanstack/react-router' {
  interface StaticDataRouteOption {
    /** The catalogue entry of the route. */
    route?: RouteDef
  }
}

export function guardState(s: AppSnapshot, app: AppActorRef): GuardState {
  return {
    profile: s.context.profile!,
    settings: s.context.settings,
    hasValidLicense: s.context.hasValidLicense,
    lastView: viewOrgState(app)?.lastView ?? s.context.lastView,
  }
}

/**
 * What a settled start-up means for a route: go on, wait for the login page the app is already leaving for (no
 * session, or no session mark: not an error, so nothing is thrown or logged — issue 17), or fail.
 */
export function startupOutcome(s: Pick<AppSnapshot, 'matches' | 'context'>): 'ready' | 'leaving' | 'failed' {
  if (s.matches('ready')) return 'ready'
  if (s.matches('loginRequired') || s.context.failure?.kind === 'no_session_mark') return 'leaving'
  return 'failed'
}

async function ready(app: AppActorRef): Promise<AppSnapshot> {
  const s = await whenSettled(app)
  const outcome = startupOutcome(s)
  if (outcome === 'leaving') return new Promise<never>(() => {}) // the browser is on its way to the login page
  if (outcome === 'failed') throw new StartupFailedError(s.context.failure, s.value as string)
  return s
}

/** The guard of one catalogue route. A preload (hover) never switches the view and never redirects. */
export function guardFor(route: RouteDef) {
  return async ({ context, location, preload }: { context: RouterContext; location: { pathname: string; search: unknown }; preload?: boolean }) => {
    const { app } = context
    let s = await ready(app)
    const profile = s.context.profile!
    if (preload) return
    if (route.view && isViewAllowed(route.view, profile, { hasValidLicense: s.context.hasValidLicense }) && viewOrgState(app)?.view !== route.view) {
      // Entering another view changes the organization in use, hence the permissions: wait for the new profile.
      s = await ensureView(app, route.view)
      if (!s.matches('ready')) throw new StartupFailedError(s.context.failure, 'stopped')
    }
    const decision = decide(route, location.pathname, guardState(s, app))
    switch (decision.kind) {
      case 'allow':
        return
      case 'redirect':
        throw redirect({ to: decision.to, replace: true, ...(decision.keepSearch ? { search: location.search as never } : {}) } as never)
      case 'forbidden':
        throw new ForbiddenError(decision.reason)
      case 'notFound':
        throw redirect({ to: NOT_FOUND_PATH, replace: true } as never)
      default:
        return decision satisfies never
    }
  }
}

/**
 * The loader of a manifest route: starts the page's data (src/router/pageData.ts) in the organization in use,
 * when the route is allowed there. A preload into another view does nothing: its organization is not known yet.
 */
export function loaderFor(route: RouteDef) {
  if (!manifestRoute(route.name)) return undefined
  return async ({ context, params, deps, location }: { context: RouterContext; params: Record<string, string>; deps: { search: Record<string, unknown> }; location: { pathname: string } }) => {
    const s = context.app.getSnapshot()
    if (!s.matches('ready')) return
    const viewOrg = viewOrgState(context.app)
    if (route.view && viewOrg?.view !== route.view) return
    if (decide(route, location.pathname, guardState(s, context.app)).kind !== 'allow') return
    const perms = new Set(s.context.profile!.perms)
    const data = startPageData({ name: route.name, orgId: viewOrg?.currentOrg?.id, params, search: deps.search, can: (p) => hasPerm(perms, p) })
    if (context.awaitData?.() !== false) await data
    else await Promise.race([data, new Promise((resolve) => setTimeout(resolve, FIRST_PAGE_WAIT_MS))])
  }
}

/** `:id` → `$id` (TanStack path syntax), relative to the layout route. */
export function routerPath(path: string): string {
  return path === '/' ? '/' : path.replace(/^\//, '').replace(/:([A-Za-z_]+)/g, '$$$1')
}

function hasPage(route: RouteDef): boolean {
  return route.kind === 'page'
}

/** Catalogue routes rendered without the shell (full-screen pages). */
export function isBare(route: RouteDef): boolean {
  return route.view === null ? route.name !== 'NotFound' && route.name !== 'Home' && route.kind === 'page' : route.name === 'ProfileImprovement'
}

function Root() {
  return (
    <>
      <PageTitle />
      <Outlet />
    </>
  )
}

export function buildRouteTree(shellComponent: () => React.ReactNode) {
  const rootRoute = createRootRouteWithContext<RouterContext>()({
    component: Root,
    beforeLoad: async ({ context, location }) => {
      const target = hashLinkTarget(location.pathname, location.hash)
      if (target) {
        const [to, query = ''] = target.split('?')
        throw redirect({ to, search: defaultParseSearch(query ? `?${query}` : ''), hash: '', replace: true } as never)
      }
      await ready(context.app)
    },
    errorComponent: RootErrorPage,
    pendingComponent: RoutePending,
  })
  const shell = createRoute({ getParentRoute: () => rootRoute, id: 'shell', component: shellComponent })
  const bare = createRoute({ getParentRoute: () => rootRoute, id: 'bare', component: Outlet })
  const children: Record<'shell' | 'bare', AnyRoute[]> = { shell: [], bare: [] }
  for (const def of ROUTABLE) {
    const parent = isBare(def) ? bare : shell
    const loader = loaderFor(def)
    const route = createRoute({
      getParentRoute: () => parent,
      path: routerPath(def.path),
      staticData: { route: def },
      beforeLoad: guardFor(def) as never,
      ...(loader ? { loader: loader as never, loaderDeps: (({ search }: { search: Record<string, unknown> }) => ({ search })) as never } : {}),
      // A page's chunk loads like every lazy part (waits for a restarting server, then reloads once if the document
      // kept the failure), not with the router's immediate reload, which showed the browser's error page.
      ...(hasPage(def) ? { component: lazyRouteComponent(() => retryImport(pageLoader(def.name)).then((Page) => ({ Page })), 'Page') } : {}),
      errorComponent: RouteErrorPage,
    })
    children[isBare(def) ? 'bare' : 'shell'].push(route as unknown as AnyRoute)
  }
  // Anything else is unknown: /404 (spec 000 §2.2).
  const unknown = createRoute({ getParentRoute: () => shell, path: '$', beforeLoad: () => { throw redirect({ to: NOT_FOUND_PATH, replace: true } as never) } })
  children.shell.push(unknown as unknown as AnyRoute)
  return rootRoute.addChildren([shell.addChildren(children.shell), bare.addChildren(children.bare)])
}

export function createAppRouter(app: AppActorRef, shellComponent: () => React.ReactNode) {
  let firstPageShown = false
  const router = createRouter({
    routeTree: buildRouteTree(shellComponent),
    basepath: '/ui',
    context: { app, awaitData: () => firstPageShown },
    // Hovering a link or menu entry loads its route: guard, data (our cache decides freshness, hence no
    // preload stale time of the router's own) and code chunk.
    defaultPreload: 'intent',
    defaultPreloadStaleTime: 0,
    defaultPendingMs: 300,
    defaultPendingComponent: RoutePending,
    defaultErrorComponent: RouteErrorPage,
    scrollRestoration: true,
  })
  trackOrigins(router)
  const stop = router.subscribe('onResolved', () => {
    firstPageShown = true
    stop()
  })
  return router
}

export type AppRouter = ReturnType<typeof createAppRouter>
