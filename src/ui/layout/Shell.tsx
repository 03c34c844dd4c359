import { makeStyles, tokens } from '@fluentui/react-components'
import { useLingui } from '@lingui/react/macro'
import { Outlet, useNavigate, useRouterState } from '@tanstack/react-router'
import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react'
import { loginUrl } from '../../app/appActor.ts'
import { ROUTES, routeByName, viewRoot } from '../../router/catalog.ts'
import type { RouteDef } from '../../router/types.ts'
import { AccessProvider } from '../common/access.tsx'
import { NotifyHost } from '../common/notify.tsx'
import { deferred } from '../common/deferred.tsx'
import { isReloginAsked, subscribeRelogin } from '../feedback/feedback.ts'
import { Header } from './Header.tsx'
import { Sidebar } from './Sidebar.tsx'
import { useSidebar } from './sidebar.ts'
import { selectDrawerOpen } from './SiteMessages.tsx'
import { addTab, replaceTab, closeAllTabs, isTabOf, closeOtherTabs, closeTab, loadTabs, saveTabs, withAffix, type VisitedTab } from './tabs.ts'
import { TabsBar } from './TabsBar.tsx'
import { useOrganizations, useProfile } from './useShell.ts'
import { useSiteMessages } from '../../app/AppProvider.tsx'
import { Warnings } from './Warnings.tsx'

// Not on the first screen: loaded when first opened.
const SiteMessagesDrawer = deferred(() => import('./SiteMessagesDrawer.tsx').then((m) => m.SiteMessagesDrawer))
const ReloginDialog = deferred(() => import('../feedback/ReloginDialog.tsx').then((m) => m.ReloginDialog))

const SYSTEM_ADMIN_ROLE = '00000000-0000-0000-0000-000000000001'

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', height: '100vh', backgroundColor: tokens.colorNeutralBackground2 },
  skip: {
    position: 'absolute', left: '-10000px', top: 0, zIndex: 1000,
    ':focus': { left: tokens.spacingHorizontalS, top: tokens.spacingVerticalS, padding: tokens.spacingHorizontalS, backgroundColor: tokens.colorNeutralBackground1, color: tokens.colorNeutralForeground1 },
  },
  body: { display: 'flex', flexGrow: 1, minHeight: 0 },
  main: { display: 'flex', flexDirection: 'column', flexGrow: 1, minWidth: 0, overflow: 'auto', ':focus': { outlineStyle: 'none' } },
  content: { flexGrow: 1, padding: tokens.spacingHorizontalL, backgroundColor: tokens.colorNeutralBackground1, margin: tokens.spacingHorizontalS, borderRadius: tokens.borderRadiusMedium },
})

type NavState = { status: string; location: { href: string; state?: { __TSR_index?: number } }; matches: { staticData?: { route?: RouteDef } }[] }
/**
 * The settled location, its route and its history index, read together so a tab never mixes a new title with an
 * old address. The index tells a replacing navigation (same index as the last visit) from a new entry.
 */
const selectVisit = (s: NavState) =>
  s.status === 'idle'
    ? `${s.location.href}\u0000${s.matches[s.matches.length - 1]?.staticData?.route?.name ?? ''}\u0000${s.location.state?.__TSR_index ?? ''}`
    : ''

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
  const [tabs, setTabsState] = useState<VisitedTab[]>(() => loadTabs(sessionStorage, (name) => routeByName(name)?.title))
  const setTabs = (next: VisitedTab[] | ((list: VisitedTab[]) => VisitedTab[])) =>
    setTabsState((list) => {
      const value = typeof next === 'function' ? next(list) : next
      saveTabs(sessionStorage, value)
      return value
    })

  useEffect(() => {
    const visited = visitName ? routeByName(visitName) : undefined
    if (!visitHref || !visited || visited.kind !== 'page') return
    const home = visited.view ? viewRoot(visited.view).redirect : undefined
    const homeRoute = home ? ROUTES.find((r) => r.path === home) : undefined
    const previous = lastVisit.current
    lastVisit.current = { href: visitHref, index: visitIndex ?? '' }
    const replaced = previous !== undefined && previous.index !== '' && previous.index === visitIndex && previous.href !== visitHref
    setTabs((list) => {
      const tab = { href: visitHref, name: visited.name, title: visited.title, affix: visitHref === home }
      const added = replaced ? replaceTab(list, previous.href, tab) : addTab(list, tab)
      return homeRoute && home ? withAffix(added, { href: home, name: homeRoute.name, title: homeRoute.title, affix: true }) : added
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

  return (
    <div className={styles.root}>
      <a className={styles.skip} href="#main">{t`Skip to the page content`}</a>
      <Header navOpen={sidebar.open} onToggleNav={sidebar.toggle} />
      <div className={styles.body}>
        <div id="main-menu">
          <Sidebar open={sidebar.open} type={sidebar.isMobile ? 'overlay' : 'inline'} onClose={() => sidebar.setOpen(false)} onNavigate={sidebar.closeOnMobile} />
        </div>
        {/* busy while a page loads; `data-settled`: the address of the page shown (the end-to-end walks wait on it) */}
        <main id="main" className={styles.main} tabIndex={-1} aria-busy={visitHref ? undefined : true} data-settled={visitHref || undefined}>
          <Warnings />
          <TabsBar
            tabs={tabs}
            activeHref={href}
            onClose={(h) => {
              const r = closeTab(tabs, h, href)
              setTabs(r.tabs)
              go(r.goTo)
            }}
            onCloseOthers={(h) => setTabs(closeOtherTabs(tabs, h))}
            onCloseAll={() => {
              const kept = closeAllTabs(tabs)
              setTabs(kept)
              if (!kept.some((tab) => isTabOf(tab, href))) go(kept[0]?.href ?? '/')
            }}
          />
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
