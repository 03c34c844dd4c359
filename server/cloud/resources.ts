/**
 * Cloud sync resources and routes under `/api/v1/xpack/cloud/` (contract §5.11, tickets-ops-cloud-terminal §3):
 * accounts (CRUD, test-connective, regions), sync instance tasks (CRUD, run, history, instances, released
 * assets). docs/cloud.md.
 */
import { randomUUID } from 'node:crypto'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import type { DB, RowOf } from '../db/connection.ts'
import { resourceApi, userDisplay } from '../engine/index.ts'
import type { Ctx, FieldDef, ResourceDef, WriteInfo } from '../engine/types.ts'
import { jsonObject, refId, type Values } from '../http/body.ts'
import { requirePerm, requireUser } from '../http/context.ts'
import { ApiError, validationError } from '../http/errors.ts'
import { addMessages, tr } from '../i18n.ts'
import { openSecret, sealSecret } from '../resources/accounts/secrets.ts'
import { taskRunner } from '../tasks/service.ts'
import { nextRun, parseCron } from '../tasks/schedule.ts'
import { commentField, createdBy, dateCreated, dateUpdated, idField, nameField, updatedBy } from '../resources/common.ts'
import { PROVIDER_CHOICES, PROVIDERS, ProviderRefusal } from './providers.ts'
import { deleteAssets, providerContext, STATUS, SYNC_TASK } from './sync.ts'

addMessages({
  'Cloud account': ['云账号', 'クラウドアカウント'],
  'Sync instance task': ['同步实例任务', 'インスタンス同期タスク'],
  'Provider': ['云服务商', 'プロバイダー'],
  'Attrs': ['属性', '属性'],
  'Validity': ['有效', '有効'],
  'Account': ['账号', 'アカウント'],
  'Regions': ['地域', 'リージョン'],
  'Node': ['节点', 'ノード'],
  'Hostname strategy': ['主机名策略', 'ホスト名の方針'],
  'Instance name': ['实例名称', 'インスタンス名'],
  'IP': ['IP', 'IP'],
  'Protocols': ['协议组', 'プロトコル'],
  'IP network segment group': ['IP网段组', 'IP ネットワークセグメントグループ'],
  'Sync IP type': ['同步IP类型', '同期する IP の種類'],
  'Private IP': ['私有IP', 'プライベート IP'],
  'Public IP': ['公网IP', 'パブリック IP'],
  'Always update': ['总是更新', '常に更新'],
  'Release assets': ['释放资产', '資産を解放'],
  'Delete the assets of instances no longer found at each sync (otherwise they are marked released).': [
    '每次同步时删除已找不到的实例的资产（否则仅标记为已释放）。', '同期のたびに、見つからなくなったインスタンスの資産を削除します (そうでなければ解放済みとして印を付けます)。'],
  'Last sync': ['最后同步日期', '最終同期'],
  'Periodic': ['定时执行', '定期実行'],
  'Interval': ['周期', '間隔'],
  'Unit: hour': ['单位：时', '単位: 時間'],
  'Crontab': ['Crontab', 'Crontab'],
  'This server cannot sync this provider yet.': ['本服务器暂不支持同步该云服务商。', 'このサーバーはまだこのプロバイダーを同期できません。'],
  'Not an IPv4 address, range or CIDR: {value}': ['不是 IPv4 地址、范围或 CIDR：{value}', 'IPv4 アドレス、範囲、CIDR のいずれでもありません: {value}'],
  'Outside the networks an administrator allows to scan: {value}': ['超出管理员允许扫描的网络：{value}', '管理者がスキャンを許可したネットワークの外です: {value}'],
  'At most {n} addresses per scan.': ['每次扫描最多 {n} 个地址。', '1 回のスキャンは最大 {n} アドレスです。'],
  'Invalid crontab: five fields, e.g. 0 3 * * *': ['crontab 无效：需要五个字段，例如 0 3 * * *', 'crontab が無効です: 5 つのフィールド (例: 0 3 * * *)'],
  'A periodic run needs a crontab or an interval.': ['定时执行需要 crontab 或周期。', '定期実行には crontab または間隔が必要です。'],
  'A region of this task is not one of the account\'s.': ['该任务的地域不属于该账号。', 'このタスクのリージョンはアカウントのものではありません。'],
  'Test successful': ['测试成功', 'テスト成功'],
  'LAN': ['局域网', 'LAN'],
  'Port': ['端口', 'ポート'],
  'Username': ['用户名', 'ユーザー名'],
  'Password': ['密码', 'パスワード'],
})

