/**
 * What the inspector knows: every actor the observed systems created (machines get a chart), their latest
 * snapshots, and the event log with timestamps. Fed with XState inspection events (registry.ts); read by the
 * view through `subscribe`/`version` (one re-render per animation frame at most).
 */
import type { AnyActorRef, AnyStateMachine, InspectionEvent } from 'xstate'
import { machineGraph, type MachineGraph } from '../../../machines/graph.ts'

export interface InspectedActor {
  sessionId: string
  /** invoke / system id (`confirm`, `viewOrg`), or the machine id for a root */
  name: string
  /** machine id (`confirm`) */
  machineId: string
  ref: AnyActorRef
  graph: MachineGraph
  parentSessionId: string | null
  createdAt: number
  /** order of creation */
  seq: number
  /** started (an actor React created during a render it then threw away never starts) */
  started: boolean
}

export interface LoggedEvent {
  seq: number
  at: number
  /** receiving actor */
  sessionId: string
  source: string | null
  type: string
  payload: string
}

const LOG_LIMIT = 2000
const FINISHED_LIMIT = 40

function isMachine(logic: unknown): logic is AnyStateMachine {
  return typeof logic === 'object' && logic !== null && 'root' in logic && 'getStateNodeById' in logic
}

/** Keys whose values the inspector never shows (a typed password or code travels in the SUBMIT event). */
const SECRET_KEY = /^(code|password|secret|secret_key|token|otp)$/i

/** JSON for the view: secrets hidden, actor refs by id, errors by message, long values cut. */
export function toDisplayJson(value: unknown, limit = 20_000): string {
  const seen = new WeakSet<object>()
  const text = JSON.stringify(
    value,
    (key, item: unknown) => {
      if (SECRET_KEY.test(key) && typeof item === 'string' && item !== '') return '[hidden]'
      if (item instanceof Error) return { error: item.name, message: item.message }
      if (typeof item === 'function') return undefined
      if (typeof item === 'object' && item !== null) {
        if ('sessionId' in item && 'send' in item) return `[actor ${(item as { id?: string }).id ?? ''}]`
        if (seen.has(item)) return '[circular]'
        seen.add(item)
      }
      return item
    },
    2,
  ) ?? 'undefined'
  return text.length > limit ? `${text.slice(0, limit)}\n…` : text
}

export class InspectorStore {
  readonly actors = new Map<string, InspectedActor>()
  readonly log: LoggedEvent[] = []
  version = 0
  private seq = 0
  private graphs = new WeakMap<object, MachineGraph>()
  private listeners = new Set<() => void>()
  private scheduled = false
  /** called with each machine actor started while live (the view follows new flows) */
  private onCreated: ((actor: InspectedActor) => void) | null = null

  setOnCreated(next: ((actor: InspectedActor) => void) | null): void {
    this.onCreated = next
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  getVersion = (): number => this.version

  add(event: InspectionEvent, live: boolean): void {
    if (event.type === '@xstate.actor') {
      const ref = event.actorRef as AnyActorRef
      const logic = (ref as { logic?: unknown }).logic
      if (!isMachine(logic)) return
      let graph = this.graphs.get(logic.root)
      if (!graph) {
        graph = machineGraph(logic)
        this.graphs.set(logic.root, graph)
      }
      const parent = (ref as { _parent?: AnyActorRef })._parent
      const name = ref.id && !/^x:\d+$/.test(ref.id) ? ref.id : logic.id
      const actor: InspectedActor = {
        sessionId: ref.sessionId, name, machineId: logic.id, ref, graph,
        parentSessionId: parent?.sessionId ?? null, createdAt: Date.now(), seq: this.seq++, started: false,
      }
      this.actors.set(ref.sessionId, actor)
      this.prune()
    } else if (event.type === '@xstate.event') {
      const actor = this.actors.get(event.actorRef.sessionId)
      if (!actor) return
      if (!actor.started && event.event.type === 'xstate.init') {
        actor.started = true
        if (live) this.onCreated?.(actor)
      }
      const { type, ...rest } = event.event
      this.log.push({
        seq: this.seq++, at: Date.now(), sessionId: event.actorRef.sessionId,
        source: event.sourceRef ? (this.actors.get(event.sourceRef.sessionId)?.name ?? (event.sourceRef as AnyActorRef).id) : null,
        type, payload: Object.keys(rest).length > 0 ? toDisplayJson(rest, 400).replace(/\s+/g, ' ') : '',
      })
      if (this.log.length > LOG_LIMIT) this.log.splice(0, this.log.length - LOG_LIMIT)
    } else if (event.type !== '@xstate.snapshot') {
      return
    }
    this.changed()
  }

  /** Finished actors beyond the last FINISHED_LIMIT are forgotten. */
  private prune(): void {
    const finished = [...this.actors.values()].filter((actor) => statusOf(actor) !== 'active')
    for (const actor of finished.slice(0, Math.max(0, finished.length - FINISHED_LIMIT))) this.actors.delete(actor.sessionId)
  }

  private changed(): void {
    if (this.scheduled) return
    this.scheduled = true
    const flush = () => {
      this.scheduled = false
      this.version++
      for (const listener of this.listeners) listener()
    }
    if (typeof requestAnimationFrame === 'function' && document.visibilityState === 'visible') requestAnimationFrame(flush)
    else setTimeout(flush, 16)
  }
}

/** The actor's status; `active` while its first snapshot is being made (the inspection event comes first). */
export function statusOf(actor: InspectedActor): string {
  return (actor.ref.getSnapshot() as { status?: string } | undefined)?.status ?? 'active'
}

/** Ids of the active state nodes of a machine snapshot (root included). */
export function activeStateIds(snapshot: unknown, graph: MachineGraph): Set<string> {
  const nodes = (snapshot as { _nodes?: readonly { id: string }[] })._nodes
  if (Array.isArray(nodes)) return new Set(nodes.map((node) => node.id))
  const ids = new Set([graph.rootId])
  const walk = (prefix: string, value: unknown) => {
    if (typeof value === 'string') ids.add(`${prefix}.${value}`)
    else if (typeof value === 'object' && value !== null) {
      for (const [key, inner] of Object.entries(value)) {
        ids.add(`${prefix}.${key}`)
        walk(`${prefix}.${key}`, inner)
      }
    }
  }
  walk(graph.rootId, (snapshot as { value?: unknown }).value)
  return ids
}

/** `verifying.form.asking, verifying.sms.ready` */
export function describeValue(value: unknown): string {
  const out: string[] = []
  const walk = (prefix: string, inner: unknown) => {
    if (typeof inner === 'string') out.push(prefix ? `${prefix}.${inner}` : inner)
    else if (typeof inner === 'object' && inner !== null) {
      const entries = Object.entries(inner)
      if (entries.length === 0 && prefix) out.push(prefix)
      for (const [key, next] of entries) walk(prefix ? `${prefix}.${key}` : key, next)
    }
  }
  walk('', value)
  return out.join(', ')
}
