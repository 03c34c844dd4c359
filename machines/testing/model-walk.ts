/**
 * Model-based test harness for the machines (test-only; never imported by production code).
 *
 * 1. `getShortestPaths` (xstate/graph) walks the real machine with an explicit list of events, payloads included.
 *    Actor results are events of the model too: `{ type: 'xstate.done.actor.<id>', output }` and
 *    `{ type: 'xstate.error.actor.<id>', error }`; delays (`xstate.after.*`) are added automatically.
 * 2. Every state node must be reached (eventless routing states excepted), and every listed event must be
 *    handled somewhere.
 * 3. The shortest path to every snapshot, and every transition of the model (path to its source + the event), is
 *    replayed on a real actor (`createActor(machine.provide(stubs))`) under fake timers: done/error events settle
 *    the stub promise of that invocation, delays advance the clock by the machine's own delay, other events are
 *    sent (through the invoking callback actor's `sendBack` when `sentBy` says so). After every step the actor's
 *    value, context, status and output must equal the model's snapshot, and the invariant must hold.
 * The caller uses `vi.useFakeTimers()`.
 */
import { createActor, fromCallback, fromPromise } from 'xstate'
import type { AnyActorLogic, AnyMachineSnapshot, AnyStateMachine, EventObject, InputFrom, SnapshotFrom } from 'xstate'
import { getAdjacencyMap, getShortestPaths, getStateNodes } from 'xstate/graph'
import type { StatePath } from 'xstate/graph'
import { isDeepStrictEqual } from 'node:util'
import { expect, vi } from 'vitest'
import { coverageDir, leafKey, recordCoverage } from './coverage.ts'

/** Model walks replay hundreds of paths; give them room on a loaded CI machine. */
export const MODEL_TEST_TIMEOUT = 120_000

const AFTER = 'xstate.after.'
const DONE = 'xstate.done.actor.'
const ERROR = 'xstate.error.actor.'

/** An event of the model: a machine event, or an actor result (`output` / `error`), payload included. */
export type ModelEvent = EventObject & Readonly<Record<string, unknown>>

export interface ModelWalkOptions<TMachine extends AnyStateMachine> {
  machine: TMachine
  /** One walk per input; states and events are checked over all of them together. */
  inputs?: readonly InputFrom<TMachine>[]
  /** Every event the model may send, with explicit payloads (actor results included). */
  events: readonly ModelEvent[]
  /** Promise actors replaced by stubs settled by the model's done/error events. Invoke id must equal the src. */
  promiseActors?: readonly string[]
  /** Callback actors replaced by stubs that record `sendBack`; they must be live when `sentBy` routes an event. */
  callbackActors?: readonly string[]
  /** Event type → callback actor that sends it to the machine. */
  sentBy?: Readonly<Record<string, string>>
  /** Extra actor logic used as-is. */
  actors?: Readonly<Record<string, AnyActorLogic>>
  /** Action implementations (spies); defaults are kept for the others. */
  actions?: Readonly<Record<string, (...args: any[]) => void>>
  /** Prunes the model (keeps the state space small): only events for which this returns true are tried. */
  filter?: (snapshot: SnapshotFrom<TMachine>, event: EventObject) => boolean
  /** Replay every transition of the model, not only the shortest path to every snapshot (default true). */
  everyTransition?: boolean
  /** Invariant checked on every snapshot the walk visits. */
  invariant?: (snapshot: SnapshotFrom<TMachine>) => void
}

export interface ModelWalkResult {
  /** Shortest paths found (one per distinct reachable snapshot). */
  paths: number
  /** Steps replayed on real actors (every transition; paths that are prefixes of others are not replayed twice). */
  steps: number
  reached: string[]
}

interface Pending {
  resolve: (value: unknown) => void
  reject: (reason: unknown) => void
}

/** Ids of state nodes that are only passed through (an unguarded eventless transition). */
function isTransient(node: { always?: readonly { guard?: unknown }[] }): boolean {
  return node.always?.some((transition) => transition.guard === undefined) ?? false
}

export function stateNodeIds(machine: AnyStateMachine): string[] {
  return getStateNodes(machine.root)
    .filter((node) => !isTransient(node))
    .map((node) => node.id)
    .sort()
}

