/**
 * Settings → Applets: applet hosts, their deployments and the applets published on them (JumpServer 3.2
 * terminal.AppletHost / AppletHostDeployment / AppletPublication; docs/terminal.md "Applet hosts").
 *
 * - `/api/v1/terminal/applet-hosts/`: a kind of the asset base (`kindOf`) — a host of the built-in RemoteAppHost
 *   platform, kept in the SYSTEM organization whatever the request's organization (JumpServer's
 *   `tmp_to_builtin_org(system=1)`); its own fields (deploy options, account creation) live in `applet_hosts`
 *   (`sideTableFields`). `accounts` (write-only, as JumpServer's asset serializers take it on create) adds or
 *   replaces accounts of the host: the privileged one is what deployments log in with.
 * - `/api/v1/terminal/applet-host-deployments/`: `POST {host}` starts a deployment (a background task with a live
 *   log) → 201 `{task}`; `POST …/applets/ {hosts, applet_id?}` publishes one applet (or every active one) to hosts.
 * - `/api/v1/terminal/applet-publications/`: applet × host with its status, filtered by `applet` or `host`.
 */
import { randomUUID } from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import { kindOf, sideTableFields } from '../../engine/derive.ts'
import { userDisplay } from '../../engine/audit.ts'
import type { ActionDef, Ctx, FieldDef, ResourceDef, StoredRow } from '../../engine/types.ts'
import { bodyObject, refId } from '../../http/body.ts'
import { detailError, validationError } from '../../http/errors.ts'
import { addMessages, tr } from '../../i18n.ts'
import { ORG_IDS } from '../../rbac/catalog.ts'
import { taskRunner } from '../../tasks/service.ts'
import { sealSecret } from '../accounts/secrets.ts'
import { assetBase } from '../assets/assets.ts'
import { createdBy, dateCreated, dateUpdated, idField } from '../common.ts'
import { deployAppletHost, installApplets } from './applet-deploy.ts'

export const REMOTE_APP_HOST_PLATFORM = 'RemoteAppHost'
const isUuid = (v: unknown): v is string => typeof v === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v)

addMessages({
  'Hosting': ['发布机', 'ホスティング'],
  'Applet host deployment': ['发布机部署', 'ホスティングのデプロイ'],
  'Applet publication': ['应用发布', 'アプリの公開'],
  'Deploy options': ['部署参数', 'デプロイオプション'],
  'Core API': ['Core 服务地址', 'Core API'],
  'Tips: The application release machine communicates with the Core service. If the release machine and the Core service are on the same network segment, it is recommended to fill in the intranet address, otherwise fill in the current site URL. eg: https://172.16.10.110 or https://dev.jumpserver.com': [
    '提示：应用发布机需要与 Core 服务通信。如果发布机与 Core 服务在同一网段，建议填写内网地址，否则填写当前站点 URL。例如：https://172.16.10.110 或 https://dev.jumpserver.com',
    'ヒント：アプリ公開マシンは Core サービスと通信します。同じネットワークセグメントにある場合は内部アドレスを、そうでない場合は現在のサイト URL を入力してください。例：https://172.16.10.110 または https://dev.jumpserver.com',
  ],
  'Ignore Certificate Verification': ['忽略证书校验', '証明書の検証を無視'],
  'Existing RDS license': ['已有 RDS 许可证', '既存の RDS ライセンス'],
  'RDS License Server': ['RDS 许可服务器', 'RDS ライセンスサーバー'],
  'RDS Licensing Mode': ['RDS 授权模式', 'RDS ライセンスモード'],
  'RDS Single Session Per User': ['RDS 单用户单会话', 'RDS ユーザーごとに単一セッション'],
  'RDS Max Disconnection Time': ['RDS 最大断开时间', 'RDS 最大切断時間'],
  'RDS Remote App Logoff Time Limit': ['RDS 远程应用注销时间限制', 'RDS リモートアプリのログオフ時間制限'],
  'Per Session': ['按会话', 'セッションごと'],
  'Per Device': ['按设备', 'デバイスごと'],
  'Disabled': ['禁用', '無効'],
  'Enabled': ['启用', '有効'],
  'Auto create accounts': ['自动创建账号', 'アカウントの自動作成'],
  'Accounts create amount': ['账号创建数量', 'アカウント作成数'],
  'Using same account': ['使用同一账号', '同じアカウントを使用'],
  'Inited': ['已初始化', '初期化済み'],
  'Date inited': ['初始化日期', '初期化日'],
  'Date synced': ['同步日期', '同期日'],
  'Load status': ['负载状态', '負荷状態'],
  'Offline': ['离线', 'オフライン'],
  'Normal': ['正常', '正常'],
  'High': ['高', '高'],
  'Critical': ['严重', '危険'],
  'Terminal': ['终端', 'ターミナル'],
  'Accounts': ['账号', 'アカウント'],
  'Secret type': ['密文类型', 'シークレットの種類'],
  'Secret': ['密文', 'シークレット'],
  'Password': ['密码', 'パスワード'],
  'SSH key': ['SSH 密钥', 'SSH キー'],
  'Privileged': ['特权账号', '特権アカウント'],
  'Initial': ['初始化', '初期'],
  'Status': ['状态', 'ステータス'],
  'Pending': ['待定的', '保留中'],
  'Running': ['运行中', '実行中'],
  'Success': ['成功', '成功'],
  'Failed': ['失败', '失敗'],
  'Mismatch': ['版本不匹配', 'バージョン不一致'],
  'Date start': ['开始日期', '開始日'],
  'Date finished': ['结束日期', '終了日'],
  'Task': ['任务', 'タスク'],
  'Applet': ['远程应用', 'リモートアプリ'],
  'Host': ['主机', 'ホスト'],
  'Install applets': ['安装应用', 'アプリをインストール'],
  'The host must be an applet host.': ['主机必须是发布机。', 'ホストはホスティングである必要があります。'],
  'Give at least one applet host.': ['请至少选择一个发布机。', 'ホスティングを少なくとも 1 つ指定してください。'],
  'Give a secret for {username}.': ['请为 {username} 填写密文。', '{username} のシークレットを入力してください。'],
})

