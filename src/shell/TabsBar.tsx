import { Button, makeStyles, mergeClasses, tokens } from '@fluentui/react-components'
import { Menu, MenuItem, MenuList, MenuPopover, MenuTrigger } from '../ui/common/overlays.tsx'
import { DismissRegular, MoreHorizontalRegular } from '@fluentui/react-icons'
import { useLingui } from '@lingui/react/macro'
import { useNavigate, useRouter } from '@tanstack/react-router'
import { useLayoutEffect, useRef, type KeyboardEvent, type MouseEvent } from 'react'
import { routeByName } from '../router/catalog.ts'
import { isTabOf, scrollToShow, type VisitedTab } from './tabs.ts'
import { useFrameStyles } from './frames.tsx'
import { useCurrentView } from './useShell.ts'
import { VIEW_TITLES } from './ViewSwitcher.tsx'

const useStyles = makeStyles({
  bar: { gap: tokens.spacingHorizontalXS },
  list: { display: 'flex', gap: tokens.spacingHorizontalXS, listStyleType: 'none', margin: 0, padding: 0, overflowX: 'auto', flexGrow: 1, position: 'relative' },
  tab: {
    display: 'flex', alignItems: 'center', borderRadius: tokens.borderRadiusMedium, border: `1px solid ${tokens.colorNeutralStroke1}`,
    backgroundColor: tokens.colorNeutralBackground1, whiteSpace: 'nowrap',
  },
  active: { backgroundColor: tokens.colorBrandBackground, border: `1px solid ${tokens.colorBrandBackground}` },
  link: {
    color: tokens.colorNeutralForeground1, textDecorationLine: 'none', paddingInline: tokens.spacingHorizontalS,
    paddingBlock: tokens.spacingVerticalXXS, fontSize: tokens.fontSizeBase200,
    ':focus-visible': { outlineStyle: 'solid', outlineWidth: '2px', outlineColor: tokens.colorStrokeFocus2 },
  },
  activeLink: { color: tokens.colorNeutralForegroundOnBrand },
  close: { minWidth: '20px', height: '20px', padding: 0 },
  activeClose: { color: tokens.colorNeutralForegroundOnBrand },
})

interface Props {
  tabs: readonly VisitedTab[]
  activeHref: string
  onClose: (href: string) => void
  onCloseOthers: (href: string) => void
  onCloseAll: () => void
}

/**
 * The visited pages (spec 000 §2.3): each is a link plus a close button; Delete on a focused link closes it.
 * Affixed tabs (the view's home) have no close button.
 */
export function TabsBar({ tabs, activeHref, onClose, onCloseOthers, onCloseAll }: Props) {
  const { t, i18n } = useLingui()
  const currentView = useCurrentView()
  const styles = useStyles()
  const frames = useFrameStyles()
  const router = useRouter()
  const navigate = useNavigate()
  const listRef = useRef<HTMLUListElement>(null)
  const activeKey = tabs.find((tab) => isTabOf(tab, activeHref))?.href
  // The active tab scrolls into view in the bar (only sideways: the page itself does not move).
  useLayoutEffect(() => {
    const list = listRef.current
    const item = list?.querySelector<HTMLElement>('[aria-current="page"]')?.parentElement
    if (!list || !item) return
    const left = scrollToShow(item.offsetLeft, item.offsetWidth, list.scrollLeft, list.clientWidth)
    if (left !== list.scrollLeft) list.scrollLeft = left
  }, [activeKey, tabs.length])
  if (tabs.length === 0) return null
  const open = (tab: VisitedTab) => (e: MouseEvent) => {
    if (e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return
    e.preventDefault()
    void navigate({ href: tab.href } as never)
  }
  const onKey = (tab: VisitedTab) => (e: KeyboardEvent) => {
    if ((e.key === 'Delete' || e.key === 'Backspace') && !tab.affix) {
      e.preventDefault()
      onClose(tab.href)
    }
  }
  return (
    <nav className={mergeClasses(frames.tabs, frames.row, styles.bar)} aria-label={t`Open pages`}>
      <ul className={styles.list} ref={listRef}>
        {tabs.map((tab) => {
          const active = isTabOf(tab, activeHref)
          // Pages of another view say which (two views both have a "Dashboard").
          const view = routeByName(tab.name)?.view
          const title = view && currentView && view !== currentView ? `${i18n._(VIEW_TITLES[view])} · ${i18n._(tab.title)}` : i18n._(tab.title)
          return (
            <li key={tab.href} className={mergeClasses(styles.tab, active && styles.active)}>
              <a
                href={router.buildLocation({ href: tab.href } as never).publicHref}
                className={mergeClasses(styles.link, active && styles.activeLink)}
                aria-current={active ? 'page' : undefined}
                onClick={open(tab)}
                onKeyDown={onKey(tab)}
              >
                {title}
              </a>
              {!tab.affix && (
                <Button
                  appearance="transparent"
                  size="small"
                  className={mergeClasses(styles.close, active && styles.activeClose)}
                  icon={<DismissRegular fontSize={12} />}
                  aria-label={t`Close ${title}`}
                  onClick={() => onClose(tab.href)}
                />
              )}
            </li>
          )
        })}
      </ul>
      <Menu>
        <MenuTrigger disableButtonEnhancement>
          <Button appearance="subtle" size="small" icon={<MoreHorizontalRegular />} aria-label={t`Tab actions`} />
        </MenuTrigger>
        <MenuPopover>
          <MenuList>
            <MenuItem onClick={() => onClose(activeHref)}>{t`Close this page`}</MenuItem>
            <MenuItem onClick={() => onCloseOthers(activeHref)}>{t`Close other pages`}</MenuItem>
            <MenuItem onClick={onCloseAll}>{t`Close all pages`}</MenuItem>
          </MenuList>
        </MenuPopover>
      </Menu>
    </nav>
  )
}