function delayOf(machine: AnyStateMachine, type: string, snapshot: AnyMachineSnapshot): number {
  const ref = type.slice(AFTER.length).split('.', 1)[0] ?? ''
  if (/^\d+$/.test(ref)) return Number(ref)
  const delay: unknown = (machine.implementations.delays as Record<string, unknown>)[ref]
  if (typeof delay === 'number') return delay
  if (typeof delay === 'function') return (delay as (args: { context: unknown }) => number)({ context: snapshot.context })
  throw new Error(`model walk: unknown delay "${ref}"`)
}

export async function flushMicrotasks(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve()
}

function describePath(path: StatePath<AnyMachineSnapshot, EventObject>): string {
  return path.steps.map((step) => `${step.event.type} → ${JSON.stringify(step.state.value)}`).join(' | ')
}

export async function walkShortestPaths<TMachine extends AnyStateMachine>(
  options: ModelWalkOptions<TMachine>,
): Promise<ModelWalkResult> {
  const { machine, events } = options
  const offered = new Set<string>()
  const reached = new Set<string>()
  const taken = new Set<string>()
  let pathCount = 0
  let steps = 0
  const stubs = createStubs(options)
  for (const input of options.inputs ?? [undefined]) {
    const { shortest, transitions } = modelPaths(options, input, offered)
    if (coverageDir()) {
      for (const path of [...shortest, ...transitions]) {
        for (const [index, step] of path.steps.entries()) {
          if (index > 0) taken.add(`${leafKey(path.steps[index - 1]!.state)} --${step.event.type}--> ${leafKey(step.state)}`)
        }
      }
    }
    for (const path of shortest) for (const step of path.steps) for (const node of step.state._nodes) reached.add(node.id)
    // Replaying a path checks every snapshot along it, so paths that are prefixes of a longer one add nothing.
    for (const path of withoutPrefixes([...shortest, ...transitions])) steps += await replay(options, stubs, input, path)
    pathCount += shortest.length
  }
  reached.delete(machine.root.id)
  if (coverageDir()) recordCoverage('unit', machine.id, { states: [...reached].sort(), transitions: [...taken].sort() })
  expect([...reached].sort(), 'every state node is reached').toEqual(stateNodeIds(machine))
  const unused = [...new Set(events.map((event) => event.type))].filter((type) => !offered.has(type))
  expect(unused, 'every listed event is handled in some reachable state').toEqual([])
  return { paths: pathCount, steps, reached: [...reached].sort() }
}

function withoutPrefixes(paths: Path[]): Path[] {
  const covered = new Set<string>()
  const kept: Path[] = []
  for (const path of [...paths].sort((a, b) => b.steps.length - a.steps.length)) {
    const keys = path.steps.map((step) => toJson(step.event))
    if (covered.has(keys.join('\n'))) continue
    kept.push(path)
    for (let end = 1; end <= keys.length; end++) covered.add(keys.slice(0, end).join('\n'))
  }
  return kept
}

type Path = StatePath<AnyMachineSnapshot, EventObject>

/** JSON that keeps Error messages apart (plain JSON turns every Error into `{}`). */
const toJson = (value: unknown): string =>
  JSON.stringify(value, (_key, item: unknown) => (item instanceof Error ? { error: item.name, message: item.message } : item))

const serializeState = (snapshot: AnyMachineSnapshot): string => toJson({ value: snapshot.value, context: snapshot.context })

/**
 * The shortest path to every reachable snapshot and, unless `everyTransition` is false, every transition of the
 * model as "shortest path to its source + the event", so self-loops (ignored events, action-only transitions) run
 * on the real actor too.
 */
function modelPaths<TMachine extends AnyStateMachine>(
  options: ModelWalkOptions<TMachine>,
  input: InputFrom<TMachine> | undefined,
  offered: Set<string>,
): { shortest: Path[]; transitions: Path[] } {
  const { events } = options
  const traversal = {
    input,
    serializeState,
    events: (snapshot: AnyMachineSnapshot) => {
      // The pure transition function would still move a finished machine; a real actor ignores events then.
      if (snapshot.status !== 'active') return []
      const own = new Set(snapshot._nodes.flatMap((node) => node.ownEvents))
      const next: EventObject[] = []
      for (const type of own) {
        if (type.startsWith('xstate.done.state.')) continue
        const listed = events.filter((event) => event.type === type)
        if (listed.length > 0) next.push(...listed)
        else if (type.startsWith(AFTER)) next.push({ type })
        else throw new Error(`model walk: "${type}" is handled in ${JSON.stringify(snapshot.value)} but not listed`)
      }
      const kept = options.filter ? next.filter((event) => options.filter?.(snapshot as SnapshotFrom<TMachine>, event)) : next
      for (const event of kept) offered.add(event.type)
      return kept
    },
  }
  const machine = options.machine as AnyStateMachine
  const shortest = getShortestPaths(machine, traversal) as unknown as Path[]
  if (options.everyTransition === false) return { shortest, transitions: [] }
  const bySource = new Map(shortest.map((path) => [serializeState(path.state), path]))
  const transitions: Path[] = []
  for (const [key, vertex] of Object.entries(getAdjacencyMap(machine, traversal))) {
    const head = bySource.get(key)
    if (!head) continue
    for (const edge of Object.values(vertex.transitions) as Array<{ event: EventObject; state: AnyMachineSnapshot }>) {
      transitions.push({ state: edge.state, weight: head.weight + 1, steps: [...head.steps, { event: edge.event, state: edge.state }] })
    }
  }
  return { shortest, transitions }
}

