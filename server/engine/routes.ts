/**
 * Serves a declared resource: list/detail/bulk verbs (contract §1.2), OPTIONS, export, render-to-json
 * and the resource's special actions, each behind its permission (contract §7).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify'
import { sql } from 'kysely'
import { requireConfirm } from '../auth/confirm.ts'
import { requirePerm, requireUser } from '../http/context.ts'
import { ApiError, validationError } from '../http/errors.ts'
import { tr } from '../i18n.ts'
import { ORG_IDS } from '../rbac/catalog.ts'
import { recordOperate, objectDisplay, auditOrgOf } from './audit.ts'
import { fieldByName, permOf, permOrg, resolveFields } from './fields.ts'
import { fileColumns, renderToJson, sendFile, templateOf } from './files.ts'
import { metadata, type MetaMethod } from './metadata.ts'
import { countByDays } from './daycounts.ts'
import { isOptionsRequest, noteList } from './options.ts'
import { and, cleanIds, col, countAll, countRows, EXPORT_LIMIT, SMALL_MATCH, fetchRows, idsCond, pageLinks, pageParams, planList, qstr, scopeConds, type ListPlan, type Query } from './query.ts'
import { defineResource } from './registry.ts'
import { serializeRows } from './serialize.ts'
import { commitWrites, deleteRows, prepareMany, prepareWrite } from './write.ts'
import { refId } from '../http/body.ts'
import type { Action, FieldDef, ListOptions, PermAction, ResourceApi, ResourceDef, Row, TableName, Verb } from './types.ts'
import type { DB } from '../db/connection.ts'
import './messages.ts'

const ALL_VERBS: Verb[] = ['list', 'retrieve', 'create', 'update', 'destroy', 'bulk_update', 'bulk_destroy', 'import', 'export']

export const allows = (def: ResourceDef, v: Verb) => (def.verbs ?? ALL_VERBS).includes(v)

async function checkPerm(req: FastifyRequest, def: ResourceDef, kind: PermAction): Promise<void> {
  await requirePerm(req, permOf(def, kind), permOrg(def, req.ctx, kind))
}

/** Narrows output fields by `fields_size`, `fields` and `fields!` (GET only). */
function narrow(def: ResourceDef, fields: FieldDef[], q: Query): FieldDef[] {
  const size = qstr(q, 'fields_size')
  const sizeList = size === 'mini' ? def.sizes?.mini : size === 'small' ? def.sizes?.small : undefined
  let out = sizeList ? fields.filter((f) => sizeList.includes(f.name)) : fields
  const keep = qstr(q, 'fields')
  if (keep) {
    const names = new Set(keep.split(',').map((s) => s.trim()))
    out = out.filter((f) => names.has(f.name))
  }
  const drop = qstr(q, 'fields!')
  if (drop) {
    const names = new Set(drop.split(',').map((s) => s.trim()))
    out = out.filter((f) => !names.has(f.name))
  }
  return out
}

function notFoundOf(def: ResourceDef, req: FastifyRequest): ApiError {
  return new ApiError(404, { detail: tr(req.ctx.lang, '{model} object does not exist.', { model: tr(req.ctx.lang, def.verboseName) }), code: 'object_does_not_exist' })
}

/** Builds the helper API of one resource (also handed to special actions). */
/** A resource's `secretGuard`: the permission, then a fresh confirmation (issue 36 point 5). */
async function secretGuard(req: FastifyRequest, def: ResourceDef): Promise<void> {
  if (!def.secretGuard) return
  await requirePerm(req, def.secretGuard.perm)
  await requireConfirm(req, def.secretGuard.confirm)
}

