/**
 * Accounts given with a new asset (JumpServer 3.2's `AssetSerializer.accounts`, lina's "Accounts" section of the
 * asset form): `accounts: [{name, username, secret_type, secret, passphrase, privileged, push_now} | {template, …}]`
 * on `POST /api/v1/assets/<kind>/`. Each row is validated as the accounts resource validates a create (template
 * copied, key checked, secrets sealed), before the asset's transaction; a bad row answers 400
 * `{accounts: [{}, {username: [...]}]}` aligned with the rows and nothing is written. The accounts are saved in
 * the asset's transaction with their history and operate logs; `push_now` queues the push after the commit.
 * Write-only: an asset's answer never carries its accounts or their secrets.
 */
import type { FastifyRequest } from 'fastify'
import { userDisplay } from '../../engine/audit.ts'
import { resolveFields } from '../../engine/fields.ts'
import { prepareWrite, saveAudited, type Prepared } from '../../engine/write.ts'
import type { Ctx, FieldDef } from '../../engine/types.ts'
import type { Values } from '../../http/body.ts'
import { addMessages, tr } from '../../i18n.ts'
import { taskRunner } from '../../tasks/service.ts'
import { accounts } from './accounts.ts'
import { ACCOUNT_TASK } from './run.ts'

addMessages({
  'Accounts created with the asset: typed in, or copied from an account template.': ['随资产一起创建的账号：手动填写，或从账号模板复制。', '資産と一緒に作成するアカウント：入力するか、アカウントテンプレートからコピーします。'],
})

const ROW_FIELDS = ['template', 'name', 'username', 'secret_type', 'secret', 'passphrase', 'privileged', 'push_now']

const byName = (name: string) => accounts.fields.find((f) => f.name === name)!

/** The `accounts` field of every asset kind (create only). */
export const assetAccountsField: FieldDef = {
  name: 'accounts', type: 'nested_many', label: 'Accounts', write_only: true, column: false, required: false, default: () => [],
  help_text: 'Accounts created with the asset: typed in, or copied from an account template.',
  // a row from a template names no username: the template's is taken (checked per row below)
  children: ROW_FIELDS.map((n) => (n === 'username' ? { ...byName(n), required: false } : byName(n))),
  // only for those who may add accounts (the console then shows no Accounts section to the others)
  visible: async (ctx, action) => (action === 'create' || action === 'bulk_create') && (await ctx.perms()).has('accounts.add_account'),
}

/** A prepared account of a new asset (its asset set when the asset is saved). */
type PreparedAccount = Prepared & { pushNow: boolean }

const MARK = Symbol('prepared accounts')

/**
 * Validates the rows (the asset's validate hook): on success `values.accounts` holds the prepared writes; on
 * failure the errors aligned with the rows (`{}` for good ones).
 */
export async function prepareAssetAccounts(values: Values, ctx: Ctx, assetBody: unknown): Promise<unknown[] | undefined> {
  const rows = values.accounts
  if (!Array.isArray(rows) || !rows.length) {
    delete values.accounts
    return undefined
  }
  const fields = (await resolveFields(accounts, ctx, 'create')).filter((f) => f.name !== 'asset')
  const errors: Array<Record<string, unknown>> = []
  const prepared: PreparedAccount[] = []
  const usernames = new Map<string, number>()
  const names = new Set<string>()
  // in the root organization the asset's own `org_id` names where its accounts go
  const orgId = (assetBody && typeof assetBody === 'object' ? (assetBody as { org_id?: unknown }).org_id : undefined)
  // a template's secret is copied only for those who may see account templates (lina disables "from template" otherwise)
  const templatesAllowed = (await ctx.perms()).has('accounts.view_accounttemplate')
  for (const raw of rows as Values[]) {
    const body: Values = { ...raw, ...(orgId ? { org_id: orgId } : {}) }
    if (body.template && !templatesAllowed) {
      errors.push({ template: [tr(ctx.lang, 'You do not have permission to perform this action.')] })
      continue
    }
    // a template row takes the template's username (and its name) when none is typed
    if (body.template && (!body.username || !body.name)) {
      const tpl = await ctx.db.selectFrom('account_templates').select(['username', 'name']).where('id', '=', String(body.template)).executeTakeFirst()
      if (tpl) {
        body.username ||= tpl.username
        body.name ||= tpl.name
      }
    }
    const r = await prepareWrite(ctx.db, accounts, fields, body, ctx, { op: 'create', partial: false })
    const e: Record<string, unknown> = { ...(r.errors ?? {}) }
    if (r.prepared) {
      const v = r.prepared.values
      const key = `${String(v.username)}`
      if (usernames.has(key)) e.username = [tr(ctx.lang, 'An account with this username already exists on the asset.')]
      usernames.set(key, prepared.length)
      // names stay unique on the asset: a repeated one gets a suffix (as the accounts resource names a new one)
      let name = String(v.name || v.username)
      for (let i = 1; names.has(name); i++) name = `${String(v.username)}-${i}`
      names.add(name)
      v.name = name
      prepared.push({ ...r.prepared, pushNow: v.push_now === true })
    }
    errors.push(e)
  }
  if (errors.some((e) => Object.keys(e).length)) return errors
  values.accounts = Object.assign(prepared, { [MARK]: true })
  return undefined
}

/** Saves the prepared accounts of a new asset inside its transaction (the asset's afterSave hook); answers the ids to push. */
export async function saveAssetAccounts(tx: Parameters<typeof saveAudited>[0], assetId: unknown, orgId: string, values: Values, req: FastifyRequest | undefined): Promise<string[]> {
  const list = values.accounts as (PreparedAccount[] & { [MARK]?: true }) | undefined
  if (!req || !Array.isArray(list) || !list[MARK]) return []
  const fields = (await resolveFields(accounts, req.ctx, 'create'))
  const push: string[] = []
  for (const p of list) {
    const id = await saveAudited(tx, req, accounts, fields, { ...p, orgId, values: { ...p.values, asset: assetId } }, { op: 'create', partial: false })
    if (p.pushNow) push.push(String(id))
  }
  return push
}

/** After the commit: the accounts marked "push now" go to their host (the accounts module's push task). */
export async function pushAssetAccounts(ids: string[], req: FastifyRequest | undefined): Promise<void> {
  const runner = req && taskRunner(req.server)
  if (!ids.length || !runner) return
  const ctx = req.ctx
  await runner.enqueue(ACCOUNT_TASK, { kwargs: { action: 'push', accounts: ids }, creatorId: ctx.user?.id, creator: userDisplay(ctx.user), lang: ctx.lang })
}
