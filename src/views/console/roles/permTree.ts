/**
 * The role permission tree: the parsed zTree nodes (`ZNode`, src/api/rbac.ts) turned into a check tree whose
 * leaves are permission ids, plus the dependency rule of the reference: ticking add, change or delete of a model
 * also ticks its view; unticking view clears the model's other permissions. Pure.
 */
import type { ZNode } from '../../../api/rbac.ts'
import type { CheckNode } from '../../../ui/common/tree.ts'
import { leavesOf } from '../../../ui/common/tree.ts'

export interface PermTree {
  roots: CheckNode[]
  /** checked leaves as the server sent them */
  checked: Set<string>
  /** leaf id → codename (`users.add_user`) */
  codename: Map<string, string>
  /** leaf id → its parent (model) node id */
  parent: Map<string, string>
  /** the tree cannot be edited (built-in roles) */
  readOnly: boolean
}

export function buildPermTree(nodes: readonly ZNode[]): PermTree {
  const children = new Map<string | null, ZNode[]>()
  for (const n of nodes) (children.get(n.pId) ?? children.set(n.pId, []).get(n.pId)!).push(n)
  const codename = new Map<string, string>()
  const parent = new Map<string, string>()
  const checked = new Set<string>()
  const build = (n: ZNode): CheckNode => {
    const kids = children.get(n.id) ?? []
    if (!n.isParent && kids.length === 0) {
      if (typeof n.meta.codename === 'string') codename.set(n.id, n.meta.codename)
      if (n.pId) parent.set(n.id, n.pId)
      if (n.checked) checked.add(n.id)
      return { id: n.id, label: n.name, ...(n.chkDisabled ? { disabled: true } : {}) }
    }
    return { id: n.id, label: n.name, children: kids.map(build), ...(n.chkDisabled ? { disabled: true } : {}) }
  }
  const known = new Set(nodes.map((n) => n.id))
  const roots = nodes.filter((n) => n.pId === null || !known.has(n.pId)).map(build)
  return { roots, checked, codename, parent, readOnly: nodes.length > 0 && nodes.every((n) => n.chkDisabled) }
}

/** `app.action_model` → action (`view`, `add`, …) and the model key `app.model` (custom actions keep their own). */
function split(codename: string): { app: string; action: string; model: string } | undefined {
  const m = /^([^.]+)\.([a-z]+)_(.+)$/.exec(codename)
  return m ? { app: m[1]!, action: m[2]!, model: m[3]! } : undefined
}

const DEPENDS_ON_VIEW = new Set(['add', 'change', 'delete'])

/** Leaves of the same model group as `leaf`. */
function siblings(tree: PermTree, leaf: string): string[] {
  const p = tree.parent.get(leaf)
  return p ? [...tree.parent.entries()].filter(([, q]) => q === p).map(([id]) => id) : [leaf]
}

function viewOf(tree: PermTree, leaf: string): string | undefined {
  const c = split(tree.codename.get(leaf) ?? '')
  if (!c) return undefined
  const wanted = `${c.app}.view_${c.model}`
  return siblings(tree, leaf).find((id) => tree.codename.get(id) === wanted)
}

function isViewLeaf(tree: PermTree, leaf: string): boolean {
  return split(tree.codename.get(leaf) ?? '')?.action === 'view' && viewOf(tree, leaf) === leaf
}

/**
 * Applies the dependency rule after a tick (`on`) or untick of `node` on top of the tree widget's own result.
 */
export function withDependencies(tree: PermTree, next: ReadonlySet<string>, node: CheckNode, on: boolean): Set<string> {
  const out = new Set(next)
  for (const leaf of leavesOf(node)) {
    if (on) {
      const action = split(tree.codename.get(leaf) ?? '')?.action
      const view = action && DEPENDS_ON_VIEW.has(action) ? viewOf(tree, leaf) : undefined
      if (view) out.add(view)
    } else if (isViewLeaf(tree, leaf)) {
      for (const s of siblings(tree, leaf)) out.delete(s)
    }
  }
  return out
}

/** The body of the save: permission ids (integers when they look like integers). */
export function permissionIds(checked: ReadonlySet<string>, tree: PermTree): (number | string)[] {
  return [...checked].filter((id) => tree.codename.has(id) || tree.parent.has(id)).map((id) => (/^\d+$/.test(id) ? Number(id) : id))
}