// ---- applet hosts ----------------------------------------------------------------------------------------------

const DEPLOY_OPTIONS: FieldDef[] = [
  {
    name: 'CORE_HOST', type: 'string', label: 'Core API', max_length: 1024, default: '',
    help_text: 'Tips: The application release machine communicates with the Core service. If the release machine and the Core service are on the same network segment, it is recommended to fill in the intranet address, otherwise fill in the current site URL. eg: https://172.16.10.110 or https://dev.jumpserver.com',
  },
  { name: 'IGNORE_VERIFY_CERTS', type: 'boolean', label: 'Ignore Certificate Verification', default: true },
  { name: 'RDS_Licensing', type: 'boolean', label: 'Existing RDS license', default: false },
  { name: 'RDS_LicenseServer', type: 'string', label: 'RDS License Server', max_length: 1024, default: '127.0.0.1' },
  { name: 'RDS_LicensingMode', type: 'choice', label: 'RDS Licensing Mode', default: 2, choices: [{ value: 4, label: 'Per Session' }, { value: 2, label: 'Per Device' }] },
  { name: 'RDS_fSingleSessionPerUser', type: 'choice', label: 'RDS Single Session Per User', default: 1, choices: [{ value: 0, label: 'Disabled' }, { value: 1, label: 'Enabled' }] },
  { name: 'RDS_MaxDisconnectionTime', type: 'integer', label: 'RDS Max Disconnection Time', default: 60000, min_value: 0, max_value: 2_147_483_647 },
  { name: 'RDS_RemoteAppLogoffTimeLimit', type: 'integer', label: 'RDS Remote App Logoff Time Limit', default: 0, min_value: 0, max_value: 2_147_483_647 },
]
const deployDefaults = () => Object.fromEntries(DEPLOY_OPTIONS.map((f) => [f.name, f.default]))

const ACCOUNT_CHILDREN: FieldDef[] = [
  { name: 'username', type: 'string', label: 'Username', required: true, max_length: 128 },
  { name: 'secret_type', type: 'choice', label: 'Secret type', default: 'password', choices: [{ value: 'password', label: 'Password' }, { value: 'ssh_key', label: 'SSH key' }] },
  { name: 'secret', type: 'text', label: 'Secret', write_only: true, secret: true, encrypted: true, allow_blank: true, max_length: 16_384, default: '' },
  { name: 'privileged', type: 'boolean', label: 'Privileged', default: false },
]

/** `accounts` of a write: added, or (same username) given a new secret and privilege. Sealed as the accounts module seals. */
/** An account of a host's write (ACCOUNT_CHILDREN, parsed). */
interface AccountIn { username: string; secret_type: string; secret?: string; privileged?: boolean }