const SECRET_ATTRS = new Set(['password', 'access_key_secret', 'client_secret', 'secret_key', 'service_account_key', 'api_key', 'sc_password', 'cert'])

const refusalText = (e: ProviderRefusal, ctx: Ctx) => tr(ctx.lang, e.message, e.params)

async function providerErrors(values: Values, ctx: Ctx, info: WriteInfo<RowOf<'cloud_accounts'>>): Promise<Record<string, unknown> | undefined> {
  const provider = String(values.provider ?? info.existing?.provider ?? '')
  const p = PROVIDERS[provider]
  if (!p) return { provider: [tr(ctx.lang, 'This server cannot sync this provider yet.')] }
  const attrs = { ...(jsonObject(info.existing?.attrs) ?? {}), ...(jsonObject(values.attrs) ?? {}) }
  try {
    p.validate?.({ attrs, secrets: {}, allowedNetworks: await (await import('./sync.ts')).allowedNetworks(ctx.db), log: async () => undefined })
  } catch (e) {
    if (e instanceof ProviderRefusal) return { attrs: { [e.field]: [refusalText(e, ctx)] } }
    throw e
  }
  return undefined
}

/** The secret attributes go into one sealed column; the rest stays readable. A blank secret keeps the stored one. */
function splitAttrs(values: Values, info: WriteInfo<RowOf<'cloud_accounts'>>): Record<string, unknown> {
  if (values.attrs === undefined) return {}
  const database = info.req!.server.services.database
  const id = info.existing ? String(info.existing.id) : randomUUID()
  const given = jsonObject(values.attrs) ?? {}
  const plain: Record<string, unknown> = {}
  const stored = info.existing ? JSON.parse(openSecret(database, 'cloud_accounts', id, 'secret_attrs', info.existing.secret_attrs) || '{}') as Record<string, string> : {}
  const secrets: Record<string, string> = { ...stored }
  for (const [k, v] of Object.entries(given)) {
    if (SECRET_ATTRS.has(k)) { if (v !== '' && v !== null && v !== undefined) secrets[k] = String(v) } else plain[k] = v
  }
  const out: Record<string, unknown> = { attrs: JSON.stringify(plain), secret_attrs: sealSecret(database, 'cloud_accounts', id, 'secret_attrs', Object.keys(secrets).length ? JSON.stringify(secrets) : '') }
  if (!info.existing) out.id = id
  return out
}

export const cloudAccounts: ResourceDef<'cloud_accounts'> = {
  name: 'xpack.account',
  app: 'xpack',
  model: 'account',
  verboseName: 'Cloud account',
  path: '/api/v1/xpack/cloud/accounts/',
  table: 'cloud_accounts',
  orgScoped: true,
  fields: [
    idField(), nameField(),
    { name: 'provider', type: 'labeled_choice', label: 'Provider', choices: PROVIDER_CHOICES, default: 'lan' },
    // the scan provider's settings; the default scans loopback's SSH port (inside the default allowed networks)
    { name: 'attrs', type: 'json', label: 'Attrs', default: { ip_group: ['127.0.0.1'], port: [22] } },
    { name: 'validity', type: 'boolean', label: 'Validity', read_only: true },
    commentField, createdBy, updatedBy, dateCreated, dateUpdated,
  ],
  search: ['name'],
  filters: ['id', 'name', 'provider'],
  ordering: { fields: ['name', 'provider', 'date_created'], default: ['name'] },
  sizes: { mini: ['id', 'name'] },
  hooks: {
    validate: providerErrors,
    columns: (values, _ctx, info) => splitAttrs(values, info),
  },
}

