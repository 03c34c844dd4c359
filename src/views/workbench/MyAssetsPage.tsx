/**
 * Workbench → My assets: the granted nodes tree (with a "Favorite" node) beside the granted assets (search, the
 * merged actions, a favourite star, "Connect"). The node is kept in the URL (`?node_id=`). Everything comes from
 * the user's grant (`/api/v1/perms/users/self/…`): the server never lists an asset no valid permission grants.
 */
import { Badge, Button, makeStyles, tokens } from '@fluentui/react-components'
import { FolderOpenRegular, PlugConnectedRegular, StarFilled, StarRegular } from '@fluentui/react-icons'
import { msg } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import { useNavigate, useSearch } from '@tanstack/react-router'
import { useCallback, useMemo, useRef, useState } from 'react'
import { MY_ASSETS_URL, MY_NODE_TREE_URL, myNodeAssetsUrl, setFavorite, type Choice } from '../../api/perms.ts'
import type { Row } from '../../api/resources.ts'
import { fetchTreeLevel, type TreeItem } from '../../api/tree.ts'
import { useAccess } from '../../ui/common/access.tsx'
import { describeError } from '../../ui/common/errors.ts'
import { hasPerm } from '../../ui/common/perms.ts'
import { notify } from '../../ui/common/notify.tsx'
import { Page } from '../../ui/common/Page.tsx'
import { defineResource } from '../../ui/common/resource.ts'
import { ListTable } from '../../ui/list/ListTable.tsx'
import type { ListConfig, ListControl } from '../../ui/list/types.ts'
import { LazyTree, TreeLayout } from '../../ui/tree/LazyTree.tsx'
import { ConnectDialog } from './ConnectDialog.tsx'

/** The file manager's folder name for an organization or asset name (a slash would split it). */
const folderName = (name: string) => name.replace(/\//g, '_')

const useStyles = makeStyles({
  badges: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalXXS },
})

/** Read-only: the user may view and connect, never change assets from here. */
const NONE = 'perms.__none__'
const myAssetsResource = defineResource({
  url: MY_ASSETS_URL,
  routes: { list: { name: 'MyAssets', path: '/workbench/assets' } },
  typeLabel: msg`Asset`,
  defaultOrder: 'name',
  perms: { view: 'perms.view_myassets', add: NONE, change: NONE, delete: NONE },
})

function Actions({ row }: { row: Row }) {
  const styles = useStyles()
  const list = (Array.isArray(row.actions) ? row.actions : []) as Choice[]
  return <span className={styles.badges}>{list.map((a) => <Badge key={a.value} appearance="tint" size="small">{a.label}</Badge>)}</span>
}

function Favorite({ row, onChanged }: { row: Row; onChanged: () => void }) {
  const { t } = useLingui()
  const on = row.is_favorite === true
  return (
    <Button
      appearance="transparent"
      size="small"
      icon={on ? <StarFilled /> : <StarRegular />}
      aria-pressed={on}
      aria-label={on ? t`Remove ${String(row.name)} from favourites` : t`Add ${String(row.name)} to favourites`}
      onClick={() => void setFavorite(String(row.id), !on).then(onChanged, (e: unknown) => notify('error', describeError(e)))}
    />
  )
}

export function MyAssetsPage() {
  const { t } = useLingui()
  const search = useSearch({ strict: false }) as Record<string, unknown>
  const navigate = useNavigate()
  const nodeId = typeof search.node_id === 'string' ? search.node_id : undefined
  const files = hasPerm(useAccess().perms, 'rbac.view_filemanager')
  const [connecting, setConnecting] = useState<string | undefined>()
  const control = useRef<ListControl | undefined>(undefined)
  const load = useCallback((parent?: TreeItem) => fetchTreeLevel(MY_NODE_TREE_URL, parent ? { key: parent.id } : {}), [])
  const select = (item: TreeItem) => {
    void navigate({ to: '.', search: (prev: Record<string, unknown>) => ({ ...prev, node_id: String(item.data.id), page: undefined }) } as never)
  }
  const config: ListConfig = useMemo(() => ({
    resource: myAssetsResource,
    url: nodeId ? myNodeAssetsUrl(nodeId) : MY_ASSETS_URL,
    tableName: 'MyAssets',
    label: msg`My assets`,
    hiddenFilters: ['node_id'],
    tools: { import: false, export: false },
    controlRef: control,
    columns: {
      fields: [
        { name: 'name', label: msg`Name` },
        { name: 'address', label: msg`Address` },
        { name: 'platform', label: msg`Platform`, type: 'object_related_field' },
        { name: 'org_name', label: msg`Organization` },
        { name: 'comment', label: msg`Comment` },
      ],
      extra: [
        { id: 'granted_actions', label: msg`Actions`, render: (row) => <Actions row={row} />, width: 240 },
        { id: 'favorite', label: msg`Favourite`, render: (row) => <Favorite row={row} onChanged={() => control.current?.reload()} />, width: 90 },
        {
          id: 'connect', label: msg`Connect`, width: 120,
          render: (row) => <Button size="small" icon={<PlugConnectedRegular />} onClick={() => setConnecting(String(row.id))} aria-label={t`Connect to ${String(row.name)}`}>{t`Connect`}</Button>,
        },
        ...(!files ? [] : [{
          id: 'files', label: msg`Files`, width: 110,
          render: (row: Row) => (
            <Button size="small" icon={<FolderOpenRegular />} aria-label={t`Files of ${String(row.name)}`}
              onClick={() => void navigate({ to: '/workbench/file-manager', search: { path: `/${folderName(String(row.org_name ?? ''))}/${folderName(String(row.name))}` } } as never)}>
              {t`Files`}
            </Button>
          ),
        }]),
      ],
      min: files ? ['name', 'connect', 'files'] : ['name', 'connect'],
      defaults: ['name', 'address', 'platform', 'granted_actions', 'favorite', 'connect', 'files'],
      // connecting is what the page is for, then what the grant allows; where the asset is gives way first
      priority: { favorite: 1, granted_actions: 2, address: 3, platform: 4 },
    },
  }), [nodeId, t, navigate, files])
  return (
    <Page title={t`My assets`} back={false}>
      <TreeLayout label={t`My asset tree`} showLabel={t`Show the asset tree`} hideLabel={t`Hide the asset tree`}
        tree={<LazyTree label={t`My asset tree`} load={load} selected={nodeId} onSelect={select} />}>
        <ListTable key={nodeId ?? 'all'} config={config} />
      </TreeLayout>
      {connecting && <ConnectDialog assetId={connecting} onClose={() => setConnecting(undefined)} />}
    </Page>
  )
}
