import {
  makeStyles, Nav, NavCategory, NavCategoryItem, NavItem, NavSubItem, NavSubItemGroup, tokens, type NavProps,
} from '@fluentui/react-components'
import { OpenRegular } from '@fluentui/react-icons'
import { useLingui } from '@lingui/react/macro'
import { useNavigate, useRouter } from '@tanstack/react-router'
import { useEffect, useMemo, useState, type ComponentType, type MouseEvent, type ReactNode } from 'react'
import { buildMenu, DEFAULT_OPEN_MENUS, type MenuEntry } from '../router/menu.ts'
import { MENU_ICONS } from './icons.tsx'
import { useFrameStyles } from './frames.tsx'
import { useCurrentRoute, useCurrentView, useGuardFacts } from './useShell.ts'
import { deferred } from '../ui/common/deferred.tsx'
import { useIntentPreload } from '../ui/common/navigation.tsx'

const useStyles = makeStyles({
  // the overlay of narrow screens (the inline menu takes its box from frames.tsx)
  drawer: { height: '100%', borderRight: `1px solid ${tokens.colorNeutralStroke2}` },
  body: { display: 'flex', flexDirection: 'column', flexGrow: 1, overflowY: 'auto', paddingInline: tokens.spacingHorizontalS, paddingBlock: tokens.spacingVerticalS, gap: tokens.spacingVerticalXXS },
  external: { marginLeft: 'auto', fontSize: '12px' },
})

/** The overlay of narrow screens (a modal NavDrawer), loaded when first opened. */
const OverlayNav = deferred(() => import('./SidebarOverlay.tsx').then((m) => m.SidebarOverlay as ComponentType<NavProps & { open: boolean; onClose: () => void }>))

interface Props {
  open: boolean
  type: 'inline' | 'overlay'
  onClose: () => void
  onNavigate: () => void
}

/** The left menu of the current view (spec 000 §2.3), built from the route catalogue. */
export function Sidebar({ open, type, onClose, onNavigate }: Props) {
  const styles = useStyles()
  const frames = useFrameStyles()
  const { t, i18n } = useLingui()
  const view = useCurrentView()
  const facts = useGuardFacts()
  const route = useCurrentRoute()
  const navigate = useNavigate()
  const router = useRouter()
  const menu = useMemo(() => (view ? buildMenu(view, facts) : []), [view, facts])
  const active = route?.activeMenu ?? ''
  const activeGroup = menu.find((e) => e.children?.some((c) => c.path === active))?.path
  const [opened, setOpened] = useState<string[]>(() => [...DEFAULT_OPEN_MENUS])
  useEffect(() => {
    if (activeGroup) setOpened((o) => (o.includes(activeGroup) ? o : [...o, activeGroup]))
  }, [activeGroup])

  const hrefOf = (e: MenuEntry) => (e.external ? e.path : router.buildLocation({ to: e.path as never }).publicHref)
  const go = (e: MenuEntry) => (ev: MouseEvent) => {
    if (e.external || ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.button !== 0) return
    ev.preventDefault()
    void navigate({ to: e.path as never })
    onNavigate()
  }
  const label = (e: MenuEntry) => i18n._(e.title)
  const preload = useIntentPreload()
  // Internal entries preload their route on hover or focus (not in the overlay drawer of narrow screens, which a
  // settling preload would close); external ones open a server page in a new tab.
  const externalProps = (e: MenuEntry) => (e.external ? { target: '_blank', rel: 'noopener noreferrer' } : type === 'overlay' ? {} : preload(e.path))

  const navProps: NavProps = {
    className: styles.drawer,
    selectedValue: active,
    selectedCategoryValue: activeGroup,
    openCategories: opened,
    onNavCategoryItemToggle: (_, d) => {
      const v = String(d.categoryValue ?? d.value)
      setOpened((o) => (o.includes(v) ? o.filter((x) => x !== v) : [...o, v]))
    },
    'aria-label': type === 'overlay' ? t`Menu` : t`Main menu`,
  }
  const content = (
    <div className={styles.body}>
      <Landmark overlay={type === 'overlay'} label={t`Main menu`}>
      {menu.map((e) => {
        const Icon = e.icon ? MENU_ICONS[e.icon] : undefined
        if (!e.children) {
          return (
            <NavItem key={e.name} value={e.path} href={hrefOf(e)} icon={Icon ? <Icon fontSize={20} /> : undefined} onClick={go(e)} {...externalProps(e)}>
              {label(e)}
              {e.external && <OpenRegular className={styles.external} aria-label={t`opens in a new tab`} />}
            </NavItem>
          )
        }
        return (
          <NavCategory key={e.name} value={e.path}>
            <NavCategoryItem icon={Icon ? <Icon fontSize={20} /> : undefined}>{label(e)}</NavCategoryItem>
            <NavSubItemGroup>
              {e.children.map((c) => (
                <NavSubItem key={c.name} value={c.path} href={hrefOf(c)} onClick={go(c)} {...externalProps(c)}>
                  {label(c)}
                </NavSubItem>
              ))}
            </NavSubItemGroup>
          </NavCategory>
        )
      })}
      </Landmark>
    </div>
  )
  if (type === 'overlay') return <OverlayNav when={open} open={open} onClose={onClose} {...navProps}>{content}</OverlayNav>
  if (!open) return null
  // What NavDrawer's inline drawer looks like (width, background, a column that scrolls inside: frames.tsx), without
  // the drawer and dialog code, which only the overlay of narrow screens needs.
  return <Nav {...navProps} role="navigation" className={frames.sidebar}>{content}</Nav>
}

/** In the overlay the drawer is a dialog; the navigation landmark goes inside it. */
function Landmark({ overlay, label, children }: { overlay: boolean; label: string; children: ReactNode }) {
  return overlay ? <nav aria-label={label}>{children}</nav> : <>{children}</>
}
