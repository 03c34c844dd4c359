/**
 * "Test connectivity" commands of assets, nodes and gateways (JumpServer 3.2's calls: `…/assets/<id>/tasks/`,
 * `…/assets/tasks/`, `…/nodes/<id>/tasks/`, `…/gateways/<id>/test-connective/`). Each opens the live task log.
 * The asset pages add `assetConnectivityCommands` to their list and detail configs.
 */
import { ArrowSyncRegular, PlugConnectedRegular } from '@fluentui/react-icons'
import { msg } from '@lingui/core/macro'
import { rowId, taskCommand } from '../../../ui/tasks/taskCommand.ts'
import type { ListCommand } from '../../../ui/list/types.ts'

export const TEST_CONNECTIVITY_PERM = 'assets.test_assetconnectivity'
export const REFRESH_HARDWARE_PERM = 'assets.refresh_assethardwareinfo'
const ASSETS_URL = '/api/v1/assets/assets/'

export const assetConnectivityCommands: readonly ListCommand[] = [
  taskCommand({
    id: 'test-connectivity', scope: 'row', label: msg`Test connectivity`, icon: PlugConnectedRegular, order: 30,
    perms: [TEST_CONNECTIVITY_PERM], hiddenInRoot: true,
    request: ({ row }) => (row ? { url: `${ASSETS_URL}${rowId(row)}/tasks/`, body: { action: 'test' } } : undefined),
  }),
  taskCommand({
    id: 'test-connectivity-selected', scope: 'bulk', label: msg`Test connectivity`, icon: PlugConnectedRegular, order: 30,
    perms: [TEST_CONNECTIVITY_PERM], hiddenInRoot: true,
    request: ({ selection }) => (selection.length ? { url: `${ASSETS_URL}tasks/`, body: { action: 'test', assets: selection.map((r) => r.id) } } : undefined),
  }),
  taskCommand({
    id: 'refresh-hardware', scope: 'row', label: msg`Refresh hardware info`, icon: ArrowSyncRegular, order: 31,
    perms: [REFRESH_HARDWARE_PERM], hiddenInRoot: true,
    request: ({ row }) => (row ? { url: `${ASSETS_URL}${rowId(row)}/tasks/`, body: { action: 'refresh' } } : undefined),
  }),
  taskCommand({
    id: 'refresh-hardware-selected', scope: 'bulk', label: msg`Refresh hardware info`, icon: ArrowSyncRegular, order: 31,
    perms: [REFRESH_HARDWARE_PERM], hiddenInRoot: true,
    request: ({ selection }) => (selection.length ? { url: `${ASSETS_URL}tasks/`, body: { action: 'refresh', assets: selection.map((r) => r.id) } } : undefined),
  }),
]

/** The node tree's context menu: test (or refresh) the node's assets (descendants included). */
export const nodeConnectivityRequest = (nodeId: string, action: 'test' | 'refresh' = 'test') => ({ url: `/api/v1/assets/nodes/${encodeURIComponent(nodeId)}/tasks/`, body: { action } })

export const gatewayConnectivityCommands: readonly ListCommand[] = [
  taskCommand({
    id: 'test-connectivity', scope: 'row', label: msg`Test connectivity`, icon: PlugConnectedRegular, order: 30,
    perms: [TEST_CONNECTIVITY_PERM], hiddenInRoot: true,
    request: ({ row }) => (row ? { url: `/api/v1/assets/gateways/${rowId(row)}/test-connective/`, body: {} } : undefined),
  }),
]