async function writeAccounts(tx: Parameters<NonNullable<FieldDef['write']>>[0], hostId: unknown, value: AccountIn[], ctx: Ctx): Promise<void> {
  const by = userDisplay(ctx.user).slice(0, 128)
  for (const a of value) {
    const username = String(a.username)
    const existing = (await sql<{ id: string }>`select id from accounts where asset_id = ${hostId} and username = ${username}`.execute(tx)).rows[0]
    const id = existing?.id ?? randomUUID()
    const sealed = sealSecret(ctx.db, 'accounts', id, 'secret', String(a.secret ?? ''))
    if (existing) {
      await sql`update accounts set secret = ${sealed}, secret_type = ${String(a.secret_type)}, privileged = ${!!a.privileged},
        version = version + 1, updated_by = ${by}, date_updated = now() where id = ${id}`.execute(tx)
    } else {
      await sql`insert into accounts (id, org_id, asset_id, name, username, secret_type, secret, privileged, version, created_by, updated_by)
        values (${id}, ${ORG_IDS.SYSTEM}, ${hostId}, ${username}, ${username}, ${String(a.secret_type)}, ${sealed}, ${!!a.privileged}, 1, ${by}, ${by})`.execute(tx)
    }
  }
}

const hostFields: Array<FieldDef<StoredRow<'assets'>>> = [
  {
    name: 'platform', type: 'fk', label: 'Platform', required: false,
    relation: { resource: 'assets.platform', attrs: ['id', 'name'], query: `name=${REMOTE_APP_HOST_PLATFORM}`, limit: () => sql`t.name = ${REMOTE_APP_HOST_PLATFORM}` },
  },
  { name: 'address', type: 'string', label: 'IP/Host', required: true, max_length: 767 },
  ...sideTableFields('applet_hosts', 'asset_id', [
    { name: 'deploy_options', type: 'nested', label: 'Deploy options', required: false, default: deployDefaults, children: DEPLOY_OPTIONS },
    { name: 'auto_create_accounts', type: 'boolean', label: 'Auto create accounts', default: true },
    { name: 'accounts_create_amount', type: 'integer', label: 'Accounts create amount', default: 100, min_value: 0, max_value: 1000 },
    { name: 'using_same_account', type: 'boolean', label: 'Using same account', default: false },
    { name: 'inited', type: 'boolean', label: 'Inited', read_only: true },
    { name: 'date_inited', type: 'datetime', label: 'Date inited', read_only: true },
    { name: 'date_synced', type: 'datetime', label: 'Date synced', read_only: true },
  ]),
  {
    name: 'load', type: 'labeled_choice', label: 'Load status', read_only: true,
    choices: [{ value: 'offline', label: 'Offline' }, { value: 'normal', label: 'Normal' }, { value: 'high', label: 'High' }, { value: 'critical', label: 'Critical' }],
    // No component reports from an applet host here (no Tinker): a host without a terminal is offline, as JumpServer says.
    expr: `(select case when h.terminal_id is null then 'offline' else 'normal' end from applet_hosts h where h.asset_id = t.id)`,
  },
  {
    name: 'accounts', type: 'nested_many', label: 'Accounts', write_only: true, required: false, column: false, children: ACCOUNT_CHILDREN,
    validate: (value: AccountIn[], ctx) => {
      const missing = value.find((a) => !a.secret)
      return missing ? tr(ctx.lang, 'Give a secret for {username}.', { username: String(missing.username) }) : undefined
    },
    write: (tx, id, value: AccountIn[], ctx) => writeAccounts(tx, id, value, ctx),
  },
]

async function remoteAppPlatformId(db: Ctx['db']): Promise<number | undefined> {
  const r = await sql<{ id: number }>`select id from platforms where name = ${REMOTE_APP_HOST_PLATFORM}`.execute(db)
  return r.rows[0]?.id
}

const baseValidate = assetBase.hooks!.validate!

