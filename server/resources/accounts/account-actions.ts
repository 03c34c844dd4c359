/**
 * The account list's special actions that lina 3.2.2 calls (JumpServer 3.2's AccountViewSet):
 * `su-from-accounts` (the accounts an account may switch from), `username-suggestions` (the permission form's
 * account names) and `clear-secret` (forget the secrets of some accounts). docs/accounts.md.
 */
import { sql } from 'kysely'
import type { ActionDef, Cond, Ctx } from '../../engine/types.ts'
import { SECRET_MASK } from '../../engine/audit.ts'
import { resourceApi, resourceByName, userDisplay, withTx } from '../../engine/index.ts'
import { isUuid, normUuid } from '../../engine/parse.ts'
import { validationError } from '../../http/errors.ts'
import { addMessages, tr } from '../../i18n.ts'
import { ORG_IDS } from '../../rbac/catalog.ts'
import type { RowOf } from '../../db/connection.ts'

addMessages({
  '"{value}" is not a valid UUID.': ['“{value}”不是有效的 UUID。', '"{value}" は有効な UUID ではありません。'],
  'Ensure this field has no more than {max} elements.': ['确保此字段的元素不超过 {max} 个。', 'この項目の要素が {max} 個を超えないようにしてください。'],
})

const query = (req: { query?: unknown }) => (req.query ?? {}) as Record<string, string | string[] | undefined>
const last = (v: string | string[] | undefined) => (Array.isArray(v) ? v[v.length - 1] : v)?.replaceAll('\u0000', '') ?? ''

/** A comma list of UUIDs, or the field error naming the first that is not one. */
function uuidList(field: string, raw: string, ctx: Ctx): string[] {
  const items = raw.split(',').map((s) => s.trim()).filter(Boolean)
  const bad = items.find((x) => !isUuid(x))
  if (bad !== undefined) throw validationError({ [field]: [tr(ctx.lang, '"{value}" is not a valid UUID.', { value: bad })] })
  return [...new Set(items.map(normUuid))]
}

const orgCond = (ctx: Ctx, alias: string): Cond => (ctx.orgId === ORG_IDS.ROOT ? sql`true` : sql`${sql.ref(`${alias}.org_id`)} = ${ctx.orgId}`)

/**
 * `GET …/su-from-accounts/?account=<id>` — the other accounts of the account's asset, except those that switch
 * from it (JumpServer's `Account.get_su_from_accounts`); `?asset=<id>` — every account of the asset; neither — none.
 * A plain array, filtered, searched and ordered as the list is (its other parameters apply), never a secret.
 */
const suFromAccounts: ActionDef = {
  path: 'su-from-accounts', detail: false, method: 'GET', perm: 'accounts.view_account',
  async handler(req, _reply, api) {
    const q = query(req)
    const accountId = last(q.account)
    const assetId = last(q.asset)
    let extra: Cond
    if (accountId) {
      const account = await api.getObject(req, accountId)
      extra = sql`t.asset_id = ${account.asset_id} and t.id <> ${account.id} and t.su_from_id is distinct from ${account.id}`
    } else if (assetId) {
      const asset = await resourceApi(resourceByName('assets.asset')).getObject(req, assetId)
      extra = sql`t.asset_id = ${asset.id}`
    } else {
      return []
    }
    return api.listResponse(req, { extra, bare: true })
  },
}

const COMMON_USERNAMES = ['root', 'admin', 'administrator']

/**
 * `GET …/username-suggestions/?assets=<ids,>&keys=<node keys,>&username=<part>` (any signed-in user): up to ten
 * distinct usernames of the current organization's accounts on those assets (and on the assets under those
 * nodes), containing `username`; sorted, root/admin/administrator first. JumpServer 3.2.2 builds its node
 * pattern from the whole key list (a bug that matches nothing useful); the keys here select each node's subtree.
 */