async function taskErrors(values: Values, ctx: Ctx, info: WriteInfo<RowOf<'cloud_sync_tasks'>>): Promise<Record<string, unknown> | undefined> {
  const errors: Record<string, string[]> = {}
  const crontab = String(values.crontab ?? info.existing?.crontab ?? '')
  if (values.crontab && !parseCron(String(values.crontab))) errors.crontab = [tr(ctx.lang, 'Invalid crontab: five fields, e.g. 0 3 * * *')]
  if (crontab && values.crontab !== undefined) values.interval = null
  const periodic = values.is_periodic ?? info.existing?.is_periodic
  const interval = values.interval !== undefined ? values.interval : info.existing?.interval
  if (periodic && !crontab && !interval) errors.is_periodic = [tr(ctx.lang, 'A periodic run needs a crontab or an interval.')]
  const accountRef = values.account ?? info.existing?.account_id
  const accountId = String(refId(accountRef) ?? '')
  const regions = (values.regions ?? info.existing?.regions ?? []) as string[]
  const account = accountId ? (await sql<{ provider: string; attrs: Record<string, unknown> }>`select provider, attrs from cloud_accounts where id = ${accountId}`.execute(ctx.db)).rows[0] : undefined
  if (account && values.regions !== undefined) {
    const p = PROVIDERS[account.provider]
    try {
      p?.validate?.({ attrs: { ...account.attrs, ip_group: regions }, secrets: {}, allowedNetworks: await (await import('./sync.ts')).allowedNetworks(ctx.db), log: async () => undefined })
    } catch (e) {
      if (!(e instanceof ProviderRefusal)) throw e
      errors.regions = [refusalText(e, ctx)]
    }
  }
  return Object.keys(errors).length ? errors : undefined
}

async function syncSchedule(tx: DB, id: string, tz: string): Promise<void> {
  const t = (await sql<{ is_periodic: boolean; crontab: string; interval: number | null }>`select is_periodic, crontab, "interval" from cloud_sync_tasks where id = ${id}`.execute(tx)).rows[0]
  const name = `${SYNC_TASK}:${id}`
  if (!t) { await sql`delete from celery_tasks where name = ${name}`.execute(tx); return }
  const s = { crontab: t.crontab, interval: t.crontab ? null : t.interval, enabled: t.is_periodic }
  const next = s.enabled ? nextRun(s, new Date(), tz) : null
  await sql`insert into celery_tasks (id, name, crontab, "interval", enabled, next_run_at) values (${randomUUID()}, ${name}, ${s.crontab}, ${s.interval}, ${s.enabled}, ${next})
    on conflict (name) do update set crontab = excluded.crontab, "interval" = excluded."interval", enabled = excluded.enabled, next_run_at = excluded.next_run_at`.execute(tx)
}

const periodicDisplay = (row: { is_periodic?: unknown; crontab?: unknown; interval?: unknown }, ctx: Ctx) => {
  if (!row.is_periodic) return tr(ctx.lang, 'Not periodic')
  if (row.crontab) return tr(ctx.lang, 'Run at {cron}', { cron: String(row.crontab) })
  return tr(ctx.lang, 'Every {n} hours', { n: String(row.interval ?? 24) })
}

const strList = (name: string, label: string, extra: Partial<FieldDef> = {}): FieldDef =>
  ({ name, type: 'list', label, default: [], child: { name, type: 'string', max_length: 256 }, ...extra })