export const appletHosts: ResourceDef<'assets'> = {
  ...kindOf(assetBase, {
    name: 'terminal.applethost',
    model: 'applethost',
    verboseName: 'Hosting',
    path: '/api/v1/terminal/applet-hosts/',
    fields: hostFields,
    // nodes and labels belong to organizations; applet hosts live in SYSTEM (lina hides both on this form)
    omit: ['nodes', 'labels'],
    scope: () => sql`t.platform_id in (select p.id from platforms p where p.name = ${REMOTE_APP_HOST_PLATFORM})`,
  }),
  app: 'terminal',
  orgScoped: false,
  systemPerms: true,
  perms: undefined,
  hooks: {
    // the platform is always RemoteAppHost (JumpServer's serializer sets it whatever is sent)
    async validate(values, ctx, info) {
      if (info.op === 'create' || values.platform !== undefined) values.platform = await remoteAppPlatformId(ctx.db)
      return baseValidate(values, ctx, info)
    },
    columns: async (values, ctx, info) => ({ ...(await assetBase.hooks!.columns!(values, ctx, info)), ...(info.op === 'create' ? { org_id: ORG_IDS.SYSTEM } : {}) }),
    async afterSave(tx, id, values, ctx, info) {
      await sql`insert into applet_hosts (asset_id) values (${id}) on conflict do nothing`.execute(tx)
      if (info.op === 'create') await assetBase.hooks!.afterSave!(tx, id, { ...values, nodes: [] }, ctx, info)
    },
  },
  filters: ['id', 'name', 'address', 'is_active'],
  search: ['name', 'address'],
}

// ---- deployments -----------------------------------------------------------------------------------------------

const STATUS = [
  { value: 'pending', label: 'Pending' }, { value: 'running', label: 'Running' },
  { value: 'success', label: 'Success' }, { value: 'failed', label: 'Failed' },
]

async function startTask(req: FastifyRequest, name: string, kwargs: Record<string, unknown>): Promise<string> {
  const runner = taskRunner(req.server)
  if (!runner) throw detailError(503, 'Background tasks are not running', 'task_runner_unavailable')
  const user = req.ctx.user!
  return runner.enqueue(name, { kwargs, creatorId: user.id, creator: userDisplay(user), lang: req.ctx.lang })
}

/** The applet hosts among `ids` (404-free: unknown ones are left out). */
async function hostsAmong(req: FastifyRequest, ids: unknown[]): Promise<string[]> {
  const wanted = ids.map(refId).filter(isUuid)
  if (!wanted.length) return []
  const r = await sql<{ id: string }>`select t.id from assets t where t.id = any(${wanted}::uuid[])
    and t.platform_id in (select p.id from platforms p where p.name = ${REMOTE_APP_HOST_PLATFORM})`.execute(req.ctx.db)
  return r.rows.map((x) => x.id)
}

async function insertDeployments(req: FastifyRequest, hosts: string[], initial: boolean): Promise<string[]> {
  const by = userDisplay(req.ctx.user).slice(0, 128)
  const ids = hosts.map(() => randomUUID())
  await req.ctx.db.transaction().execute(async (tx) => {
    for (const [i, host] of hosts.entries()) {
      await sql`insert into applet_host_deployments (id, host_id, initial, created_by) values (${ids[i]}, ${host}, ${initial}, ${by})`.execute(tx)
    }
  })
  return ids
}

/** `POST …/applet-host-deployments/ {host, install_applets?, comment?}` → 201 `{task}` (the live log's id). */
async function createDeployment(req: FastifyRequest, reply: FastifyReply): Promise<unknown> {
  const body = bodyObject(req)
  const lang = req.ctx.lang
  if (body.host === undefined || body.host === null || body.host === '') throw validationError({ host: [tr(lang, 'This field is required.')] })
  const [host] = await hostsAmong(req, [body.host])
  if (!host) throw validationError({ host: [tr(lang, 'Invalid pk "{pk}" - object does not exist.', { pk: String(typeof body.host === 'object' ? JSON.stringify(body.host) : body.host) })] })
  const raw = body.install_applets
  const TRUE = [true, 'true', 'True', '1', 1]
  const FALSE = [false, 'false', 'False', '0', 0]
  if (raw !== undefined && raw !== null && !TRUE.includes(raw as never) && !FALSE.includes(raw as never)) {
    throw validationError({ install_applets: [tr(lang, 'Must be a valid boolean.')] })
  }
  const install = raw === undefined || raw === null || TRUE.includes(raw as never)
  const [deployment] = await insertDeployments(req, [host], true)
  const task = await startTask(req, deployAppletHost.name, { deployment_ids: [deployment], install_applets: install })
  await sql`update applet_host_deployments set task = ${task} where id = ${deployment}`.execute(req.ctx.db)
  return reply.status(201).send({ task })
}

