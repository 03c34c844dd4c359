/**
 * Model-driven UI tests (docs/machines/model-testing.md): the paths of a machine definition, computed with
 * xstate/graph, performed in Chromium against the real server.
 *
 * - Paths: the shortest path to every state (by value) and every transition of the model (the path to its
 *   source + the event), prefixes dropped — over the events the UI model lists (those the UI and the real server
 *   can produce), each only where the definition accepts it (`snapshot.can`).
 * - A UI model says, per event type, how the UI performs it (clicks, typing) or how the server is arranged to
 *   answer it (through the real API, before the UI action that asks — `step.next` looks ahead), and, per state
 *   (the active atomic states, `verifying.form.asking + verifying.sms.ready`), what the page shows then.
 * - Before any browser work the mapping is checked: a state or event of the paths the UI model does not know
 *   fails at once (the machine changed and the UI model, hence the UI, was not told).
 * - After every step that leaves the machine at rest (the next event is the user's, or the path ends), the
 *   state's assertion runs: a machine whose transitions the UI does not follow fails there.
 */
import type { AnyMachineSnapshot, AnyStateMachine, EventObject as XEvent } from 'xstate'

/** An event of the model, payload included (actor results carry `output` / `error`). */
export type EventObject = XEvent & Readonly<Record<string, unknown>>
import { getInitialSnapshot, getNextSnapshot } from 'xstate'
import { getAdjacencyMap, getShortestPaths, type StatePath } from 'xstate/graph'
import { recordCoverage } from '../../../machines/testing/coverage.ts'

export type Path = StatePath<AnyMachineSnapshot, EventObject>

export interface UiStep<C> {
  ctx: C
  event: EventObject
  /** the event after this one in the path (what the server must answer next, or what the user does next) */
  next: EventObject | undefined
  path: Path
  index: number
  snapshot: AnyMachineSnapshot
}

export interface UiModel<C> {
  machine: AnyStateMachine
  input?: unknown
  /** the events the UI and the real server can produce here, payloads included */
  events: readonly EventObject[]
  /**
   * what of the context tells states apart, besides the value (default: nothing): a machine whose progress lives in
   * its context (the import's rows) needs it, or the traversal would stop at the first visit of each value
   */
  serializeContext?: (snapshot: AnyMachineSnapshot) => unknown
  /** further pruning (e.g. keep the model small): only events for which this returns true are tried */
  filter?: (snapshot: AnyMachineSnapshot, event: EventObject) => boolean
  /** how each event type is performed (`xstate.init`: open the flow); server answers arranged here or earlier */
  perform: Readonly<Record<string, (step: UiStep<C>) => Promise<void>>>
  /** actor results the user produces in the UI (a child flow's outcome): the state before them is at rest */
  userEvents?: readonly string[]
  /** what the page shows in each state, by `stateKey` */
  states: Readonly<Record<string, (step: UiStep<C>) => Promise<void>>>
}

const AUTOMATIC = /^xstate\.(done|error)\.actor\.|^xstate\.after\./
const isAutomatic = <C>(model: UiModel<C>, event: EventObject) => AUTOMATIC.test(event.type) && !model.userEvents?.includes(event.type)

/** `verifying.form.asking + verifying.sms.ready` (the active atomic and final states, sorted). */
export function stateKey(snapshot: AnyMachineSnapshot): string {
  return snapshot._nodes.filter((node) => node.type === 'atomic' || node.type === 'final').map((node) => node.path.join('.')).sort().join(' + ')
}

export const describeEvent = (event: EventObject): string => {
  const { type, ...rest } = event as EventObject & Record<string, unknown>
  const short = type.replace(/^xstate\.done\.actor\./, 'done ').replace(/^xstate\.error\.actor\./, 'error ')
  const payload = Object.keys(rest).length > 0 ? ` ${JSON.stringify(rest)}` : ''
  return `${short}${payload.length > 80 ? `${payload.slice(0, 77)}…` : payload}`
}

export const describePath = (path: Path): string => path.steps.slice(1).map((step) => describeEvent(step.event)).join(' → ') || '(initial)'

const serializer = <C>(model: UiModel<C>) => (snapshot: AnyMachineSnapshot) =>
  JSON.stringify({ value: snapshot.value, status: snapshot.status, context: model.serializeContext?.(snapshot) })