export const syncInstanceTasks: ResourceDef<'cloud_sync_tasks'> = {
  name: 'xpack.syncinstancetask',
  app: 'xpack',
  model: 'syncinstancetask',
  verboseName: 'Sync instance task',
  path: '/api/v1/xpack/cloud/sync-instance-tasks/',
  table: 'cloud_sync_tasks',
  orgScoped: true,
  fields: [
    idField(), nameField(),
    { name: 'account', type: 'fk', label: 'Account', required: true, relation: { resource: 'xpack.account', attrs: ['id', 'name'] } },
    strList('regions', 'Regions', { required: true }),
    { name: 'node', type: 'fk', label: 'Node', required: true, relation: { resource: 'assets.node', attrs: ['id', 'name'] } },
    { name: 'hostname_strategy', type: 'labeled_choice', label: 'Hostname strategy', default: 'instance_name', choices: [{ value: 'instance_name', label: 'Instance name' }, { value: 'ip', label: 'IP' }] },
    { name: 'protocols', type: 'json', label: 'Protocols', default: [] },
    strList('ip_network_segment_group', 'IP network segment group', { default: ['*'] }),
    { name: 'sync_ip_type', type: 'labeled_choice', label: 'Sync IP type', default: 0, choices: [{ value: 0, label: 'Private IP' }, { value: 1, label: 'Public IP' }] },
    { name: 'is_always_update', type: 'boolean', label: 'Always update', default: true },
    { name: 'release_assets', type: 'boolean', label: 'Release assets', default: false, help_text: 'Delete the assets of instances no longer found at each sync (otherwise they are marked released).' },
    { name: 'is_periodic', type: 'boolean', label: 'Periodic', default: false },
    { name: 'interval', type: 'integer', label: 'Interval', help_text: 'Unit: hour', min_value: 1, max_value: 65535, allow_null: true, default: 24 },
    { name: 'crontab', type: 'string', label: 'Crontab', max_length: 128, allow_blank: true, default: '' },
    { name: 'date_last_sync', type: 'datetime', label: 'Last sync', read_only: true },
    // lina's task detail card reads these three (SyncInstanceTaskDetail/detail.vue)
    { name: 'account_display', type: 'string', label: 'Account', read_only: true, expr: '(select a.name from cloud_accounts a where a.id = t.account_id)' },
    { name: 'node_display', type: 'string', label: 'Node', read_only: true, expr: '(select n.full_value from nodes n where n.id = t.node_id)' },
    { name: 'periodic_display', type: 'string', label: 'Periodic display', read_only: true, column: false, get: periodicDisplay },
    commentField, createdBy, updatedBy, dateCreated, dateUpdated,
  ],
  search: ['name'],
  filters: ['id', 'name', 'account', 'node'],
  ordering: { fields: ['name', 'date_created', 'date_last_sync'], default: ['name'] },
  sizes: { mini: ['id', 'name'] },
  hooks: {
    validate: taskErrors,
    afterSave: async (tx, id, _values, _ctx, info) => syncSchedule(tx, String(id), info.req!.server.services.config.timeZone),
    destroy: async (tx, row) => {
      await sql`delete from cloud_sync_tasks where id = ${row.id}`.execute(tx)
      await syncSchedule(tx, String(row.id), 'UTC')
    },
  },
}

export const CLOUD_RESOURCES = [cloudAccounts, syncInstanceTasks]

const page = <T>(req: FastifyRequest, rows: T[]) => {
  const q = req.query as { limit?: string; offset?: string }
  if (q.limit === undefined) return rows
  const limit = Math.min(Math.max(Number(q.limit) || 15, 1), 1000)
  const offset = Math.max(Number(q.offset) || 0, 0)
  return { count: rows.length, next: null, previous: null, results: rows.slice(offset, offset + limit) }
}