/** The helpers of one resource (its rows typed as its declaration's: `ResourceApi<RowOf<'assets'>>`). */
export function resourceApi<T extends TableName, X extends object, R>(def: ResourceDef<T, X, R>): ResourceApi<R>
export function resourceApi(def: ResourceDef): ResourceApi {
  const api: ResourceApi = {
    def,
    async getObject(req, id, db = req.ctx.db) {
      const ids = cleanIds(def, [id])
      const alt = !ids.length && def.altLookup && typeof id === 'string' && id !== '' ? sql`${col(def.altLookup)} = ${id}` : undefined
      if (!ids.length && !alt) throw notFoundOf(def, req)
      const rows = await fetchRows(db, def, [], [...scopeConds(def, req.ctx), alt ?? idsCond(def, ids)])
      if (!rows[0]) throw notFoundOf(def, req)
      return rows[0]
    },
    async filteredRows(req, db = req.ctx.db) {
      const plan = await planList(db, def, req)
      return fetchRows(db, def, [], plan.conds, { order: plan.order })
    },
    async serialize(req, rows, opts = {}) {
      let fields = await resolveFields(def, req.ctx, opts.action ?? 'list')
      if (opts.only) fields = fields.filter((f) => opts.only!.includes(f.name))
      const db = opts.db ?? req.ctx.db
      const full = await fetchRows(db, def, fields, [idsCond(def, rows.map((r) => r.id))])
      const byId = new Map(full.map((r) => [String(r.id), r]))
      return serializeRows(def, rows.map((r) => byId.get(String(r.id))).filter((r): r is Row => !!r), fields, { db, ctx: req.ctx })
    },
    async listResponse(req, opts = {}) {
      return listAnswer(def, req, opts)
    },
    async create(req, body) {
      const fields = await resolveFields(def, req.ctx, 'create')
      const r = await prepareWrite(req.ctx.db, def, fields, body ?? {}, req.ctx, { op: 'create', partial: false })
      if (r.errors) throw validationError(r.errors)
      const [out] = await commitWrites(req, def, fields, [{ prepared: r.prepared! }], { op: 'create', partial: false }, fields)
      return out!
    },
    async update(req, id, body, opts = {}) {
      const existing = await api.getObject(req, id)
      return updateOne(def, req, existing, body, opts.partial ?? true)
    },
    async audit(tx: DB, req, action, row, diff) {
      await recordOperate(tx, req.ctx, { action, resourceType: def.verboseName, resource: objectDisplay(def, row), resourceId: row.id, orgId: auditOrgOf(def, req.ctx, row), diff })
    },
  }
  return api
}

async function listAnswer(def: ResourceDef, req: FastifyRequest, opts: ListOptions = {}): Promise<unknown> {
  // OPTIONS by construction (options.ts): a custom list route run for an OPTIONS is described by its resource.
  if (isOptionsRequest(req)) noteList(req, def, opts.only)
  const ctx = opts.ctx ?? req.ctx
  const q = (req.query ?? {}) as Query
  let fields = narrow(def, await resolveFields(def, ctx, 'list'), q)
  if (opts.only) fields = fields.filter((f) => opts.only!.includes(f.name))
  const plan = await planList(ctx.db, def, req, opts.extra, ctx)
  const page = opts.bare ? undefined : pageParams(q)
  if (!page) {
    const rows = await fetchRows(ctx.db, def, fields, plan.conds, { order: plan.order, limit: opts.limit })
    return serializeRows(def, rows, fields, { db: ctx.db, ctx })
  }
  const known = !plan.filtered && opts.count ? await opts.count() : plan.soleCount ? await plan.soleCount() : undefined
  if (known === undefined && plan.searched && !plan.range) {
    const small = await smallMatchPage(ctx.db, def, fields, plan, page)
    if (small) return { count: small.count, ...pageLinks(req, small.count, page.limit, page.offset), results: await serializeRows(def, small.rows, fields, { db: ctx.db, ctx }) }
  }
  const count = known ?? (plan.unfiltered ? await countAll(ctx.db, def, ctx, plan.conds) : (await countByDays(ctx.db, def, plan)) ?? await countRows(ctx.db, def, plan.conds))
  const rows = count > page.offset
    ? await fetchRows(ctx.db, def, fields, plan.conds, { order: plan.order, limit: page.limit, offset: page.offset, fence: plan.filtered && count <= SMALL_MATCH })
    : []
  const results = await serializeRows(def, rows, fields, { db: ctx.db, ctx })
  return { count, ...pageLinks(req, count, page.limit, page.offset), results }
}

