import { makeStyles, tokens } from '@fluentui/react-components'
import { useLingui } from '@lingui/react/macro'
import { Outlet, useNavigate, useRouterState } from '@tanstack/react-router'
import { Suspense, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react'
import { loginUrl } from '../app/appActor.ts'
import { ROUTES, routeByName, viewRoot } from '../router/catalog.ts'
import type { RouteDef } from '../router/types.ts'
import { AccessProvider } from '../ui/common/access.tsx'
import { NotifyHost } from '../ui/common/notify.tsx'
import { deferred } from '../ui/common/deferred.tsx'
import { lazyRetry, retryImport } from '../ui/common/retryImport.ts'
import { isReloginAsked, subscribeRelogin } from '../ui/feedback/feedback.ts'
import type * as Chrome from './chrome.lazy.tsx'
import { HeaderFrame, SidebarFrame, TabsBarFrame } from './frames.tsx'
import { useSidebar } from './sidebar.ts'
import { selectDrawerOpen } from './SiteMessages.tsx'
import { addTab, replaceTab, closeAllTabs, isTabOf, closeOtherTabs, closeTab, loadTabs, saveTabs, tabsOfView, UNTABBED_ROUTES, withAffix, type VisitedTab } from './tabs.ts'
import { useOrganizations, useProfile } from './useShell.ts'
import { useSiteMessages } from '../app/AppProvider.tsx'
import { Warnings } from './Warnings.tsx'

// The chrome (header, menu, tabs): a chunk of its own, asked for as the shell first renders and drawn after a
// first page that is ready first (`useChromeAfterPage`); its frames hold its place meanwhile.
let chromeModule: Promise<typeof Chrome> | undefined
const loadChrome = () => (chromeModule ??= retryImport(() => import('./chrome.lazy.tsx')))
const Header = lazyRetry(() => loadChrome().then((m) => ({ default: m.Header })))
const Sidebar = lazyRetry(() => loadChrome().then((m) => ({ default: m.Sidebar })))
const TabsBar = lazyRetry(() => loadChrome().then((m) => ({ default: m.TabsBar })))

// Not on the first screen: loaded when first opened.
const SiteMessagesDrawer = deferred(() => import('./SiteMessagesDrawer.tsx').then((m) => m.SiteMessagesDrawer))
const ReloginDialog = deferred(() => import('../ui/feedback/ReloginDialog.tsx').then((m) => m.ReloginDialog))

const SYSTEM_ADMIN_ROLE = '00000000-0000-0000-0000-000000000001'

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', height: '100vh', backgroundColor: tokens.colorNeutralBackground2 },
  skip: {
    position: 'absolute', left: '-10000px', top: 0, zIndex: 1000,
    ':focus': { left: tokens.spacingHorizontalS, top: tokens.spacingVerticalS, padding: tokens.spacingHorizontalS, backgroundColor: tokens.colorNeutralBackground1, color: tokens.colorNeutralForeground1 },
  },
  body: { display: 'flex', flexGrow: 1, minHeight: 0 },
  main: {
    display: 'flex', flexDirection: 'column', flexGrow: 1, minWidth: 0, overflow: 'auto', ':focus': { outlineStyle: 'none' },
    // Rules for every page, so no page scrolls sideways on a narrow screen (issue 35; tests/e2e/narrow.spec.ts walks
    // every page at 360 px): a row of tabs or of radio buttons wraps rather than running past the window. (Nested
    // rules of this class, not static ones: those are inserted while rendering, not extracted at build time.)
    '& [role="tablist"][aria-orientation="horizontal"]': { flexWrap: 'wrap' },
    '& .fui-RadioGroup': { flexWrap: 'wrap' },
  },
  content: { flexGrow: 1, padding: tokens.spacingHorizontalL, backgroundColor: tokens.colorNeutralBackground1, margin: tokens.spacingHorizontalS, borderRadius: tokens.borderRadiusMedium },
})

type NavState = { status: string; location: { href: string; state?: { __TSR_index?: number } }; matches: { status?: string; staticData?: { route?: RouteDef } }[] }
/**
 * The settled location, its route and its history index, read together so a tab never mixes a new title with an
 * old address. The index tells a replacing navigation (same index as the last visit) from a new entry.
 */
const selectVisit = (s: NavState) =>
  s.status === 'idle'
    ? `${s.location.href}\u0000${s.matches.at(-1)?.status === 'error' ? '' : s.matches.at(-1)?.staticData?.route?.name ?? ''}\u0000${s.location.state?.__TSR_index ?? ''}`
    : ''

/** How long the chrome waits for a first page still loading before it draws anyway. */
export const CHROME_WAIT_MS = 150

/**
 * Whether the shell's chrome (header, menu, tabs) is drawn yet. Its first render costs a tenth of a second on a
 * slow machine; when the first page is ready as the shell first renders (a first visit: its answers came while
 * the code downloaded), the page goes first, in frames of the chrome's size, and the chrome follows in the next
 * frame, after the page is painted. A page still loading does not hold the chrome back longer than
 * `CHROME_WAIT_MS`: it draws while the page's answers are on their way. Once drawn, it stays. `load` starts the
 * chrome's code: after the painted page, or at once while the page still loads (asking for a chunk costs the
 * page's main thread several ms, which a first page ready to draw should not wait for).
 */
