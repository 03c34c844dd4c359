/**
 * AssetList and the kinds' lists (HostList, DatabaseList…): the node tree beside the table. Selecting a node
 * filters the table (`?node_id=` in the URL, so a reload or a shared link keeps it); the category tabs switch
 * between the combined list and each kind's; "Create" offers the types grouped by category.
 */
import { Button, makeStyles, Tab, TabList, tokens } from '@fluentui/react-components'
import { Menu, MenuGroup, MenuGroupHeader, MenuItem, MenuList, MenuPopover, MenuTrigger } from '../../../ui/common/overlays.tsx'
import {
  AddRegular, ChevronDownRegular, ClipboardPasteRegular, CutRegular, DeleteRegular, EditRegular, FolderAddRegular, ArrowImportRegular, ArrowSyncRegular, PlugConnectedRegular,
} from '@fluentui/react-icons'
import { msg } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import { useNavigate, useSearch } from '@tanstack/react-router'
import { Suspense, useCallback, useMemo, useRef, useState } from 'react'
import { CATEGORIES_URL, parseCategories, type AssetCategory } from '../../../api/categories.ts'
import { jsonQuery } from '../../../api/queries.ts'
import type { Row } from '../../../api/resources.ts'
import { createNodeChild, deleteNode, firstPlatform, NODE_TREE_URL, moveAssetsToNode, moveNodeUnder, renameNode } from '../../../api/assets.ts'
import { fetchTreeLevel, type TreeItem } from '../../../api/tree.ts'
import { isRootOrg, useAccess } from '../../../ui/common/access.tsx'
import { useConfirm } from '../../../ui/common/ConfirmDialog.tsx'
import { describeError } from '../../../ui/common/errors.ts'
import { useGo } from '../../../ui/common/navigation.tsx'
import { notify } from '../../../ui/common/notify.tsx'
import { Page } from '../../../ui/common/Page.tsx'
import { hasPerm } from '../../../ui/common/perms.ts'
import { useCached } from '../../../ui/common/useCached.ts'
import { ListTable } from '../../../ui/list/ListTable.tsx'
import type { ListCommand, ListConfig, ListControl } from '../../../ui/list/types.ts'
import { LazyTree, TreeLayout, type LazyTreeHandle, type TreeAction } from '../../../ui/tree/LazyTree.tsx'
import { manifestItem } from '../../entries.ts'
import { pathOf } from '../../../router/catalog.ts'
import { lazyRetry } from '../../../ui/common/retryImport.ts'
import { assetKindKey, assetListConfig, KIND_KEYS } from './resource.ts'
import { useOpenInNewTab } from '../../../ui/common/navigation.tsx'
import { startAndOpenLog } from '../../../ui/tasks/taskCommand.ts'
import { nodeConnectivityRequest, REFRESH_HARDWARE_PERM, TEST_CONNECTIVITY_PERM } from '../assets-net/connectivity.ts'

/** The node name prompt loads when a node is first created or renamed. */
const PromptDialog = lazyRetry(() => import('../../../ui/tree/PromptDialog.tsx').then((m) => ({ default: m.PromptDialog })))

const categoriesQuery = (orgId: string | undefined) => jsonQuery(CATEGORIES_URL, orgId, parseCategories)

const useStyles = makeStyles({
  tabs: { marginBottom: tokens.spacingVerticalS, flexWrap: 'wrap' },
})

/** The grouped dropdown of "Create": every type under its category (contract §4.4). */
function CreateAssetMenu({ categories, onPick }: { categories: readonly AssetCategory[]; onPick: (category: string, type: string) => void }) {
  const { t } = useLingui()
  return (
    <Menu>
      <MenuTrigger disableButtonEnhancement>
        <Button appearance="primary" icon={<AddRegular />} iconPosition="before">{t`Create`}<ChevronDownRegular /></Button>
      </MenuTrigger>
      <MenuPopover>
        <MenuList>
          {categories.map((c) => (
            <MenuGroup key={c.value}>
              <MenuGroupHeader>{c.label}</MenuGroupHeader>
              {c.types.map((tp) => <MenuItem key={tp.value} onClick={() => onPick(c.value, tp.value)}>{tp.label}</MenuItem>)}
            </MenuGroup>
          ))}
        </MenuList>
      </MenuPopover>
    </Menu>
  )
}

