/**
 * A generic lazy tree (Fluent v9 Tree): roots first, each branch's children loaded when it opens, counts after
 * the titles, one selected item, and per-item actions in a context menu (right click, Shift+F10 or the
 * context-menu key, and the item's "More" button). Keyboard navigation is Fluent's (arrows, Home/End, Enter).
 * It knows no resource: the page gives `load` and `actions`.
 */
import { Badge, Button, makeStyles, mergeClasses, Spinner, tokens, Tree, TreeItem, TreeItemLayout, type TreeOpenChangeData } from '@fluentui/react-components'
import { Menu, MenuItem, MenuList, MenuPopover, MenuTrigger } from '../common/overlays.tsx'
import { ChevronDownRegular, ChevronUpRegular, MoreHorizontalRegular } from '@fluentui/react-icons'
import { useLingui } from '@lingui/react/macro'
import { forwardRef, useCallback, useEffect, useId, useImperativeHandle, useRef, useState, useSyncExternalStore, type ReactElement, type ReactNode } from 'react'
import type { TreeItem as Item } from '../../api/tree.ts'
import { describeError } from '../common/errors.ts'

export interface TreeAction {
  id: string
  label: string
  icon?: ReactElement
  disabled?: boolean
  run: (item: Item) => void
}

export interface LazyTreeProps {
  /** accessible name of the tree */
  label: string
  /** the roots (no parent) or the children of a branch */
  load: (parent?: Item) => Promise<Item[]>
  /** the selected item's `data.id` */
  selected?: string
  onSelect: (item: Item) => void
  actions?: (item: Item) => TreeAction[]
}

export interface LazyTreeHandle {
  /** loads the roots and every open branch again (after a change) */
  reload: () => Promise<void>
}

const useStyles = makeStyles({
  root: { minWidth: '220px', overflowX: 'auto' },
  selected: { backgroundColor: tokens.colorNeutralBackground1Selected, fontWeight: tokens.fontWeightSemibold },
  error: { color: tokens.colorPaletteRedForeground1, padding: tokens.spacingVerticalS },
})

const idOf = (item: Item) => String(item.data.id ?? item.id)

