/**
 * A node tree beside its list (asset list, My assets): side by side on a wide page; on a narrow one (issue 35) the
 * tree folds above the table behind a button that shows or hides it, so the table keeps the page's width. The
 * tree stays mounted while folded (its expanded nodes and selection are kept).
 */
import { Button, makeStyles, mergeClasses, tokens } from '@fluentui/react-components'
import { ChevronDownRegular, ChevronUpRegular } from '@fluentui/react-icons'
import { useId, useState, useSyncExternalStore, type ReactNode } from 'react'

/** Below this width the tree goes above the table, folded. */
export const TREE_ABOVE_QUERY = '(max-width: 767.98px)'

const narrowList = typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia(TREE_ABOVE_QUERY) : null
const subscribeNarrow = (onChange: () => void) => {
  narrowList?.addEventListener('change', onChange)
  return () => narrowList?.removeEventListener('change', onChange)
}
const isNarrow = () => narrowList?.matches ?? false

const useStyles = makeStyles({
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
  const styles = useStyles()
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
