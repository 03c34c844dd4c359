/**
 * Model-based test harness for the machines (test-only; never imported by production code).
 *
 * 1. `getShortestPaths` (xstate/graph) walks the real machine with an explicit list of events, payloads included.
 *    Actor results are events of the model too: `{ type: 'xstate.done.actor.<id>', output }` and
 *    `{ type: 'xstate.error.actor.<id>', error }`; delays (`xstate.after.*`) are added automatically.
 * 2. Every state node must be reached (eventless routing states excepted), and every listed event must be
 *    handled somewhere.
 * 3. Each path is replayed on a real actor (`createActor(machine.provide(stubs))`) under fake timers: done/error
 *    events settle the stub promise of that invocation, delays advance the clock by the machine's own delay,
 *    other events are sent (through the invoking callback actor's `sendBack` when `sentBy` says so). After every
 *    step the actor's value, context, status and output must equal the path's snapshot.
 */
import { createActor, fromCallback, fromPromise } from 'xstate'
import type { AnyActorLogic, AnyMachineSnapshot, AnyStateMachine, EventObject, InputFrom, SnapshotFrom } from 'xstate'
import { getShortestPaths, getStateNodes } from 'xstate/graph'
import type { StatePath } from 'xstate/graph'
import { expect, vi } from 'vitest'

const AFTER = 'xstate.after.'
const DONE = 'xstate.done.actor.'
const ERROR = 'xstate.error.actor.'

export interface ModelWalkOptions<TMachine extends AnyStateMachine> {
  machine: TMachine
  input?: InputFrom<TMachine>
  /** Every event the model may send, with explicit payloads (actor results included). */
  events: readonly EventObject[]
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
  /** Invariant checked on every snapshot the walk visits. */
  invariant?: (snapshot: SnapshotFrom<TMachine>) => void
}

export interface ModelWalkResult {
  paths: number
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
  const paths = getShortestPaths(machine as AnyStateMachine, {
    input: options.input,
    events: (snapshot: AnyMachineSnapshot) => {
      const own = new Set(snapshot._nodes.flatMap((node) => node.ownEvents))
      const next: EventObject[] = []
      for (const type of own) {
        if (type.startsWith('xstate.done.state.')) continue
        const listed = events.filter((event) => event.type === type)
        if (listed.length > 0) next.push(...listed)
        else if (type.startsWith(AFTER)) next.push({ type })
        else throw new Error(`model walk: "${type}" is handled in ${JSON.stringify(snapshot.value)} but not listed`)
        offered.add(type)
      }
      return next
    },
  }) as unknown as StatePath<AnyMachineSnapshot, EventObject>[]

  const reached = new Set<string>()
  for (const path of paths) for (const step of path.steps) for (const node of step.state._nodes) reached.add(node.id)
  reached.delete(machine.root.id)
  expect([...reached].sort(), 'every state node is reached').toEqual(stateNodeIds(machine))
  const unused = [...new Set(events.map((event) => event.type))].filter((type) => !offered.has(type))
  expect(unused, 'every listed event is handled in some reachable state').toEqual([])

  let steps = 0
  for (const path of paths) {
    steps += await replay(options, path)
  }
  return { paths: paths.length, steps, reached: [...reached].sort() }
}

async function replay<TMachine extends AnyStateMachine>(
  options: ModelWalkOptions<TMachine>,
  path: StatePath<AnyMachineSnapshot, EventObject>,
): Promise<number> {
  const { machine } = options
  const pending = new Map<string, Pending>()
  const callbacks = new Map<string, (event: EventObject) => void>()
  const actors: Record<string, AnyActorLogic> = { ...options.actors }
  for (const name of options.promiseActors ?? []) {
    actors[name] = fromPromise(() => new Promise((resolve, reject) => pending.set(name, { resolve, reject })))
  }
  for (const name of options.callbackActors ?? []) {
    actors[name] = fromCallback(({ sendBack }) => {
      callbacks.set(name, sendBack)
      return () => callbacks.delete(name)
    })
  }
  const errors: unknown[] = []
  const actor = createActor((machine as AnyStateMachine).provide({ actors, actions: options.actions ?? {} } as never), {
    input: options.input,
  })
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
    expect(actual.value, message).toEqual(step.state.value)
    expect(actual.context, message).toEqual(step.state.context)
    expect(actual.status, message).toBe(step.state.status)
    expect(actual.output, message).toEqual(step.state.output)
    options.invariant?.(actual as SnapshotFrom<TMachine>)
  }
  actor.stop()
  expect(errors, where).toEqual([])
  return path.steps.length
}
