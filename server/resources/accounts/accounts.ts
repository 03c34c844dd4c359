/**
 * Accounts on assets `/api/v1/accounts/accounts/` (contract §5.3): secrets sealed at rest and never serialized,
 * created from a template (its username, type, secret and privilege copied), a version and a history row per
 * secret set. The bulk creation over many assets is `bulk.ts`.
 */
import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import type { Database, DB, RowOf } from '../../db/connection.ts'
import type { Ctx, FieldDef, ResourceDef, WriteInfo } from '../../engine/types.ts'
import type { Values } from '../../http/body.ts'
import { userDisplay } from '../../engine/index.ts'
import { addMessages, tr } from '../../i18n.ts'
import { commentField, createdBy, dateCreated, dateUpdated, idField, isActive, updatedBy } from '../common.ts'
import { accountActions } from './account-actions.ts'
import { openSecret, sealedColumns, sealSecret, secretErrors, secretFields } from './secrets.ts'

addMessages({
  'Account': ['账号', 'アカウント'],
  'Asset': ['资产', '資産'],
  'Su from': ['切换自', '切り替え元'],
  'Version': ['版本', 'バージョン'],
  'Source': ['来源', 'ソース'],
  'Source ID': ['来源 ID', 'ソース ID'],
  'Connectivity': ['连接性', '接続性'],
  'Date verified': ['校验日期', '検証日'],
  'Template': ['模板', 'テンプレート'],
  'Push now': ['立即推送', '今すぐプッシュ'],
  'Params': ['参数', 'パラメータ'],
  'Exist policy': ['账号存在策略', 'アカウント存在ポリシー'],
  'Local': ['数据库', 'ローカル'],
  'Collected': ['收集', '収集'],
  'Skip': ['跳过', 'スキップ'],
  'Update': ['更新', '更新'],
  'Failed': ['失败', '失敗'],
  'Unknown': ['未知', '不明'],
  'Ok': ['成功', '成功'],
  'An account with this username already exists on the asset.': ['该资产上已存在此用户名的账号。', 'この資産には同じユーザー名のアカウントが既にあります。'],
  'Su from must be another account of the same asset.': ['切换自必须是同一资产上的其他账号。', '切り替え元は同じ資産の別のアカウントである必要があります。'],
})

export const SOURCES = [{ value: 'local', label: 'Local' }, { value: 'collected', label: 'Collected' }, { value: 'template', label: 'Template' }]
export const CONNECTIVITY = [{ value: '-', label: 'Unknown' }, { value: 'ok', label: 'Ok' }, { value: 'err', label: 'Failed' }]
export const ON_INVALID = [{ value: 'skip', label: 'Skip' }, { value: 'update', label: 'Update' }, { value: 'error', label: 'Failed' }]

const assetField: FieldDef = {
  name: 'asset', type: 'fk', label: 'Asset', required: true,
  relation: { resource: 'assets.asset', attrs: ['id', 'name', 'address'] },
}

/** Fills a create from its template (`template`: id): fields the body does not give come from the template. */
type AccountRow = RowOf<'accounts'>

async function fromTemplate(values: Values, ctx: Ctx): Promise<Record<string, string[]> | undefined> {
  if (!values.template) return undefined
  const tpl = await ctx.db.selectFrom('account_templates').selectAll().where('id', '=', String(values.template)).executeTakeFirst()
  if (!tpl) return { template: [tr(ctx.lang, 'Invalid pk "{pk}" - object does not exist.', { pk: String(values.template) })] }
  const database = ctx.db
  // the template decides the kind of secret and the privilege (the body's values are only the form defaults)
  values.secret_type = tpl.secret_type
  values.privileged = tpl.privileged
  if (values.secret === undefined || values.secret === '' || values.secret === null) {
    values.secret = openSecret(database, 'account_templates', String(tpl.id), 'secret', tpl.secret)
    values.passphrase = openSecret(database, 'account_templates', String(tpl.id), 'passphrase', tpl.passphrase)
  }
  values.source = 'template'
  values.source_id = String(tpl.id)
  return undefined
}

