/**
 * `POST /api/v1/accounts/accounts/bulk/` (contract §5.3): one account on many assets. Each asset is its own
 * write (the engine's validation, transaction and operate log), so one refusal does not undo the others; an
 * existing account of that username is skipped, updated or reported as an error (`on_invalid`). The answer is the
 * per-asset result table `[{asset, state created|updated|skipped|error, error, changed}]`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import { resourceApi } from '../../engine/index.ts'
import { resolveFields } from '../../engine/fields.ts'
import { commitWrites, prepareWrite } from '../../engine/write.ts'
import { requirePerm } from '../../http/context.ts'
import { ApiError, validationError } from '../../http/errors.ts'
import { addMessages, tr } from '../../i18n.ts'
import { accounts } from './accounts.ts'
import type { RowOf } from '../../db/connection.ts'

const MAX_ASSETS = 1000

/** `{field: [messages]}` → "field: message" lines (what the result table shows). */
function flatten(errors: unknown): string {
  if (!errors || typeof errors !== 'object') return String(errors ?? '')
  return Object.entries(errors as Record<string, unknown>).map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(' ') : flatten(v)}`).join('; ')
}

export function registerBulkAccounts(app: FastifyInstance): void {
  const api = resourceApi(accounts)
  const handler = async (req: FastifyRequest) => {
    await requirePerm(req, 'accounts.add_account')
    const ctx = req.ctx
    const body = req.body as Record<string, unknown> | null
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw validationError({ non_field_errors: [tr(ctx.lang, 'Invalid data. Expected a dictionary, but got {type}.', { type: Array.isArray(body) ? 'list' : typeof body })] })
    const { assets, on_invalid: onInvalidRaw, ...rest } = body
    const onInvalid = onInvalidRaw && typeof onInvalidRaw === 'object' ? (onInvalidRaw as { value?: unknown }).value : onInvalidRaw ?? 'error'
    const errors: Record<string, string[]> = {}
    if (!Array.isArray(assets) || assets.length === 0) errors.assets = [tr(ctx.lang, 'This field is required.')]
    else if (assets.length > MAX_ASSETS) errors.assets = [tr(ctx.lang, 'Ensure this field has no more than {n} elements.', { n: String(MAX_ASSETS) })]
    if (!['skip', 'update', 'error'].includes(String(onInvalid))) errors.on_invalid = [tr(ctx.lang, '"{input}" is not a valid choice.', { input: String(onInvalid) })]
    if (Object.keys(errors).length) throw validationError(errors)
    const createFields = await resolveFields(accounts, ctx, 'create')
    const out: Array<Record<string, unknown>> = []
    for (const raw of assets as unknown[]) {
      const assetId = raw && typeof raw === 'object' ? String((raw as { id?: unknown; pk?: unknown }).id ?? (raw as { pk?: unknown }).pk ?? '') : String(raw)
      const asset = /^[0-9a-f-]{36}$/i.test(assetId)
        ? (await sql<Pick<RowOf<'assets'>, 'id' | 'name' | 'address'>>`select id, name, address from assets where id = ${assetId} ${ctx.orgId === '00000000-0000-0000-0000-000000000000' ? sql`` : sql`and org_id = ${ctx.orgId}`}`.execute(ctx.db)).rows[0]
        : undefined
      if (!asset) {
        out.push({ asset: assetId, state: 'error', error: tr(ctx.lang, 'Invalid pk "{pk}" - object does not exist.', { pk: assetId }), changed: false })
        continue
      }
      const label = `${asset.name}(${asset.address})`
      let username = rest.username
      if (!username && rest.template) username = (await sql<{ username: string }>`select username from account_templates where id = ${String(rest.template)}`.execute(ctx.db).catch(() => ({ rows: [] }))).rows[0]?.username
      const existing = username ? (await sql<{ id: string }>`select id from accounts where asset_id = ${asset.id} and username = ${String(username)}`.execute(ctx.db)).rows[0] : undefined
      try {
        if (existing) {
          if (onInvalid === 'skip') { out.push({ asset: label, state: 'skipped', error: '', changed: false }); continue }
          if (onInvalid === 'error') { out.push({ asset: label, state: 'error', error: tr(ctx.lang, 'An account with this username already exists on the asset.'), changed: false }); continue }
          const { name: _name, template: _tpl, ...changes } = rest
          await api.update(req, String(existing.id), { ...changes, username }, { partial: true })
          out.push({ asset: label, state: 'updated', error: '', changed: true })
          continue
        }
        const r = await prepareWrite(ctx.db, accounts, createFields, { ...rest, ...(username ? { username } : {}), asset: asset.id }, ctx, { op: 'create', partial: false, req })
        if (r.errors) { out.push({ asset: label, state: 'error', error: flatten(r.errors), changed: false }); continue }
        await commitWrites(req, accounts, createFields, [{ prepared: r.prepared! }], { op: 'create', partial: false }, createFields)
        out.push({ asset: label, state: 'created', error: '', changed: true })
      } catch (e) {
        const data = e instanceof ApiError ? e.body : undefined
        out.push({ asset: label, state: 'error', error: data ? flatten(data) : String((e as Error).message), changed: false })
      }
    }
    return out
  }
  app.post('/api/v1/accounts/accounts/bulk/', handler)
  app.post('/api/v1/accounts/accounts/bulk', handler)
}

addMessages({
  'Ensure this field has no more than {n} elements.': ['请确保这个字段不能超过 {n} 个元素。', 'この項目の要素数が {n} 以下であることを確認してください。'],
})