/** Stub actors whose promises and callbacks the replay controls; one provided machine serves every path. */
interface Stubs {
  pending: Map<string, Pending>
  callbacks: Map<string, (event: EventObject) => void>
  machine: AnyStateMachine
}

function createStubs<TMachine extends AnyStateMachine>(options: ModelWalkOptions<TMachine>): Stubs {
  const pending = new Map<string, Pending>()
  const callbacks = new Map<string, (event: EventObject) => void>()
  const actors: Record<string, AnyActorLogic> = { ...options.actors }
  for (const name of options.promiseActors ?? []) {
    actors[name] = fromPromise(() => new Promise((resolve, reject) => pending.set(name, { resolve, reject })))
  }
  for (const name of options.callbackActors ?? []) {
    actors[name] = fromCallback(({ sendBack }) => {
      callbacks.set(name, sendBack)
      return () => {
        if (callbacks.get(name) === sendBack) callbacks.delete(name)
      }
    })
  }
  const machine = (options.machine as AnyStateMachine).provide({ actors, actions: options.actions ?? {} } as never)
  return { pending, callbacks, machine }
}

/** Deep equality through vitest only when the fast check fails, so a mismatch still gets a readable diff. */
function expectSame(actual: unknown, expected: unknown, message: string): void {
  if (!isDeepStrictEqual(actual, expected)) expect(actual, message).toEqual(expected)
}

async function replay<TMachine extends AnyStateMachine>(
  options: ModelWalkOptions<TMachine>,
  stubs: Stubs,
  input: InputFrom<TMachine> | undefined,
  path: StatePath<AnyMachineSnapshot, EventObject>,
): Promise<number> {
  const { machine } = options
  const { pending, callbacks } = stubs
  pending.clear()
  callbacks.clear()
  const errors: unknown[] = []
  const actor = createActor(stubs.machine, { input })
  actor.subscribe({ error: (error) => errors.push(error) })
  const where = describePath(path)
  const settle = (id: string, how: 'resolve' | 'reject', value: unknown): void => {
    const stub = pending.get(id)
    if (!stub) throw new Error(`model walk: no live "${id}" invocation for ${where}`)
    pending.delete(id)
    stub[how](value)
  }

  for (const [index, step] of path.steps.entries()) {
    const event = step.event as EventObject & { output?: unknown; error?: unknown }
    if (index === 0) actor.start()
    else if (event.type.startsWith(DONE)) settle(event.type.slice(DONE.length), 'resolve', event.output)
    else if (event.type.startsWith(ERROR)) settle(event.type.slice(ERROR.length), 'reject', event.error)
    else if (event.type.startsWith(AFTER)) await vi.advanceTimersByTimeAsync(delayOf(machine, event.type, actor.getSnapshot()))
    else {
      const via = options.sentBy?.[event.type]
      const sendBack = via === undefined ? undefined : callbacks.get(via)
      if (via !== undefined && !sendBack) throw new Error(`model walk: "${via}" is not running to send ${event.type} (${where})`)
      if (sendBack) sendBack(event)
      else actor.send(event)
    }
    await flushMicrotasks()
    const actual = actor.getSnapshot() as AnyMachineSnapshot
    const message = `step ${index} (${event.type}) of ${where}`
    expectSame(actual.value, step.state.value, message)
    expectSame(actual.context, step.state.context, message)
    expectSame(actual.status, step.state.status, message)
    expectSame(actual.output, step.state.output, message)
    options.invariant?.(actual as SnapshotFrom<TMachine>)
  }
  actor.stop()
  expect(errors, where).toEqual([])
  return path.steps.length
}