/**
 * A searched list whose matches are few (at most SMALL_MATCH): its exact count and its page in one pass over the
 * matches (a window count beside a top-N sort), instead of one pass to count and a second to page. More matches,
 * or a page past the end: undefined (the caller counts, then pages).
 */
async function smallMatchPage(db: DB, def: ResourceDef, fields: FieldDef[], plan: ListPlan, page: { limit: number; offset: number }): Promise<{ count: number; rows: Row[] } | undefined> {
  const r = await sql<{ id: string | number; n: string }>`select t.id, count(*) over () as n
    from (select t.* from ${sql.table(def.table)} as t where ${and(plan.conds)} limit ${SMALL_MATCH + 1}) as t
    order by ${plan.order} limit ${page.limit} offset ${page.offset}`.execute(db)
  if (!r.rows.length) return page.offset === 0 ? { count: 0, rows: [] } : undefined
  const count = Number(r.rows[0]!.n)
  if (count > SMALL_MATCH) return undefined
  return { count, rows: await fetchRows(db, def, fields, [idsCond(def, r.rows.map((x) => x.id))], { order: plan.order }) }
}

async function updateOne(def: ResourceDef, req: FastifyRequest, existing: Row, body: unknown, partial: boolean): Promise<Row> {
  const action: Action = partial ? 'partial_update' : 'update'
  const fields = await resolveFields(def, req.ctx, action)
  const r = await prepareWrite(req.ctx.db, def, fields, body, req.ctx, { op: 'update', partial, existing, req })
  if (r.errors) throw validationError(r.errors)
  const [out] = await commitWrites(req, def, fields, [{ prepared: r.prepared!, existing }], { op: 'update', partial }, fields)
  return out!
}

async function exportAnswer(def: ResourceDef, req: FastifyRequest, reply: FastifyReply, format: 'csv' | 'xlsx'): Promise<FastifyReply> {
  const ctx = req.ctx
  const q = (req.query ?? {}) as Query
  const template = templateOf(q)
  const action: Action = template === 'import' ? 'create' : template === 'update' ? 'update' : 'list'
  const columns = fileColumns(def, await resolveFields(def, ctx, action), template)
  const plan = await planList(ctx.db, def, req)
  const limit = template === 'import' ? 1 : EXPORT_LIMIT
  const readable = columns.filter((f) => !f.write_only)
  const rows = await fetchRows(ctx.db, def, readable, plan.conds, { order: plan.order, limit })
  const objects = await serializeRows(def, rows, readable, { db: ctx.db, ctx })
  return sendFile(reply, req, def, columns, objects, format)
}

/** Bulk delete guard (contract §4.9). */
async function bulkDeleteAllowed(def: ResourceDef, req: FastifyRequest, plan: ListPlan, matched: number): Promise<boolean> {
  const guard = def.bulkDelete ?? (def.orgScoped ? 'org' : 'ids')
  if (guard === 'never' || matched === 0) return false
  if (guard === 'ids') return plan.hasSpm || plan.hasIds
  if (guard === 'org' && (matched === 1 || plan.hasSpm)) return true
  return plan.filtered && matched < (await countRows(req.ctx.db, def, plan.scope))
}

function paths(path: string): string[] {
  return path.endsWith('/') ? [path, path.slice(0, -1)] : [path, `${path}/`]
}