type Prompt = { kind: 'create' | 'rename'; item: TreeItem } | undefined

function AssetList({ kind }: { kind: string }) {
  const styles = useStyles()
  const { t, i18n } = useLingui()
  const access = useAccess()
  const go = useGo()
  const navigate = useNavigate()
  const [confirmDialog, confirm] = useConfirm()
  // the list's controls, filled by the list (a holder object, not a ref: the list writes it in an effect)
  const [control] = useState<{ current: ListControl | undefined }>(() => ({ current: undefined }))
  const search = useSearch({ strict: false }) as Record<string, unknown>
  const nodeId = typeof search.node_id === 'string' ? search.node_id : undefined
  const tree = useRef<LazyTreeHandle>(null)
  const [prompt, setPrompt] = useState<Prompt>()
  // a node cut from the tree's menu, waiting for "Paste node here" on its new parent (the keyboard's drag and drop)
  const [cut, setCut] = useState<TreeItem>()
  const [selection, setSelection] = useState<readonly Row[]>([])
  const categories = useCached(useMemo(() => categoriesQuery(access.orgId), [access.orgId]))
  const root = isRootOrg(access)
  const can = (p: string) => hasPerm(access.perms, p) && !root

  const load = useCallback((parent?: TreeItem) => fetchTreeLevel(NODE_TREE_URL, parent ? { key: parent.id } : {}), [])
  const select = (item: TreeItem) => {
    void navigate({ to: '.', search: (prev: Record<string, unknown>) => ({ ...prev, node_id: String(item.data.id), page: undefined }) } as never)
  }
  const reloadAll = async () => { await tree.current?.reload() }
  const openInNewTab = useOpenInNewTab()

  const actions = (item: TreeItem): TreeAction[] => {
    if (item.type !== 'node') return []
    const isRoot = !item.parentId
    return [
      { id: 'create', label: t`Create child node`, icon: <FolderAddRegular />, disabled: !can('assets.add_node'), run: () => setPrompt({ kind: 'create', item }) },
      { id: 'rename', label: t`Rename node`, icon: <EditRegular />, disabled: !can('assets.change_node'), run: () => setPrompt({ kind: 'rename', item }) },
      {
        id: 'cut', label: t`Cut node`, icon: <CutRegular />, disabled: isRoot || !can('assets.change_node'),
        run: () => {
          setCut(item)
          notify('info', t`Node ${item.title} cut`, t`Choose "Paste node here" in the menu of its new parent.`)
        },
      },
      {
        id: 'paste', label: cut ? t`Paste ${cut.title} here` : t`Paste node here`, icon: <ClipboardPasteRegular />,
        disabled: !cut || cut.id === item.id || !can('assets.change_node'),
        run: async () => {
          if (!cut) return
          try {
            await moveNodeUnder(String(item.data.id), String(cut.data.id))
            setCut(undefined)
            notify('success', t`Node moved`)
            control.current?.reload()
            await reloadAll()
          } catch (e) { notify('error', describeError(e)) }
        },
      },
      {
        id: 'delete', label: t`Delete node`, icon: <DeleteRegular />, disabled: isRoot || !can('assets.delete_node'),
        run: () => confirm({
          title: t`Delete node ${item.title}`,
          body: t`The node "${item.title}" will be deleted. A node that still holds assets or child nodes cannot be deleted.`,
          danger: true,
          confirmLabel: t`Delete`,
          onConfirm: async () => {
            try {
              await deleteNode(String(item.data.id))
              notify('success', t`Node deleted`)
              await reloadAll()
            } catch (e) { notify('error', describeError(e)) }
          },
        }),
      },
      {
        id: 'test', label: t`Test connectivity`, icon: <PlugConnectedRegular />, disabled: !can(TEST_CONNECTIVITY_PERM),
        run: () => {
          const call = nodeConnectivityRequest(String(item.data.id))
          void startAndOpenLog(call.url, call.body, (path) => openInNewTab(path))
        },
      },
      {
        id: 'refresh', label: t`Refresh hardware info`, icon: <ArrowSyncRegular />, disabled: !can(REFRESH_HARDWARE_PERM),
        run: () => {
          const call = nodeConnectivityRequest(String(item.data.id), 'refresh')
          void startAndOpenLog(call.url, call.body, (path) => openInNewTab(path))
        },
      },
      {
        id: 'move', label: t`Move selected assets here`, icon: <ArrowImportRegular />, disabled: !selection.length || !can('assets.change_node'),
        run: async () => {
          try {
            await moveAssetsToNode(String(item.data.id), selection.map((r) => String(r.id)))
            notify('success', t`Assets moved to ${item.title}`)
            control.current?.clearSelection()
            control.current?.reload()
            await reloadAll()
          } catch (e) { notify('error', describeError(e)) }
        },
      },
    ]
  }

  const item = manifestItem(kind === 'all' ? 'assets' : assetKindKey(kind))
  const createCommand: ListCommand = useMemo(() => ({
    id: 'createAsset', scope: 'header', label: msg`Create`, order: 10, perms: ['assets.add_asset'], hiddenInRoot: true,
    render: () => (
      <CreateAssetMenu
        categories={(categories.data ?? []).filter((c) => kind === 'all' || c.value === kind)}
        onPick={(category, type) => void firstPlatform(category, type).then((platform) => go(manifestItem(assetKindKey(category)).routes.create!.path, {
          ...(platform ? { platform } : {}), ...(nodeId ? { node_id: nodeId } : {}),
        }))}
      />
    ),
  }), [categories.data, kind, go, nodeId])
  // lina's HostList extra action: the Cloud center (sync tasks and cloud accounts, docs/cloud.md)
  const cloudCommand: ListCommand = useMemo(() => ({
    id: 'cloudSync', scope: 'header', label: msg`Cloud sync`, order: 11, perms: ['xpack.view_account'],
    visible: () => kind === 'all' || kind === 'host',
    run: (_t, h) => h.go(pathOf('CloudCenter') ?? '/console/assets/cloud'),
  }), [kind])
  const config: ListConfig = useMemo(() => assetListConfig(item, { extra: [createCommand, cloudCommand], onSelectionChange: setSelection, controlRef: control }), [item, createCommand, cloudCommand, control])

  // Every kind with a list of its own has its tab: the server lists the custom category only once a custom
  // platform exists, but its list (`/console/assets/customs`) is there before (issue 35).
  const tabs = ['all', ...(categories.data ? KIND_KEYS : [])]
  const kindLabel: Record<string, string> = { custom: t`Custom` }
  const tabLabel = (k: string) => (k === 'all' ? t`All` : categories.data?.find((c) => c.value === k)?.label ?? kindLabel[k] ?? i18n._(manifestItem(assetKindKey(k)).entry.titles.list))

  return (
    <Page title={i18n._(item.entry.titles.list)} back={false}>
      <TabList className={styles.tabs} selectedValue={kind} aria-label={t`Asset categories`}
        onTabSelect={(_, d) => go(manifestItem(d.value === 'all' ? 'assets' : assetKindKey(String(d.value))).routes.list.path, nodeId ? { node_id: nodeId } : {})}>
        {tabs.map((k) => <Tab key={k} value={k}>{tabLabel(k)}</Tab>)}
      </TabList>
      <TreeLayout label={t`Asset tree`} showLabel={t`Show the asset tree`} hideLabel={t`Hide the asset tree`}
        tree={<LazyTree ref={tree} label={t`Asset tree`} load={load} selected={nodeId} onSelect={select} actions={actions} />}>
        <ListTable config={config} />
      </TreeLayout>
      {confirmDialog}
      {prompt ? (
        <Suspense fallback={null}>
          <PromptDialog
            title={prompt.kind === 'create' ? t`Create child node of ${prompt.item.title}` : t`Rename node ${prompt.item.title}`}
            label={t`Node name`}
            initial={prompt.kind === 'rename' ? prompt.item.title : ''}
            onCancel={() => setPrompt(undefined)}
            onSubmit={async (value) => {
              if (prompt.kind === 'create') await createNodeChild(String(prompt.item.data.id), value)
              else await renameNode(String(prompt.item.data.id), value)
              setPrompt(undefined)
              notify('success', prompt.kind === 'create' ? t`Node created` : t`Node renamed`)
              await reloadAll()
            }}
          />
        </Suspense>
      ) : null}
    </Page>
  )
}

/** The list page of one kind (`all` for the combined list). */
export function assetListPage(kind: string) {
  return function AssetListPage() {
    return <AssetList kind={kind} />
  }
}
