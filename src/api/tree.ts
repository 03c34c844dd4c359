/** zTree-shaped tree answers (contract §5.2: `/assets/nodes/children/tree/`), parsed for the generic tree. */
import { withQuery, getJson, type Query } from './resources.ts'

export interface TreeItem {
  /** zTree id (a node key) */
  id: string
  /** parent's zTree id ('' for a root) */
  parentId: string
  title: string
  /** the count shown after the title, when the answer carries one */
  count?: number
  isParent: boolean
  open: boolean
  /** `node`, `asset`, `category`… */
  type: string
  /** the object behind the item (`meta.data`) */
  data: Record<string, unknown>
}

export function parseZTree(raw: unknown): TreeItem[] {
  if (!Array.isArray(raw)) return []
  return raw.flatMap((x) => {
    const o = (x ?? {}) as Record<string, unknown>
    if (typeof o.id !== 'string' && typeof o.id !== 'number') return []
    const meta = (o.meta ?? {}) as Record<string, unknown>
    const data = (meta.data && typeof meta.data === 'object' ? meta.data : {}) as Record<string, unknown>
    const count = typeof data.assets_amount === 'number' ? data.assets_amount : undefined
    return [{
      id: String(o.id),
      parentId: typeof o.pId === 'string' || typeof o.pId === 'number' ? String(o.pId) : '',
      title: typeof o.title === 'string' && o.title ? o.title : String(o.name ?? o.id),
      ...(count !== undefined ? { count } : {}),
      isParent: o.isParent === true,
      open: o.open === true,
      type: typeof meta.type === 'string' ? meta.type : 'node',
      data,
    }]
  })
}

/** One level of a lazy tree: the roots (no key) or the children of `key`. */
export async function fetchTreeLevel(url: string, query: Query = {}, signal?: AbortSignal): Promise<TreeItem[]> {
  return parseZTree(await getJson(withQuery(url, query), { signal }))
}