/** `POST …/applet-host-deployments/applets/ {hosts: [...], applet_id?}`: one task publishing to every host. */
const publishAction: ActionDef = {
  path: 'applets', detail: false, method: 'POST', perm: 'terminal.add_applethostdeployment', systemPerm: true,
  async handler(req, reply) {
    const body = bodyObject(req)
    const lang = req.ctx.lang
    const given = Array.isArray(body.hosts) ? body.hosts : []
    if (given.length > 1000) throw validationError({ hosts: [tr(lang, 'Ensure this field has no more than {n} elements.', { n: '1000' })] })
    const hosts = await hostsAmong(req, given)
    if (!hosts.length) throw validationError({ hosts: [tr(lang, 'Give at least one applet host.')] })
    let appletId: string | undefined
    if (body.applet_id !== undefined && body.applet_id !== null && body.applet_id !== '') {
      const found = isUuid(body.applet_id) ? (await sql<{ id: string }>`select id from applets where id = ${body.applet_id}`.execute(req.ctx.db)).rows[0] : undefined
      if (!found) throw validationError({ applet_id: [tr(lang, 'Invalid pk "{pk}" - object does not exist.', { pk: String(body.applet_id) })] })
      appletId = found.id
    }
    const deployments = await insertDeployments(req, hosts, false)
    const task = await startTask(req, installApplets.name, { deployment_ids: deployments, applet_id: appletId ?? null })
    await sql`update applet_host_deployments set task = ${task} where id = any(${deployments}::uuid[])`.execute(req.ctx.db)
    return reply.status(201).send({ task })
  },
}

const hostRelation = { resource: 'terminal.applethost', attrs: ['id', 'name', 'address'] }

export const appletHostDeployments: ResourceDef<'applet_host_deployments'> = {
  name: 'terminal.applethostdeployment',
  app: 'terminal',
  model: 'applethostdeployment',
  verboseName: 'Applet host deployment',
  path: '/api/v1/terminal/applet-host-deployments/',
  table: 'applet_host_deployments',
  systemPerms: true,
  verbs: ['list', 'retrieve', 'create'],
  fields: [
    idField(),
    { name: 'host', type: 'fk', label: 'Hosting', required: true, relation: hostRelation },
    { name: 'initial', type: 'boolean', label: 'Initial', read_only: true },
    { name: 'status', type: 'labeled_choice', label: 'Status', read_only: true, choices: STATUS },
    { name: 'task', type: 'uuid', label: 'Task', read_only: true },
    { name: 'install_applets', type: 'boolean', label: 'Install applets', write_only: true, column: false, default: true },
    { name: 'comment', type: 'text', label: 'Comment', read_only: true },
    { name: 'date_start', type: 'datetime', label: 'Date start', read_only: true },
    { name: 'date_finished', type: 'datetime', label: 'Date finished', read_only: true },
    createdBy, dateCreated, dateUpdated,
  ],
  filters: ['id', 'status', { name: 'host', apply: (v) => (isUuid(v) ? sql`t.host_id = ${v}` : sql`false`) }],
  ordering: { fields: ['date_start', 'date_finished', 'date_created', 'status'], default: ['-date_created'] },
  sizes: { mini: ['id', 'host', 'status', 'task'] },
  unexport: ['install_applets'],
  hooks: { create: createDeployment },
  actions: [publishAction],
  noAudit: true,
}

// ---- publications ----------------------------------------------------------------------------------------------

export const appletPublications: ResourceDef<'applet_publications'> = {
  name: 'terminal.appletpublication',
  app: 'terminal',
  model: 'appletpublication',
  verboseName: 'Applet publication',
  path: '/api/v1/terminal/applet-publications/',
  table: 'applet_publications',
  systemPerms: true,
  verbs: ['list', 'retrieve', 'export'],
  fields: [
    idField(),
    { name: 'applet', type: 'fk', label: 'Applet', read_only: true, relation: { resource: 'terminal.applet', attrs: ['id', 'name', 'display_name', 'version'] } },
    { name: 'host', type: 'fk', label: 'Hosting', read_only: true, relation: hostRelation },
    { name: 'status', type: 'labeled_choice', label: 'Status', read_only: true, choices: [...STATUS, { value: 'mismatch', label: 'Mismatch' }] },
    { name: 'comment', type: 'text', label: 'Comment', read_only: true },
    dateCreated, dateUpdated,
  ],
  filters: [
    'id', 'status',
    { name: 'host', apply: (v) => (isUuid(v) ? sql`t.host_id = ${v}` : sql`false`) },
    { name: 'applet', apply: (v) => (isUuid(v) ? sql`t.applet_id = ${v}` : sql`false`) },
  ],
  ordering: { fields: ['status', 'date_created', 'date_updated'], default: ['-date_updated'] },
  noAudit: true,
}

export const APPLET_HOST_RESOURCES = [appletHosts, appletHostDeployments, appletPublications]