export function uiPaths<C>(model: UiModel<C>): Path[] {
  const serializeState = serializer(model)
  const traversal = {
    input: model.input,
    serializeState,
    events: (snapshot: AnyMachineSnapshot) => {
      if (snapshot.status !== 'active') return []
      // delays happen by themselves: every delayed transition of the state is part of the model
      const delays = [...new Set(snapshot._nodes.flatMap((node) => node.ownEvents))].filter((type) => type.startsWith('xstate.after.')).map((type) => ({ type }))
      return [...model.events, ...delays].filter((event) => snapshot.can(event) && (model.filter?.(snapshot, event as EventObject) ?? true))
    },
  }
  const shortest = getShortestPaths(model.machine, traversal as never) as unknown as Path[]
  const bySource = new Map(shortest.map((path) => [serializeState(path.state), path]))
  const all: Path[] = [...shortest]
  for (const [key, vertex] of Object.entries(getAdjacencyMap(model.machine, traversal as never))) {
    const head = bySource.get(key)
    if (!head) continue
    for (const edge of Object.values(vertex.transitions) as Array<{ event: EventObject; state: AnyMachineSnapshot }>) {
      all.push({ state: edge.state, weight: head.weight + 1, steps: [...head.steps, { event: edge.event, state: edge.state }] })
    }
  }
  // a path that is a prefix of a longer one adds nothing: every step is checked on the way
  const key = (path: Path, end = path.steps.length) => path.steps.slice(0, end).map((step) => JSON.stringify(step.event)).join('\n')
  const covered = new Set<string>()
  const kept: Path[] = []
  for (const path of all.sort((a, b) => b.steps.length - a.steps.length)) {
    if (covered.has(key(path))) continue
    kept.push(path)
    for (let end = 1; end <= path.steps.length; end++) covered.add(key(path, end))
  }
  // a path that stops where only the server or a timer can move the machine is carried on to the next rest
  return kept.reverse().flatMap((path) => replay(model, path) ?? []).map((path) => carryOn(model, traversal.events, path))
}

/**
 * The path's snapshots, recomputed from the initial state. The traversal keys states by value only, so a vertex
 * keeps one of the snapshots that share its value and the path's steps may carry another path's context (the
 * view/org machine's view and organization live in its context); replaying the events gives the real ones. A
 * path whose events the real context refuses is dropped.
 */
function replay<C>(model: UiModel<C>, path: Path): Path | null {
  let state = getInitialSnapshot(model.machine, model.input) as AnyMachineSnapshot
  const steps: Path['steps'] = [{ event: path.steps[0]!.event, state }]
  for (const step of path.steps.slice(1)) {
    if (!state.can(step.event)) return null
    state = getNextSnapshot(model.machine, state as never, step.event as never) as AnyMachineSnapshot
    steps.push({ event: step.event, state })
  }
  return { ...path, state, steps }
}

function carryOn<C>(model: UiModel<C>, eventsOf: (snapshot: AnyMachineSnapshot) => XEvent[], path: Path): Path {
  let current = path
  for (let guard = 0; guard < 20; guard++) {
    const offered = eventsOf(current.state) as EventObject[]
    if (offered.length === 0 || offered.some((event) => !isAutomatic(model, event))) return current
    const event = offered[0]!
    const state = getNextSnapshot(model.machine, current.state as never, event as never) as AnyMachineSnapshot
    current = { state, weight: current.weight + 1, steps: [...current.steps, { event, state }] }
  }
  return current
}

/** The states and event types of the paths the UI model does not know (empty: the mapping is complete). */
export function unmapped<C>(model: UiModel<C>, paths: readonly Path[]): string[] {
  const missing = new Set<string>()
  for (const path of paths) {
    for (const [index, step] of path.steps.entries()) {
      if (!model.perform[step.event.type]) missing.add(`event ${step.event.type}`)
      const atRest = index === path.steps.length - 1 || !isAutomatic(model, path.steps[index + 1]!.event)
      if (atRest && !model.states[stateKey(step.state)]) missing.add(`state ${stateKey(step.state)}`)
    }
  }
  return [...missing].sort()
}

/** Performs one path through the UI, checking the page at every rest; records what it covered. */
export async function runPath<C>(model: UiModel<C>, ctx: C, path: Path): Promise<void> {
  const states = new Set<string>()
  const transitions: string[] = []
  for (const [index, step] of path.steps.entries()) {
    const next = path.steps[index + 1]?.event
    const ui: UiStep<C> = { ctx, event: step.event, next, path, index, snapshot: step.state }
    const perform = model.perform[step.event.type]
    if (!perform) throw new Error(`the UI model of ${model.machine.id} cannot perform ${step.event.type}`)
    await perform(ui)
    const atRest = next === undefined || !isAutomatic(model, next)
    if (atRest) {
      const check = model.states[stateKey(step.state)]
      if (!check) throw new Error(`the UI model of ${model.machine.id} has no assertion for state ${stateKey(step.state)}`)
      try {
        await check(ui)
      } catch (error) {
        throw new Error(`${model.machine.id}: the page does not show state "${stateKey(step.state)}" after step ${index} (${describeEvent(step.event)}) of ${describePath(path)}\n${String(error)}`, { cause: error })
      }
    }
    for (const node of step.state._nodes) if (node.path.length > 0) states.add(node.id)
    if (index > 0) transitions.push(`${leafIds(path.steps[index - 1]!.state)} --${step.event.type}--> ${leafIds(step.state)}`)
  }
  recordCoverage('ui', model.machine.id, { states: [...states].sort(), transitions, path: describePath(path) })
}

const leafIds = (snapshot: AnyMachineSnapshot) =>
  snapshot._nodes.filter((node) => node.type === 'atomic' || node.type === 'final').map((node) => node.id).sort().join('+')