export function registerCloud(app: FastifyInstance): void {
  const base = '/api/v1/xpack/cloud'
  const accountApi = resourceApi(cloudAccounts)
  const taskApi = resourceApi(syncInstanceTasks)
  const route = (method: 'GET' | 'DELETE', url: string, handler: (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>) => {
    app.route({ method, url, handler })
    app.route({ method, url: url.replace(/\/$/, ''), handler })
  }
  const idOf = (req: FastifyRequest) => (req.params as { id: string }).id

  route('GET', `${base}/accounts/:id/test-connective/`, async (req) => {
    requireUser(req)
    await requirePerm(req, 'xpack.view_account')
    const row = await accountApi.getObject(req, idOf(req))
    const stored = (await sql<{ id: string; provider: string; attrs: unknown; secret_attrs: string }>`select id, provider, attrs, secret_attrs from cloud_accounts where id = ${row.id}`.execute(req.ctx.db)).rows[0]!
    const p = PROVIDERS[stored.provider]
    let ok = false
    let msg = tr(req.ctx.lang, 'This server cannot sync this provider yet.')
    if (p) {
      try {
        ok = await p.test(await providerContext(req.ctx.db, stored, async () => undefined))
        msg = tr(req.ctx.lang, 'Test successful')
      } catch (e) {
        msg = e instanceof ProviderRefusal ? refusalText(e, req.ctx) : String((e as Error).message)
      }
    }
    await sql`update cloud_accounts set validity = ${ok} where id = ${stored.id}`.execute(req.ctx.db)
    if (!ok) throw new ApiError(400, { detail: msg, msg })
    return { msg, validity: ok }
  })

  route('GET', `${base}/regions/`, async (req) => {
    requireUser(req)
    await requirePerm(req, 'xpack.view_account')
    const accountId = String((req.query as { account_id?: string }).account_id ?? '')
    if (!accountId) throw validationError({ account_id: [tr(req.ctx.lang, 'This field is required.')] })
    const row = await accountApi.getObject(req, accountId)
    const stored = (await sql<{ id: string; provider: string; attrs: unknown; secret_attrs: string }>`select id, provider, attrs, secret_attrs from cloud_accounts where id = ${row.id}`.execute(req.ctx.db)).rows[0]!
    const p = PROVIDERS[stored.provider]
    if (!p) throw validationError({ account_id: [tr(req.ctx.lang, 'This server cannot sync this provider yet.')] })
    return { regions: await p.regions(await providerContext(req.ctx.db, stored, async () => undefined)) }
  })

  route('GET', `${base}/sync-instance-tasks/:id/run/`, async (req) => {
    const user = requireUser(req)
    await requirePerm(req, ['xpack.view_syncinstancetask', 'xpack.change_syncinstancetask'])
    const row = await taskApi.getObject(req, idOf(req))
    const task = await taskRunner(req.server)!.enqueue(SYNC_TASK, { kwargs: { task_id: row.id }, creatorId: user.id, creator: userDisplay(user), lang: req.ctx.lang })
    return { task }
  })

  route('GET', `${base}/sync-instance-tasks/:id/history/`, async (req) => {
    requireUser(req)
    await requirePerm(req, 'xpack.view_syncinstancetask')
    const row = await taskApi.getObject(req, idOf(req))
    const rows = (await sql<Pick<RowOf<'cloud_sync_executions'>, 'id' | 'status' | 'summary' | 'reason' | 'date_sync'> & { task: string | null; task_name: string }>`select e.id, e.status, e.summary, e.reason, e.celery_task_id as task, e.date_sync, t.name as task_name
      from cloud_sync_executions e join cloud_sync_tasks t on t.id = e.task_id where e.task_id = ${row.id} order by e.date_sync desc limit 1000`.execute(req.ctx.db)).rows
    return page(req, rows.map((r) => ({ ...r, task_display: r.task_name, date_sync: new Date(r.date_sync).toISOString() })))
  })

  route('GET', `${base}/sync-instance-tasks/:id/instances/`, async (req) => {
    requireUser(req)
    await requirePerm(req, 'xpack.view_syncinstancetask')
    const row = await taskApi.getObject(req, idOf(req))
    const rows = (await sql<Pick<RowOf<'cloud_instances'>, 'id' | 'instance_id' | 'region' | 'asset_ip' | 'status' | 'date_sync' | 'asset_id'> & { asset_name: string | null }>`select i.id, i.instance_id, i.region, i.asset_ip, i.status, i.date_sync, i.asset_id, a.name as asset_name
      from cloud_instances i left join assets a on a.id = i.asset_id where i.task_id = ${row.id} order by i.instance_id limit 5000`.execute(req.ctx.db)).rows
    return page(req, rows.map((r) => ({
      id: r.id, instance_id: r.instance_id, region: r.region, asset_ip: r.asset_ip, status: r.status,
      asset: r.asset_id ? { id: r.asset_id, name: r.asset_name } : null, date_sync: new Date(r.date_sync).toISOString(),
    })))
  })

  route('DELETE', `${base}/sync-instance-tasks/:id/released-assets/`, async (req, reply) => {
    requireUser(req)
    await requirePerm(req, ['xpack.change_syncinstancetask', 'assets.delete_asset'])
    const row = await taskApi.getObject(req, idOf(req))
    const ids = (await sql<{ asset_id: string }>`select i.asset_id from cloud_instances i join cloud_sync_tasks t on t.id = i.task_id
      join asset_nodes an on an.asset_id = i.asset_id and an.node_id = t.node_id
      where i.task_id = ${row.id} and i.status = ${STATUS.released} and i.asset_id is not null`.execute(req.ctx.db)).rows.map((r) => r.asset_id)
    await req.ctx.db.transaction().execute(async (tx) => {
      await deleteAssets(tx, ids)
      await sql`update cloud_instances set asset_id = null where task_id = ${row.id} and status = ${STATUS.released}`.execute(tx)
    })
    return reply.status(204).send()
  })
}