export const LazyTree = forwardRef<LazyTreeHandle, LazyTreeProps>(function LazyTree({ label, load, selected, onSelect, actions }, ref) {
  const styles = useStyles()
  const { t } = useLingui()
  const [roots, setRoots] = useState<Item[] | undefined>()
  const [children, setChildren] = useState<Record<string, Item[]>>({})
  const [open, setOpen] = useState<Set<string>>(new Set())
  const [loading, setLoading] = useState<Set<string>>(new Set())
  const [error, setError] = useState<string | undefined>()
  const openRef = useRef(open)
  useEffect(() => {
    openRef.current = open
  })

  const loadBranch = useCallback(async (item: Item) => {
    setLoading((s) => new Set(s).add(item.id))
    try {
      const kids = await load(item)
      setChildren((c) => ({ ...c, [item.id]: kids }))
    } catch (e) {
      setError(describeError(e))
    } finally {
      setLoading((s) => { const n = new Set(s); n.delete(item.id); return n })
    }
  }, [load])

  const reload = useCallback(async () => {
    try {
      setError(undefined)
      const top = await load()
      setRoots(top)
      // roots that come open, and their children delivered with them, need no second request
      const delivered = top.filter((x) => x.parentId && top.some((p) => p.id === x.parentId))
      const byParent: Record<string, Item[]> = {}
      for (const x of delivered) (byParent[x.parentId] ??= []).push(x)
      const openNow = new Set(openRef.current)
      for (const r of top) if (r.open) openNow.add(r.id)
      setOpen(openNow)
      const next: Record<string, Item[]> = { ...byParent }
      for (const id of openNow) {
        if (next[id]) continue
        const item = top.find((x) => x.id === id) ?? Object.values(children).flat().find((x) => x.id === id)
        if (item) next[id] = await load(item)
      }
      setChildren(next)
    } catch (e) {
      setError(describeError(e))
    }
  // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [load])

  useImperativeHandle(ref, () => ({ reload }), [reload])
  useEffect(() => { void reload() }, [reload])

  const onOpenChange = (_: unknown, data: TreeOpenChangeData) => {
    const id = String(data.value)
    const next = new Set(open)
    if (data.open) next.add(id)
    else next.delete(id)
    setOpen(next)
    if (data.open && !children[id]) {
      const item = [...(roots ?? []), ...Object.values(children).flat()].find((x) => x.id === id)
      if (item) void loadBranch(item)
    }
  }

  const render = (item: Item): ReactElement => {
    const kids = children[item.id] ?? []
    const itemActions = actions?.(item) ?? []
    const isSelected = selected !== undefined && selected === idOf(item)
    const menu = (trigger: ReactElement, onContext = false) => (
      <Menu openOnContext={onContext} positioning="below-start">
        <MenuTrigger disableButtonEnhancement>{trigger}</MenuTrigger>
        <MenuPopover>
          <MenuList>
            {itemActions.map((a) => <MenuItem key={a.id} icon={a.icon} disabled={a.disabled} onClick={() => a.run(item)}>{a.label}</MenuItem>)}
          </MenuList>
        </MenuPopover>
      </Menu>
    )
    const layout = (
      <TreeItemLayout
        className={isSelected ? styles.selected : undefined}
        aside={item.count !== undefined ? <Badge appearance="tint" color="informative" size="small">{item.count}</Badge> : undefined}
        actions={itemActions.length ? menu(<Button appearance="subtle" size="small" icon={<MoreHorizontalRegular />} aria-label={t`More actions for ${item.title}`} />) : undefined}
        expandIcon={loading.has(item.id) ? <Spinner size="extra-tiny" /> : undefined}
      >
        {item.title}
      </TreeItemLayout>
    )
    return (
      <TreeItem
        key={item.id}
        value={item.id}
        itemType={item.isParent ? 'branch' : 'leaf'}
        aria-selected={isSelected}
        aria-description={item.count !== undefined ? t`${item.count} assets` : undefined}
        onClick={(e) => { if (!(e.target as HTMLElement).closest('button')) onSelect(item) }}
        onKeyDown={(e) => { if ((e.key === 'Enter' || e.key === ' ') && e.target === e.currentTarget) onSelect(item) }}
      >
        {itemActions.length ? menu(layout, true) : layout}
        {item.isParent && open.has(item.id) ? <Tree>{kids.map(render)}</Tree> : null}
      </TreeItem>
    )
  }

  const top = (roots ?? []).filter((x) => !x.parentId || !(roots ?? []).some((p) => p.id === x.parentId))
  return (
    <div className={styles.root}>
      {error ? <div role="alert" className={styles.error}>{error}</div> : null}
      {roots === undefined && !error ? <Spinner size="tiny" label={t`Loading`} /> : null}
      <Tree aria-label={label} openItems={open} onOpenChange={onOpenChange}>
        {top.map(render)}
      </Tree>
    </div>
  )
})

/*
 * TreeLayout (here, in the tree's module, so the pages that use both load one chunk):
 * A node tree beside its list (asset list, My assets): side by side on a wide page; on a narrow one (issue 35) the
 * tree folds above the table behind a button that shows or hides it, so the table keeps the page's width. The
 * tree stays mounted while folded (its expanded nodes and selection are kept).
 */
/** Below this width the tree goes above the table, folded. */
export const TREE_ABOVE_QUERY = '(max-width: 767.98px)'

const narrowList = typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia(TREE_ABOVE_QUERY) : null
const subscribeNarrow = (onChange: () => void) => {
  narrowList?.addEventListener('change', onChange)
  return () => narrowList?.removeEventListener('change', onChange)
}
const isNarrow = () => narrowList?.matches ?? false

const useLayoutStyles = makeStyles({
  side: { display: 'grid', gridTemplateColumns: 'minmax(200px, 260px) minmax(0, 1fr)', gap: tokens.spacingHorizontalL, alignItems: 'start' },
  sideTree: { borderRight: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`, paddingRight: tokens.spacingHorizontalS, maxHeight: '75vh', overflowY: 'auto' },
  above: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, minWidth: 0 },
  aboveTree: {
    maxHeight: '45vh', overflowY: 'auto', border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium, padding: tokens.spacingHorizontalXS,
  },
  folded: { display: 'none' },
  toggle: { alignSelf: 'flex-start' },
  table: { minWidth: 0 },
})

export function TreeLayout({ label, showLabel, hideLabel, tree, children }: {
  /** the tree's navigation landmark name */
  label: string
  /** the narrow layout's button texts */
  showLabel: string
  hideLabel: string
  tree: ReactNode
  children: ReactNode
}) {
  const styles = useLayoutStyles()
  const narrow = useSyncExternalStore(subscribeNarrow, isNarrow, () => false)
  const [open, setOpen] = useState(false)
  const id = useId()
  if (!narrow) {
    return (
      <div className={styles.side}>
        <nav className={styles.sideTree} aria-label={label}>{tree}</nav>
        <div className={styles.table}>{children}</div>
      </div>
    )
  }
  return (
    <div className={styles.above}>
      <Button className={styles.toggle} appearance="secondary" icon={open ? <ChevronUpRegular /> : <ChevronDownRegular />} iconPosition="after"
        aria-expanded={open} aria-controls={id} onClick={() => setOpen(!open)}>
        {open ? hideLabel : showLabel}
      </Button>
      <nav id={id} className={mergeClasses(styles.aboveTree, !open && styles.folded)} aria-label={label}>{tree}</nav>
      <div className={styles.table}>{children}</div>
    </div>
  )
}
