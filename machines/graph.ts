/**
 * The drawable graph of a machine definition: its state nodes (nested) and its transitions with readable labels.
 * One reading of the definitions serves both drawings — the generated docs/machines/ diagrams
 * (scripts/docs-machines.ts) and the console's built-in inspector (src/ui/inspector/) — so they cannot disagree.
 * Pure: it reads `machine.root` (state nodes, `on`, `always`, `after`, invoke onDone/onError) and nothing else.
 */
import type { AnyStateMachine, AnyStateNode } from 'xstate'

export interface GraphNode {
  /** the state node id (`confirm.verifying.form`) */
  id: string
  /** the key within its parent (`form`); the machine id for the root */
  key: string
  /** path from the root (`['verifying', 'form']`; empty for the root) */
  path: string[]
  type: 'atomic' | 'compound' | 'parallel' | 'final' | 'history'
  parentId: string | null
  childIds: string[]
  /** the initial child of a compound node */
  initialId: string | null
  /** actor sources it invokes */
  invokes: string[]
  description: string | null
}

export interface GraphEdge {
  sourceId: string
  /** empty: an internal transition (stays, runs actions) */
  targetIds: string[]
  /** readable event: `SUBMIT`, `done check`, `error check`, `after smsTick (1000 ms)`, `always` */
  event: string
  /** the raw event type (`xstate.done.actor.check`) */
  eventType: string
  guard: string | null
  actions: string[]
}

export interface MachineGraph {
  id: string
  rootId: string
  nodes: GraphNode[]
  edges: GraphEdge[]
}

export function childNodes(node: AnyStateNode): AnyStateNode[] {
  return Object.values(node.states) as AnyStateNode[]
}

export function allStateNodes(node: AnyStateNode): AnyStateNode[] {
  return [node, ...childNodes(node).flatMap(allStateNodes)]
}

export function describeGuard(guard: unknown): string | null {
  if (guard === undefined || guard === null) return null
  if (typeof guard === 'string') return guard
  if (typeof guard === 'object' && 'type' in guard) return String((guard as { type: unknown }).type)
  if (typeof guard === 'function') return guard.name && guard.name !== 'guard' ? guard.name : 'inline'
  return 'inline'
}

export function describeAction(action: unknown): string {
  if (typeof action === 'string') return action
  if (typeof action === 'object' && action !== null && 'type' in action) return String((action as { type: unknown }).type)
  if (typeof action === 'function') {
    const type = (action as { type?: unknown }).type
    if (typeof type === 'string') return type.replace(/^xstate\./, '')
    return action.name || 'inline'
  }
  return 'inline'
}

/** `xstate.done.actor.check` → `done check`, `xstate.after.smsTick.…` → `after smsTick (1000 ms)`. */
export function describeEvent(machine: AnyStateMachine, eventType: string): string {
  if (eventType.startsWith('xstate.after.')) {
    const ref = eventType.slice('xstate.after.'.length).split('.', 1)[0] ?? ''
    if (/^\d+$/.test(ref)) return `after ${ref} ms`
    const delay: unknown = (machine.implementations.delays as Record<string, unknown>)[ref]
    return typeof delay === 'number' ? `after ${ref} (${delay} ms)` : `after ${ref}`
  }
  if (eventType.startsWith('xstate.done.actor.')) return `done ${eventType.slice('xstate.done.actor.'.length)}`
  if (eventType.startsWith('xstate.error.actor.')) return `error ${eventType.slice('xstate.error.actor.'.length)}`
  if (eventType.startsWith('xstate.done.state.')) return 'done'
  return eventType
}

/** The transitions leaving one state node, in definition order (`on`, then `always`). */
export function edgesOfNode(machine: AnyStateMachine, node: AnyStateNode): GraphEdge[] {
  const edges: GraphEdge[] = []
  const add = (eventType: string, event: string, transition: { target?: readonly AnyStateNode[] | undefined; guard?: unknown; actions: readonly unknown[] }) => {
    edges.push({
      sourceId: node.id,
      targetIds: (transition.target ?? []).map((target) => target.id),
      event,
      eventType,
      guard: describeGuard(transition.guard),
      actions: transition.actions.map(describeAction),
    })
  }
  for (const [eventType, transitions] of node.transitions) {
    for (const transition of transitions) add(eventType, describeEvent(machine, eventType), transition)
  }
  for (const transition of node.always ?? []) add('', 'always', transition)
  return edges
}

export function machineGraph(machine: AnyStateMachine): MachineGraph {
  const all = allStateNodes(machine.root)
  const nodes = all.map((node): GraphNode => ({
    id: node.id,
    key: node.path.length === 0 ? machine.id : node.key,
    path: [...node.path],
    type: node.type,
    parentId: node.parent?.id ?? null,
    childIds: childNodes(node).map((child) => child.id),
    initialId: node.type === 'compound' ? ((node.initial?.target[0] as AnyStateNode | undefined)?.id ?? null) : null,
    invokes: node.invoke.map((invoke) => (typeof invoke.src === 'string' ? invoke.src : invoke.id)),
    description: node.description ?? null,
  }))
  return { id: machine.id, rootId: machine.root.id, nodes, edges: all.flatMap((node) => edgesOfNode(machine, node)) }
}