/** Registers every route of a resource. */
export async function registerResource(app: FastifyInstance, def: ResourceDef): Promise<ResourceApi> {
  defineResource(def)
  const api = resourceApi(def)
  const list = def.path
  const detail = `${def.path}:id/`
  const route = (method: HTTPMethods | HTTPMethods[], url: string, handler: (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>) => {
    for (const u of paths(url)) app.route({ method, url: u, handler })
  }
  const idOf = (req: FastifyRequest) => (req.params as { id: string }).id
  // A resource whose writes need a fresh confirmation (secretGuard): the console asks this before it retries a
  // refused save, so the confirmation dialog knows what to confirm (200 once confirmed; else the confirm answer).
  if (def.secretGuard) {
    route('GET', `${list}confirm-check/`, async (req) => {
      requireUser(req)
      await secretGuard(req, def)
      return {}
    })
  }
  const refuse = (req: FastifyRequest, verb?: Verb) => {
    requireUser(req)
    const refusal = verb && def.refusals?.[verb]
    if (refusal) throw new ApiError(400, { detail: tr(req.ctx.lang, refusal) })
    throw new ApiError(405, { detail: tr(req.ctx.lang, 'Method "{method}" not allowed.', { method: req.method }), code: 'method_not_allowed' })
  }

  route('OPTIONS', list, async (req) => {
    requireUser(req)
    const methods: MetaMethod[] = []
    if (allows(def, 'create') || def.actions?.some((a) => a.createForm && !a.detail)) methods.push('POST')
    if (allows(def, 'list')) methods.push('GET')
    if (allows(def, 'bulk_update')) methods.push('PUT', 'PATCH')
    return metadata(def, req.ctx, methods, false, { query: req.query as Record<string, unknown> })
  })
  route('OPTIONS', detail, async (req) => {
    requireUser(req)
    const methods: MetaMethod[] = []
    if (allows(def, 'retrieve')) methods.push('GET')
    let object: Row | undefined // the stored row: fields that depend on another's value read it here
    if (allows(def, 'update')) {
      object = await api.getObject(req, idOf(req)).catch(() => undefined)
      if (object) methods.push('PUT')
      methods.push('PATCH')
    }
    return metadata(def, req.ctx, methods, true, { query: req.query as Record<string, unknown>, object })
  })

  route('GET', list, async (req, reply) => {
    const q = (req.query ?? {}) as Query
    const format = qstr(q, 'format')
    if (format === 'csv' || format === 'xlsx') {
      if (!allows(def, 'export')) return refuse(req)
      await checkPerm(req, def, 'view')
      // Exports of sensitive resources need a recent confirmation (contract §4.16). A caller may also ask for a
      // stricter export with `confirm=relogin|password|mfa` (never a weaker one).
      const asked = qstr(q, 'confirm')
      const level = asked === 'relogin' || asked === 'password' || asked === 'mfa' ? asked : def.exportConfirm
      if (level) await requireConfirm(req, level)
      return exportAnswer(def, req, reply, format)
    }
    if (!allows(def, 'list')) return refuse(req)
    await checkPerm(req, def, 'view')
    return listAnswer(def, req)
  })

  route('POST', list, async (req, reply) => {
    if (!allows(def, 'create')) return refuse(req, 'create')
    await checkPerm(req, def, 'add')
    await secretGuard(req, def)
    if (def.hooks?.create) return def.hooks.create(req, reply, api)
    const ctx = req.ctx
    const body = req.body
    const many = Array.isArray(body)
    const fields = await resolveFields(def, ctx, many ? 'bulk_create' : 'create')
    let prepared
    if (many) prepared = await prepareMany(ctx.db, def, fields, body, ctx, () => ({ op: 'create', partial: false, req }))
    else {
      const r = await prepareWrite(ctx.db, def, fields, body ?? {}, ctx, { op: 'create', partial: false, req })
      if (r.errors) throw validationError(r.errors)
      prepared = [r.prepared!]
    }
    const out = await commitWrites(req, def, fields, prepared.map((p) => ({ prepared: p })), { op: 'create', partial: false }, fields)
    return reply.status(201).send(many ? out : out[0])
  })

  route(['PUT', 'PATCH'], list, async (req) => {
    if (!allows(def, 'bulk_update')) return refuse(req)
    await checkPerm(req, def, 'change')
    await secretGuard(req, def)
    const ctx = req.ctx
    const partial = req.method === 'PATCH'
    const body = req.body
    if (!Array.isArray(body)) {
      throw validationError({ non_field_errors: [tr(ctx.lang, 'Expected a list of items but got type "{type}".', { type: body && typeof body === 'object' ? 'dict' : typeof body })] })
    }
    const fields = await resolveFields(def, ctx, partial ? 'partial_bulk_update' : 'bulk_update')
    const wanted = body.map((item) => (item && typeof item === 'object' ? refId(item) : undefined))
    const ids = cleanIds(def, wanted.filter((x) => x !== undefined))
    const found = ids.length ? await fetchRows(ctx.db, def, [], [...scopeConds(def, ctx), idsCond(def, ids)]) : []
    const byId = new Map(found.map((r) => [String(r.id), r]))
    const existing = wanted.map((w) => (w === undefined ? undefined : byId.get(String(cleanIds(def, [w])[0]))))
    const missing = body.map((_, i) => {
      if (wanted[i] === undefined) return { id: [tr(ctx.lang, 'This field is required.')] }
      if (!existing[i]) return { id: [tr(ctx.lang, 'Invalid pk "{pk}" - object does not exist.', { pk: String(wanted[i]) })] }
      return undefined
    })
    const prepared = await prepareMany(ctx.db, def, fields, body, ctx, (i) => ({ op: 'update', partial, existing: existing[i], req }), missing)
    return commitWrites(req, def, fields, prepared.map((p, i) => ({ prepared: p, existing: existing[i] })), { op: 'update', partial }, fields)
  })

  route('DELETE', list, async (req, reply) => {
    if (!allows(def, 'bulk_destroy')) return refuse(req)
    await checkPerm(req, def, 'delete')
    const plan = await planList(req.ctx.db, def, req)
    const rows = await fetchRows(req.ctx.db, def, [], plan.conds, { order: plan.order })
    if (!(await bulkDeleteAllowed(def, req, plan, rows.length))) return reply.status(400).send('')
    await deleteRows(req, def, rows)
    return reply.status(204).send()
  })

  // The upload is refused before its body is read unless the user may import (add or change) at all.
  const importGate = async (req: FastifyRequest) => {
    if (!allows(def, 'import')) return refuse(req)
    await checkPerm(req, def, 'import_add').catch(() => checkPerm(req, def, 'import_change'))
  }
  for (const u of paths(`${list}render-to-json/`)) app.route({ method: 'POST', url: u, onRequest: importGate, handler: async (req) => {
    const fields = await resolveFields(def, req.ctx, 'create')
    const updateFields = await resolveFields(def, req.ctx, 'update')
    const all = [...fields, ...updateFields.filter((f) => !fields.includes(f)), fieldByName(def, 'id')].filter((f): f is FieldDef => !!f)
    const result = await renderToJson(req.body, String(req.headers['content-type'] ?? ''), all, req.ctx)
    const isUpdate = result.title.some(([, name]) => name === 'id')
    await checkPerm(req, def, isUpdate ? 'import_change' : 'import_add')
    return result
  } })

  // Special actions come before the detail routes' parameter in the router (static segments win).
  for (const a of def.actions ?? []) {
    const url = a.detail ? `${def.path}:id/${a.path}/` : `${def.path}${a.path}/`
    route(a.method, url, async (req, reply) => {
      if (a.perm === null) requireUser(req)
      else await requirePerm(req, a.perm, a.systemPerm ? ORG_IDS.ROOT : permOrg(def, req.ctx))
      return a.handler(req, reply, api, a.detail ? idOf(req) : undefined)
    })
  }

  route('GET', detail, async (req) => {
    if (!allows(def, 'retrieve')) return refuse(req)
    await checkPerm(req, def, 'view')
    const row = await api.getObject(req, idOf(req))
    const custom = await def.hooks?.retrieve?.(req, row)
    if (custom !== undefined) return custom
    const fields = narrow(def, await resolveFields(def, req.ctx, 'retrieve'), (req.query ?? {}) as Query)
    const [out] = await api.serialize(req, [row], { action: 'retrieve', only: fields.map((f) => f.name) })
    return out
  })
  route(['PUT', 'PATCH'], detail, async (req) => {
    if (!allows(def, 'update')) return refuse(req)
    await checkPerm(req, def, 'change')
    await secretGuard(req, def)
    const existing = await api.getObject(req, idOf(req))
    return updateOne(def, req, existing, req.body ?? {}, req.method === 'PATCH')
  })
  route('DELETE', detail, async (req, reply) => {
    if (!allows(def, 'destroy')) return refuse(req)
    await checkPerm(req, def, 'delete')
    const row = await api.getObject(req, idOf(req))
    await deleteRows(req, def, [row])
    return reply.status(204).send()
  })
  return api
}
