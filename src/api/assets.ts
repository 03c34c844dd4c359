/** The asset node tree's calls (contract §5.2): children, rename, delete, assets moved to a node. */
import { actionUrl, createResource, deleteResource, getJson, listResources, patchResource, retrieveResource, sendAction, withQuery } from './resources.ts'

export const NODES_URL = '/api/v1/assets/nodes/'
export const NODE_TREE_URL = '/api/v1/assets/nodes/children/tree/'

export function createNodeChild(parentId: string, value: string): Promise<unknown> {
  return sendAction('post', actionUrl(NODES_URL, parentId, 'children'), { value })
}

export function renameNode(id: string, value: string): Promise<unknown> {
  return patchResource(NODES_URL, id, { value })
}

export function deleteNode(id: string): Promise<void> {
  return deleteResource(NODES_URL, id)
}

/** The assets' only node becomes this one (lina's "move assets here": `assets/replace`). */
export function moveAssetsToNode(nodeId: string, assets: readonly string[]): Promise<unknown> {
  return sendAction('put', actionUrl(NODES_URL, nodeId, 'assets/replace'), { assets })
}

/** Moves a node (its subtree follows) under another: lina's drag and drop, `PUT <parent>/children/add/`. */
export function moveNodeUnder(parentId: string, nodeId: string): Promise<unknown> {
  return sendAction('put', actionUrl(NODES_URL, parentId, 'children/add'), { nodes: [nodeId] })
}

/** A node path (`/Default/a/b`) created in one call. */
export function createNodePath(fullValue: string): Promise<unknown> {
  return createResource(NODES_URL, { full_value: fullValue })
}

/** The first platform of a type (the create form starts with it), or undefined. */
export async function firstPlatform(category: string, type: string): Promise<number | undefined> {
  const page = await listResources('/api/v1/assets/platforms/', { category, type, limit: 1 })
  const id = page.results[0]?.id
  return typeof id === 'number' ? id : undefined
}

export const FAVORITES_URL = '/api/v1/assets/favorite-assets/'

/** The signed-in user's favourite asset ids. */
export async function favoriteAssets(): Promise<Set<string>> {
  const rows = await getJson<unknown>(FAVORITES_URL)
  return new Set((Array.isArray(rows) ? rows : []).map((r) => String((r as { asset?: unknown }).asset ?? '')).filter(Boolean))
}

/** Marks (or unmarks) an asset as a favourite of the signed-in user. */
export async function setFavoriteAsset(assetId: string, on: boolean): Promise<void> {
  if (on) await sendAction('post', FAVORITES_URL, { asset: assetId })
  else await sendAction('delete', withQuery(FAVORITES_URL, { asset: assetId }))
}

/** A host's hardware facts (Asset → More information): read and saved through the hosts API. */
export const HOSTS_URL = '/api/v1/assets/hosts/'

export function fetchHost(id: string): Promise<Record<string, unknown>> {
  return retrieveResource(HOSTS_URL, id)
}

export function saveGatheredInfo(id: string, info: Record<string, string>): Promise<Record<string, unknown>> {
  return patchResource(HOSTS_URL, id, { gathered_info: info })
}