const usernameSuggestions: ActionDef = {
  path: 'username-suggestions', detail: false, method: 'GET', perm: null,
  async handler(req) {
    const q = query(req)
    const ctx = req.ctx
    const conds: Cond[] = [orgCond(ctx, 't')]
    const assetsRaw = last(q.assets)
    if (assetsRaw) {
      const ids = uuidList('assets', assetsRaw, ctx)
      conds.push(ids.length ? sql`t.asset_id = any(${ids}::uuid[])` : sql`false`)
    }
    const keysRaw = last(q.keys)
    if (keysRaw) {
      // A node key is `<n>(:<n>)*`; anything else names no node. The links carry their node's path (`key:`).
      const keys = keysRaw.split(',').map((s) => s.trim()).filter((k) => /^\d+(:\d+)*$/.test(k))
      conds.push(keys.length
        ? sql`t.asset_id in (select an.asset_id from asset_nodes an where ${sql.join(keys.map((k) => sql`an.node_path like ${`${k}:%`}`), sql` or `)})`
        : sql`false`)
    }
    const username = last(q.username)
    if (username) conds.push(sql`t.username ilike ${`%${username.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`)
    const rows = await sql<{ username: string }>`select distinct t.username from accounts t
      where ${sql.join(conds, sql` and `)} order by t.username limit 10`.execute(ctx.db)
    const names = rows.rows.map((r) => r.username).sort()
    const common = names.filter((n) => COMMON_USERNAMES.includes(n.toLowerCase()))
    return [...common, ...names.filter((n) => !common.includes(n))]
  },
}

/**
 * `PATCH …/clear-secret/ {account_ids: [...]}` (accounts.change_account): the secrets of those accounts of the
 * current organization are cleared in one transaction — stored empty as the accounts module stores an empty
 * secret (`sealSecret` of '' is ''), no new version and no history row (JumpServer's queryset update) — with an
 * operate log each (the secret masked). Unknown ids and other organizations' accounts are left alone, as
 * JumpServer's org-scoped update does. Answers 200 with no body.
 */
const clearSecret: ActionDef = {
  path: 'clear-secret', detail: false, method: 'PATCH', perm: 'accounts.change_account',
  async handler(req, reply, api) {
    const ctx = req.ctx
    const body = req.body ?? {}
    if (typeof body !== 'object' || Array.isArray(body)) {
      throw validationError({ non_field_errors: [tr(ctx.lang, 'Invalid data. Expected a dictionary, but got {type}.', { type: Array.isArray(body) ? 'list' : typeof body })] })
    }
    const raw = (body as { account_ids?: unknown }).account_ids ?? []
    if (!Array.isArray(raw)) throw validationError({ account_ids: [tr(ctx.lang, 'Expected a list of items but got type "{type}".', { type: typeof raw === 'string' ? 'str' : typeof raw })] })
    if (raw.length > 10_000) throw validationError({ account_ids: [tr(ctx.lang, 'Ensure this field has no more than {max} elements.', { max: 10_000 })] })
    const bad = raw.find((x) => !isUuid(x))
    if (bad !== undefined) throw validationError({ account_ids: [tr(ctx.lang, '"{value}" is not a valid UUID.', { value: String(bad) })] })
    const ids = [...new Set((raw as string[]).map(normUuid))]
    if (ids.length) {
      await withTx(ctx.db, api.def, async (tx) => {
        const cleared = await sql<RowOf<'accounts'>>`update accounts t set secret = '', date_updated = now(), updated_by = ${userDisplay(ctx.user).slice(0, 128)}
          where t.id = any(${ids}::uuid[]) and ${orgCond(ctx, 't')} and t.secret <> '' returning t.*`.execute(tx)
        for (const row of cleared.rows) await api.audit(tx, req, 'update', row, [{ field: 'Secret', before: SECRET_MASK, after: '' }])
      }, ctx.lang)
    }
    return reply.status(200).send()
  },
}

export const accountActions: ActionDef[] = [suFromAccounts, usernameSuggestions, clearSecret]
