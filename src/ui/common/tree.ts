/**
 * A checkbox tree's logic (pure): the value is the set of checked leaves; a group is checked when all its
 * leaves are, mixed when some are; ticking a group ticks every leaf under it.
 */

export interface CheckNode {
  id: string
  label: string
  children?: CheckNode[]
  disabled?: boolean
}

export type CheckState = 'checked' | 'unchecked' | 'mixed'

export function leavesOf(node: CheckNode): string[] {
  if (!node.children || node.children.length === 0) return [node.id]
  return node.children.flatMap(leavesOf)
}

export function stateOf(node: CheckNode, checked: ReadonlySet<string>): CheckState {
  const leaves = leavesOf(node)
  const n = leaves.filter((l) => checked.has(l)).length
  return n === 0 ? 'unchecked' : n === leaves.length ? 'checked' : 'mixed'
}

export function findNode(roots: readonly CheckNode[], id: string): CheckNode | undefined {
  for (const node of roots) {
    if (node.id === id) return node
    const found = node.children ? findNode(node.children, id) : undefined
    if (found) return found
  }
  return undefined
}

/** Ticks or unticks a node: every enabled leaf under it. */
export function toggle(node: CheckNode, checked: ReadonlySet<string>, on: boolean): Set<string> {
  const next = new Set(checked)
  const walk = (n: CheckNode) => {
    if (n.disabled) return
    if (!n.children || n.children.length === 0) {
      if (on) next.add(n.id)
      else next.delete(n.id)
    } else n.children.forEach(walk)
  }
  walk(node)
  return next
}

/** Every node's state, for the tree widget (`true` | `'mixed'`; unchecked nodes are left out). */
export function checkedItems(roots: readonly CheckNode[], checked: ReadonlySet<string>): [string, true | 'mixed'][] {
  const out: [string, true | 'mixed'][] = []
  const walk = (n: CheckNode) => {
    const s = stateOf(n, checked)
    if (s !== 'unchecked') out.push([n.id, s === 'checked' ? true : 'mixed'])
    n.children?.forEach(walk)
  }
  roots.forEach(walk)
  return out
}

/** Leaves of a tree (metadata `tree` nodes use their value as id). */
export function allLeaves(roots: readonly CheckNode[]): string[] {
  return roots.flatMap(leavesOf)
}