async function validateAccount(values: Values, ctx: Ctx, info: WriteInfo<AccountRow>): Promise<Record<string, unknown> | undefined> {
  const errors: Record<string, unknown> = { ...(await fromTemplate(values, ctx)) }
  if (!values.username && !info.existing) errors.username = [tr(ctx.lang, 'This field is required.')]
  Object.assign(errors, secretErrors(values, ctx, info.existing))
  const assetId = values.asset ?? info.existing?.asset_id
  const username = values.username ?? info.existing?.username
  if (assetId && username && !errors.username) {
    const dup = await ctx.db.selectFrom('accounts').select('id')
      .where('asset_id', '=', String(assetId)).where('username', '=', String(username)).where('id', '<>', String(info.existing?.id ?? randomUUID())).executeTakeFirst()
    if (dup) errors.username = [tr(ctx.lang, 'An account with this username already exists on the asset.')]
  }
  if (values.su_from) {
    const su = await ctx.db.selectFrom('accounts').select('asset_id').where('id', '=', String(values.su_from)).executeTakeFirst()
    if (!su || su.asset_id !== assetId || values.su_from === info.existing?.id) errors.su_from = [tr(ctx.lang, 'Su from must be another account of the same asset.')]
  }
  if (Object.keys(errors).length) return errors
  // name: the username by default, suffixed when the asset already has an account of that name
  if (!info.existing && !values.name && !assetId) values.name = String(username)
  else if (!info.existing && !values.name) {
    const taken = new Set((await ctx.db.selectFrom('accounts').select('name').where('asset_id', '=', String(assetId)).execute()).map((r) => r.name))
    let name = String(username)
    for (let i = 1; taken.has(name); i++) name = `${username}-${i}`
    values.name = name
  }
  return undefined
}

async function accountColumns(values: Values, info: WriteInfo<AccountRow>): Promise<Record<string, unknown>> {
  const out = sealedColumns('accounts', values, info)
  if (values.secret) out.version = Number(info.existing?.version ?? 0) + 1
  if (values.source) { out.source = values.source; out.source_id = values.source_id ?? '' }
  if (values.secret_type && info.existing && values.secret === undefined && values.secret_type !== info.existing.secret_type) out.secret = ''
  return out
}

/** Keeps each secret set as a history row (sealed with its own id). */
async function recordHistory(tx: DB, id: unknown, values: Values, ctx: Ctx, info: WriteInfo<AccountRow>): Promise<void> {
  if (!values.secret) return
  const database = info.req!.server.services.database
  const row = await tx.selectFrom('accounts').select(['version', 'secret_type']).where('id', '=', String(id)).executeTakeFirstOrThrow()
  await addHistory(tx, database, String(id), row.secret_type, String(values.secret), row.version, userDisplay(ctx.user))
}

export async function addHistory(tx: DB, database: Database | DB, accountId: string, secretType: string, secret: string, version: number, by: string): Promise<void> {
  const hid = randomUUID()
  await sql`insert into account_secret_histories (id, account_id, secret_type, secret, version, created_by)
    values (${hid}, ${accountId}, ${secretType}, ${sealSecret(database, 'account_secret_histories', hid, 'secret', secret)}, ${version}, ${by.slice(0, 128)})`.execute(tx)
}

const idList = (v: string) => v.split(',').map((s) => s.trim()).filter((s) => /^[0-9a-f-]{36}$/i.test(s))