export function useChromeAfterPage(pageShown: boolean, load: () => void = () => undefined): boolean {
  const [ready, setReady] = useState(false)
  useEffect(() => {
    if (ready) return
    let frame = 0
    let timer: ReturnType<typeof setTimeout> | undefined
    if (pageShown) {
      frame = requestAnimationFrame(() => (timer = setTimeout(() => {
        load()
        setReady(true)
      }, 0)))
    } else {
      load()
      timer = setTimeout(() => setReady(true), CHROME_WAIT_MS)
    }
    return () => {
      cancelAnimationFrame(frame)
      clearTimeout(timer)
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `load` is called once, whichever came first
  }, [ready, pageShown])
  return ready
}

/** The frame every console screen lives in (spec 000 §2.3): header, left menu, tabs, warnings, page. */
export function Shell() {
  const { t } = useLingui()
  const styles = useStyles()
  const sidebar = useSidebar()
  const navigate = useNavigate()
  const visit = useRouterState({ select: selectVisit as never }) as string
  const [visitHref, visitName, visitIndex] = visit.split('\u0000')
  const lastVisit = useRef<{ href: string; index: string }>(undefined)
  const href = useRouterState({ select: ((s: NavState) => s.location.href) as never }) as string
  const profile = useProfile()
  const { currentOrg } = useOrganizations()
  const messagesOpen = useSiteMessages(selectDrawerOpen)
  const reloginAsked = useSyncExternalStore(subscribeRelogin, isReloginAsked, isReloginAsked)
  const [tabs, setTabs] = useState<VisitedTab[]>(() => loadTabs(sessionStorage, (name) => routeByName(name)?.title))
  const [view, setView] = useState<string | null>(null)
  // Saved when the page is idle (or leaves): a page's first storage write waits on the browser (≈7 ms during a
  // first visit), which the first rows should not.
  useEffect(() => {
    const save = () => saveTabs(sessionStorage, tabs)
    if (typeof requestIdleCallback !== 'function') return save()
    const id = requestIdleCallback(save, { timeout: 1_000 })
    addEventListener('pagehide', save)
    return () => {
      cancelIdleCallback(id)
      removeEventListener('pagehide', save)
    }
  }, [tabs])

  useEffect(() => {
    const visited = visitName ? routeByName(visitName) : undefined
    if (!visitHref || !visited || visited.kind !== 'page' || UNTABBED_ROUTES.has(visited.name)) return
    setView(visited.view)
    const home = visited.view ? viewRoot(visited.view).redirect : undefined
    const homeRoute = home ? ROUTES.find((r) => r.path === home) : undefined
    const previous = lastVisit.current
    lastVisit.current = { href: visitHref, index: visitIndex ?? '' }
    const replaced = previous !== undefined && previous.index !== '' && previous.index === visitIndex && previous.href !== visitHref
    setTabs((list) => {
      const tab = { href: visitHref, name: visited.name, title: visited.title, affix: visitHref === home, view: visited.view }
      const added = replaced ? replaceTab(list, previous.href, tab) : addTab(list, tab)
      return homeRoute && home ? withAffix(added, { href: home, name: homeRoute.name, title: homeRoute.title, affix: true, view: visited.view }) : added
    })
    sidebar.closeOnMobile()
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [visitHref, visitName, visitIndex])

  const access = useMemo(
    () => ({
      perms: new Set(profile.perms),
      orgId: currentOrg?.id,
      userId: profile.id,
      isSystemAdmin: profile.system_roles.some((r) => r.id === SYSTEM_ADMIN_ROLE),
    }),
    [profile, currentOrg],
  )
  const go = (to: string | null) => to && void navigate({ href: to } as never)
  const chrome = useChromeAfterPage(!!visitHref, loadChrome)

  return (
    <div className={styles.root}>
      <a className={styles.skip} href="#main">{t`Skip to the page content`}</a>
      {chrome ? (
        <Suspense fallback={<HeaderFrame />}>
          <Header navOpen={sidebar.open} onToggleNav={sidebar.toggle} />
        </Suspense>
      ) : <HeaderFrame />}
      <div className={styles.body}>
        <div id="main-menu">
          {chrome ? (
            <Suspense fallback={<SidebarFrame open={sidebar.open} inline={!sidebar.isMobile} />}>
              <Sidebar open={sidebar.open} type={sidebar.isMobile ? 'overlay' : 'inline'} onClose={() => sidebar.setOpen(false)} onNavigate={sidebar.closeOnMobile} />
            </Suspense>
          ) : <SidebarFrame open={sidebar.open} inline={!sidebar.isMobile} />}
        </div>
        {/* busy while a page loads; `data-settled`: the address of the page shown (the end-to-end walks wait on it) */}
        <main id="main" className={styles.main} tabIndex={-1} aria-busy={visitHref ? undefined : true} data-settled={visitHref || undefined}>
          <Warnings />
          {chrome ? <Suspense fallback={<TabsBarFrame />}><TabsBar
            tabs={tabsOfView(tabs, view)}
            activeHref={href}
            onClose={(h) => {
              const r = closeTab(tabs, h, href)
              setTabs(r.tabs)
              go(r.goTo)
            }}
            onCloseOthers={(h) => setTabs(closeOtherTabs(tabs, h))}
            onCloseAll={() => {
              const kept = closeAllTabs(tabs, view)
              setTabs(kept)
              if (!kept.some((tab) => isTabOf(tab, href))) go(tabsOfView(kept, view)[0]?.href ?? '/')
            }}
          /></Suspense> : <TabsBarFrame />}
          <div className={styles.content}>
            <AccessProvider value={access}>
              <Outlet />
            </AccessProvider>
          </div>
        </main>
      </div>
      <SiteMessagesDrawer when={messagesOpen} />
      <ReloginDialog when={reloginAsked} loginHref={loginUrl} />
      <NotifyHost />
    </div>
  )
}
