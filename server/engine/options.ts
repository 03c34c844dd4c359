/**
 * OPTIONS by construction (issue 34): every `GET /api/…` route the server registers answers `OPTIONS` with the
 * fields of its answer, without a line per endpoint. `collectGetRoutes` (installed on the app before any module)
 * notes each API GET route and its handler; `addMissingOptions` (after every module) registers, for each one that
 * has no OPTIONS of its own, an OPTIONS route that runs the GET handler — the same permission checks, in the same
 * request — with a reply that captures instead of sending:
 * - a list answered by the engine (`listResponse`, the custom lists of declared resources: My assets, My sessions,
 *   My login logs …) is described by its resource's own metadata (the engine notes which resource it listed:
 *   `noteList`), narrowed to the fields the route kept, plus what the route added to the rows;
 * - any other answer — a page `{count, results}`, an array of rows, a settings object — is described from its
 *   values: each key's type read from the values (integer, float, boolean, datetime, labeled choice, list, nested
 *   object, string) and a label in the request's language.
 * A route that must not be run this way (a GET with an effect) opts out with `config: { options: false }`.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod, RouteOptions } from 'fastify'
import { tr } from '../i18n.ts'
import { metadata, PARSES, RENDERS } from './metadata.ts'
import type { ResourceDef } from './types.ts'

interface GetRoute { url: string; handler: RouteHandlerMethod }

const pending = new WeakMap<FastifyInstance, GetRoute[]>()

/** True for URLs that get an automatic OPTIONS: API paths, no wildcard. */
const eligible = (url: string) => url.startsWith('/api/') && !url.includes('*')

export function collectGetRoutes(app: FastifyInstance): void {
  const list: GetRoute[] = []
  pending.set(app, list)
  app.addHook('onRoute', (r: RouteOptions) => {
    const methods = [r.method].flat().map(String)
    if (!methods.includes('GET') || !eligible(r.url)) return
    if ((r.config as { options?: boolean } | undefined)?.options === false) return
    list.push({ url: r.url, handler: r.handler })
  })
}

const listed = new WeakMap<FastifyRequest, { def: ResourceDef; only?: string[] }>()

/** Notes the resource a list handler answered from (the engine's listResponse calls it for OPTIONS requests). */
export function noteList(req: FastifyRequest, def: ResourceDef, only?: string[]): void {
  listed.set(req, { def, only })
}

export const isOptionsRequest = (req: FastifyRequest) => req.method === 'OPTIONS'

const DATETIME = /^\d{4}[-/]\d{2}[-/]\d{2}[ T]\d{2}:\d{2}(:\d{2})?/

function typeOf(values: unknown[]): string {
  const seen = values.filter((v) => v !== null && v !== undefined)
  const v = seen[0]
  if (v === undefined) return 'field'
  if (typeof v === 'boolean') return 'boolean'
  if (typeof v === 'number') return seen.every((x) => Number.isInteger(x)) ? 'integer' : 'float'
  if (typeof v === 'string') return seen.every((x) => typeof x === 'string' && DATETIME.test(x)) ? 'datetime' : 'string'
  if (Array.isArray(v)) return 'list'
  if (typeof v === 'object' && 'value' in v && 'label' in v) return 'labeled_choice'
  return 'nested object'
}

const labelOf = (key: string) => {
  const words = key.replace(/_/g, ' ').trim()
  return words ? words[0]!.toUpperCase() + words.slice(1) : key
}

/** OPTIONS metadata read from an answer's values (rows of a list, or one object). */
export function inferMetadata(req: FastifyRequest, answer: unknown): Record<string, unknown> {
  let rows: unknown[] = []
  if (Array.isArray(answer)) rows = answer
  else if (answer && typeof answer === 'object') {
    const o = answer as Record<string, unknown>
    rows = Array.isArray(o.results) && 'count' in o ? o.results : [o]
  }
  const plain = (r: unknown): r is Record<string, unknown> => !!r && typeof r === 'object' && [Object.prototype, null].includes(Object.getPrototypeOf(r))
  const objects = rows.slice(0, 50).filter(plain)
  const keys: string[] = []
  for (const o of objects) for (const k of Object.keys(o)) if (!keys.includes(k)) keys.push(k)
  const fields = Object.fromEntries(keys.map((k) => {
    const label = labelOf(k)
    return [k, { type: typeOf(objects.map((o) => o[k])), required: false, read_only: true, write_only: false, label: tr(req.ctx.lang, label) }]
  }))
  return { name: '', description: '', renders: RENDERS, parses: PARSES, actions: { GET: fields } }
}

/** A reply that keeps what the handler sends instead of sending it. */
function capturingReply(reply: FastifyReply): { proxy: FastifyReply; sent: () => { value: unknown } | undefined } {
  let captured: { value: unknown } | undefined
  const proxy: FastifyReply = new Proxy(reply, {
    get(target, prop) {
      if (prop === 'send') return (v: unknown) => { captured = { value: v }; return proxy }
      // a Reply is a thenable (it resolves when the real answer is sent): a handler's `return reply.send(x)` must
      // not make the awaiting OPTIONS wait for an answer that never goes out
      if (prop === 'then') return undefined
      if (prop === 'sent') return captured !== undefined
      if (['status', 'code', 'header', 'headers', 'type', 'removeHeader', 'hijack'].includes(String(prop))) return () => proxy
      const v = Reflect.get(target, prop, target) as unknown
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v
    },
  })
  return { proxy, sent: () => captured }
}

export function addMissingOptions(app: FastifyInstance): void {
  const list = pending.get(app) ?? []
  pending.delete(app)
  for (const r of list) {
    if (app.hasRoute({ method: 'OPTIONS', url: r.url })) continue
    app.route({
      method: 'OPTIONS',
      url: r.url,
      handler: async function (req, reply) {
        const { proxy, sent } = capturingReply(reply)
        const returned: unknown = await (r.handler as (this: FastifyInstance, req: FastifyRequest, reply: FastifyReply) => unknown).call(this, req, proxy)
        const answer = returned !== undefined ? returned : sent()?.value
        const inferred = inferMetadata(req, answer)
        const list = listed.get(req)
        if (!list) return inferred
        // the resource's own field descriptions, and what the route added to its rows (read from their values)
        const meta = await metadata(list.def, req.ctx, ['GET'], false, { query: req.query as Record<string, unknown> })
        const own = (meta.actions as { GET: Record<string, unknown> }).GET
        const added = (inferred.actions as { GET: Record<string, unknown> }).GET
        const fields = Object.fromEntries(Object.entries(own).filter(([k]) => !list.only || list.only.includes(k)))
        for (const [k, v] of Object.entries(added)) if (!(k in fields)) fields[k] = v
        return { ...meta, actions: { GET: fields } }
      },
    })
  }
}
