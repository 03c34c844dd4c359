/**
 * The left pane: the user's granted node tree (the workbench's LazyTree on `perms/users/self/nodes/children/tree/`)
 * and the granted assets of the chosen node (all when none), searchable by name or address. Choosing an asset asks
 * the page to open a terminal on it.
 */
import { Button, Input, makeStyles, Spinner, Text, tokens } from '@fluentui/react-components'
import { SearchRegular, WindowConsoleRegular } from '@fluentui/react-icons'
import { useLingui } from '@lingui/react/macro'
import { useCallback, useEffect, useState } from 'react'
import { MY_NODE_TREE_URL, myAssets, type MyAssetItem } from '../api/perms.ts'
import { fetchTreeLevel, type TreeItem } from '../api/tree.ts'
import { describeError } from '../ui/common/errors.ts'
import { LazyTree } from '../ui/tree/LazyTree.tsx'

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, padding: tokens.spacingHorizontalS, minHeight: 0, height: '100%', boxSizing: 'border-box' },
  tree: { maxHeight: '40%', overflow: 'auto', flexShrink: 0 },
  list: { listStyle: 'none', margin: 0, padding: 0, overflow: 'auto', flexGrow: 1, minHeight: 0 },
  asset: { width: '100%', justifyContent: 'flex-start', textAlign: 'start', fontWeight: tokens.fontWeightRegular },
  address: { color: tokens.colorNeutralForeground3, marginInlineStart: tokens.spacingHorizontalXS },
  error: { color: tokens.colorPaletteRedForeground1 },
  count: { color: tokens.colorNeutralForeground3 },
})

export function AssetPanel({ onOpen, busy }: { onOpen: (asset: MyAssetItem) => void; busy?: string }) {
  const { t } = useLingui()
  const styles = useStyles()
  const [node, setNode] = useState<string | undefined>()
  const [search, setSearch] = useState('')
  const [assets, setAssets] = useState<{ items: MyAssetItem[]; count: number } | undefined>()
  const [error, setError] = useState<string | undefined>()
  const load = useCallback((parent?: TreeItem) => fetchTreeLevel(MY_NODE_TREE_URL, parent ? { key: parent.id } : {}), [])

  useEffect(() => {
    let live = true
    const timer = setTimeout(() => {
      myAssets(node, search.trim()).then((page) => {
        if (!live) return
        setAssets(page)
        setError(undefined)
      }, (e: unknown) => live && setError(describeError(e)))
    }, search ? 250 : 0)
    return () => {
      live = false
      clearTimeout(timer)
    }
  }, [node, search])

  return (
    <div className={styles.root}>
      <div className={styles.tree}>
        <LazyTree label={t`My asset tree`} load={load} selected={node} onSelect={(item) => setNode(String(item.data.id))} />
      </div>
      <Input
        contentBefore={<SearchRegular />}
        placeholder={t`Search by name or address`}
        aria-label={t`Search assets`}
        value={search}
        onChange={(_, d) => setSearch(d.value)}
      />
      {error && <Text role="alert" className={styles.error}>{error}</Text>}
      {!assets && !error && <Spinner size="tiny" label={t`Loading…`} />}
      {assets && (
        <>
          <Text size={200} className={styles.count}>
            {assets.count > assets.items.length ? t`${assets.items.length} of ${assets.count} assets` : t`${assets.count} assets`}
          </Text>
          <ul className={styles.list} aria-label={t`Assets`}>
            {assets.items.map((a) => (
              <li key={a.id}>
                <Button
                  appearance="subtle"
                  className={styles.asset}
                  icon={busy === a.id ? <Spinner size="extra-tiny" /> : <WindowConsoleRegular />}
                  disabled={busy !== undefined}
                  title={t`Open a terminal on ${a.name}`}
                  onClick={() => onOpen(a)}
                >
                  {a.name}<span className={styles.address}>{a.address}</span>
                </Button>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  )
}