export const accounts: ResourceDef<'accounts'> = {
  name: 'accounts.account',
  app: 'accounts',
  model: 'account',
  verboseName: 'Account',
  path: '/api/v1/accounts/accounts/',
  table: 'accounts',
  orgScoped: true,
  fields: [
    idField(),
    { name: 'name', type: 'string', label: 'Name', max_length: 128, allow_blank: true },
    { name: 'username', type: 'string', label: 'Username', required: true, max_length: 128 },
    ...secretFields(),
    { name: 'privileged', type: 'boolean', label: 'Privileged', default: false },
    isActive,
    {
      name: 'su_from', type: 'fk', label: 'Su from', allow_null: true,
      relation: { resource: 'accounts.account', attrs: ['id', 'name', 'username'] },
    },
    assetField,
    { name: 'version', type: 'integer', label: 'Version', read_only: true },
    { name: 'source', type: 'labeled_choice', label: 'Source', read_only: true, choices: SOURCES },
    { name: 'source_id', type: 'string', label: 'Source ID', read_only: true },
    { name: 'connectivity', type: 'labeled_choice', label: 'Connectivity', read_only: true, choices: CONNECTIVITY },
    { name: 'date_verified', type: 'datetime', label: 'Date verified', read_only: true },
    {
      name: 'template', type: 'pk', label: 'Template', write_only: true, column: false, allow_null: true,
      relation: { resource: 'accounts.accounttemplate', attrs: ['id', 'name'] },
    },
    { name: 'push_now', type: 'boolean', label: 'Push now', write_only: true, column: false, default: false },
    { name: 'params', type: 'json', label: 'Params', default: {} },
    { name: 'on_invalid', type: 'labeled_choice', label: 'Exist policy', write_only: true, column: false, choices: ON_INVALID, default: 'error' },
    commentField,
    createdBy,
    updatedBy,
    dateCreated,
    dateUpdated,
  ],
  search: ['name', 'username'],
  filters: [
    'id', 'name', 'username', 'asset', 'secret_type', 'privileged', 'is_active', 'source', 'connectivity',
    { name: 'has_secret', apply: (v) => (v === 'true' || v === '1' ? sql`t.secret <> ''` : v === 'false' || v === '0' ? sql`t.secret = ''` : undefined) },
    { name: 'assets', apply: (v) => { const ids = idList(v); return ids.length ? sql`t.asset_id in (${sql.join(ids)})` : sql`false` } },
    { name: 'address', apply: (v) => sql`t.asset_id in (select a.id from assets a where a.address = ${v})` },
    { name: 'ip', apply: (v) => sql`t.asset_id in (select a.id from assets a where a.address = ${v})` },
    { name: 'hostname', apply: (v) => sql`t.asset_id in (select a.id from assets a where a.name = ${v})` },
    { name: 'platform', apply: (v) => (/^\d+$/.test(v) ? sql`t.asset_id in (select a.id from assets a where a.platform_id = ${Number(v)})` : sql`t.asset_id in (select a.id from assets a join platforms p on p.id = a.platform_id where p.name = ${v})`) },
    { name: 'category', apply: (v) => sql`t.asset_id in (select a.id from assets a where a.category = ${v})` },
    { name: 'type', apply: (v) => sql`t.asset_id in (select a.id from assets a where a.type = ${v})` },
    {
      name: 'node_id', apply: (v) => (/^[0-9a-f-]{36}$/i.test(v)
        ? sql`t.asset_id in (select an.asset_id from asset_nodes an join nodes n on n.id = an.node_id join nodes p on p.id = ${v}
            where n.key = p.key or n.key like p.key || ':%')`
        : sql`false`),
    },
  ],
  // default order = the index (org_id, username, id): the first page of 100,000 accounts reads 15 index entries
  ordering: { fields: ['name', 'username', 'date_created', 'date_updated', 'privileged', 'connectivity', 'date_verified'], default: ['username'] },
  sizes: { mini: ['id', 'name', 'username'], small: ['id', 'name', 'username', 'asset', 'secret_type', 'privileged'] },
  display: (row) => `${String(row.name)}(${String(row.username)})`,
  hooks: {
    validate: validateAccount,
    columns: (values, _ctx, info) => accountColumns(values, info),
    afterSave: recordHistory,
  },
  actions: accountActions,
}
