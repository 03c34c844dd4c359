/**
 * Platforms `/api/v1/assets/platforms/` (contract §5.2): integer ids, system-wide; built-in ones (migration 010)
 * are protected from change and deletion; custom platforms are cloned from them with their protocols, settings
 * and automation switches. Add/change/delete are checked at system scope.
 */
import { sql } from 'kysely'
import type { DB, RowOf } from '../../db/connection.ts'
import { isUuid } from '../../engine/parse.ts'
import type { FieldDef, ResourceDef } from '../../engine/types.ts'
import { ApiError } from '../../http/errors.ts'
import { addMessages, tr } from '../../i18n.ts'
import './messages.ts'
import { ORG_IDS } from '../../rbac/catalog.ts'
import { commentField, createdBy, dateCreated, dateUpdated, updatedBy } from '../common.ts'
import { automationDefaults, automationMethods, CATEGORIES, CATEGORY_LABELS, PROTOCOLS, TYPES, typeSpec } from './catalog.ts'
import { cleanCustomFields } from './custom-fields.ts'
import './messages.ts'

export const protocolChildren: FieldDef[] = [
  { name: 'name', type: 'string', label: 'Name', required: true, max_length: 32 },
  { name: 'port', type: 'integer', label: 'Port', required: true, min_value: 1, max_value: 65535 },
]

const platformProtocolChildren: FieldDef[] = [
  { name: 'id', type: 'integer', label: 'ID', read_only: true },
  ...protocolChildren,
  { name: 'primary', type: 'boolean', label: 'Primary', required: false, default: false },
  { name: 'required', type: 'boolean', label: 'Required', required: false, default: false },
  { name: 'default', type: 'boolean', label: 'Default', required: false, default: false },
  { name: 'public', type: 'boolean', label: 'Public', required: false, default: true },
  { name: 'secret_types', type: 'list', label: 'Secret types', read_only: true, required: false },
  { name: 'setting', type: 'json', label: 'Setting', required: false, default: {}, childrenBy: { field: 'name', variants: protocolSettings() } },
]

/**
 * The setting keys of each protocol, typed and labelled (JumpServer 3.2's ProtocolSettingSerializer and lina's
 * protocol setting dialog, which shows each protocol only its own keys), their defaults the protocol's own
 * (categories-data.ts). A protocol without keys has an empty setting. Issue 35: the form edited it as JSON text.
 */
function protocolSettings(): Record<string, FieldDef[]> {
  const d = (proto: string, key: string) => PROTOCOLS[proto]!.setting[key]
  const bool = (proto: string, name: string, label: string, help_text?: string): FieldDef => ({ name, type: 'boolean', label, required: false, default: d(proto, name), ...(help_text ? { help_text } : {}) })
  const text = (proto: string, name: string, label: string, extra: Partial<FieldDef> = {}): FieldDef => ({ name, type: 'string', label, required: false, allow_blank: true, max_length: 256, default: d(proto, name), ...extra })
  const choice = (proto: string, name: string, label: string, choices: Array<[string, string]>): FieldDef => ({ name, type: 'choice', label, required: false, default: d(proto, name), choices: choices.map(([value, l]) => ({ value, label: l })) })
  return {
    ssh: [
      bool('ssh', 'sftp_enabled', 'SFTP enabled'),
      text('ssh', 'sftp_home', 'SFTP home', { allow_blank: false, help_text: 'The directory SFTP sessions start in', validate: (v: string, ctx) => (v.startsWith('/') ? undefined : tr(ctx.lang, 'Enter an absolute path (starting with /).')) }),
    ],
    rdp: [
      bool('rdp', 'console', 'Console'),
      choice('rdp', 'security', 'Security', [['any', 'Any'], ['rdp', 'RDP'], ['tls', 'TLS'], ['nla', 'NLA']]),
      text('rdp', 'ad_domain', 'AD domain'),
    ],
    telnet: [
      text('telnet', 'username_prompt', 'Username prompt'),
      text('telnet', 'password_prompt', 'Password prompt'),
      text('telnet', 'success_prompt', 'Success prompt'),
    ],
    winrm: [bool('winrm', 'use_ssl', 'Use SSL')],
    oracle: [bool('oracle', 'sysdba', 'SYSDBA')],
    mongodb: [text('mongodb', 'auth_source', 'Auth source')],
    redis: [bool('redis', 'auth_username', 'Auth with username')],
    http: [
      bool('http', 'safe_mode', 'Safe mode'),
      choice('http', 'autofill', 'Autofill', [['no', 'Disabled'], ['basic', 'Basic'], ['script', 'Script']]),
      text('http', 'username_selector', 'Username selector'),
      text('http', 'password_selector', 'Password selector'),
      text('http', 'submit_selector', 'Submit selector'),
    ],
  }
}

/** Protocols of platforms, by platform id, in their stored order. */
/** A platform's protocol as answered (platform_protocols plus the protocol's secret types). */
export type PlatformProtocol = Omit<RowOf<'platform_protocols'>, 'platform_id'> & { secret_types: string[] }

export async function platformProtocols(db: DB, ids: unknown[]): Promise<Map<unknown, PlatformProtocol[]>> {
  const out = new Map<unknown, PlatformProtocol[]>(ids.map((id) => [id, []]))
  if (!ids.length) return out
  const r = await sql<RowOf<'platform_protocols'>>`select id, platform_id, name, port, "primary", required, "default", public, setting
    from platform_protocols where platform_id = any(${ids.map(Number)}::int[]) order by platform_id, id`.execute(db)
  for (const p of r.rows) {
    out.get(p.platform_id)?.push({
      id: p.id, name: p.name, port: p.port, primary: p.primary, required: p.required, default: p.default, public: p.public,
      secret_types: PROTOCOLS[p.name]?.secret_types ?? ['password'], setting: p.setting ?? {},
    })
  }
  return out
}

const suMethods: Array<[string, string]> = [['sudo', 'sudo su'], ['su', 'su -'], ['enable', 'Enable'], ['super', 'Super'], ['super_level', 'Super level']]

const ITEM_LABELS: Record<string, string> = {
  ping: 'Ping', gather_facts: 'Gather facts', gather_accounts: 'Gather accounts', verify_account: 'Verify account', change_secret: 'Change secret', push_account: 'Push account',
}

/**
 * The keys of a platform's automation, labelled (JumpServer's PlatformAutomationSerializer): what the list's and
 * the detail's structured views name them by (issue 35: they showed raw JSON).
 */
export const automationChildren: FieldDef[] = [
  { name: 'ansible_enabled', type: 'boolean', label: 'Ansible enabled' },
  { name: 'ansible_config', type: 'json', label: 'Ansible config' },
  ...Object.entries(ITEM_LABELS).flatMap(([item, label]): FieldDef[] => [
    { name: `${item}_enabled`, type: 'boolean', label: `${label} enabled` },
    { name: `${item}_method`, type: 'string', label: `${label} method` },
    { name: `${item}_params`, type: 'json', label: `${label} params` },
  ]),
]

addMessages({
  'SFTP enabled': ['启用 SFTP', 'SFTP を有効化'],
  'SFTP home': ['SFTP 根目录', 'SFTP ホーム'],
  'The directory SFTP sessions start in': ['SFTP 会话的起始目录', 'SFTP セッションが開始するディレクトリ'],
  'Enter an absolute path (starting with /).': ['请输入绝对路径（以 / 开头）。', '絶対パス（/ で始まる）を入力してください。'],
  'Console': ['控制台', 'コンソール'],
  'Security': ['安全', 'セキュリティ'],
  'Any': ['任意', '任意'],
  'AD domain': ['AD 域', 'AD ドメイン'],
  'Username prompt': ['用户名提示符', 'ユーザー名プロンプト'],
  'Password prompt': ['密码提示符', 'パスワードプロンプト'],
  'Success prompt': ['成功提示符', '成功プロンプト'],
  'Use SSL': ['使用 SSL', 'SSL を使用'],
  'SYSDBA': ['SYSDBA', 'SYSDBA'],
  'Auth source': ['认证数据库', '認証データベース'],
  'Auth with username': ['使用用户名认证', 'ユーザー名で認証'],
  'Safe mode': ['安全模式', 'セーフモード'],
  // (Autofill, Basic, Script and the selectors: the assets app's messages, ./messages.ts)
  'Ansible enabled': ['启用 Ansible', 'Ansible 有効'],
  'Ansible config': ['Ansible 配置', 'Ansible 設定'],
  'Ping enabled': ['启用资产探活', '資産の疎通確認を有効化'],
  'Ping method': ['资产探活方式', '資産の疎通確認方式'],
  'Ping params': ['资产探活参数', '資産の疎通確認パラメータ'],
  'Gather facts enabled': ['启用收集资产信息', '資産情報の収集を有効化'],
  'Gather facts method': ['收集资产信息方式', '資産情報の収集方式'],
  'Gather facts params': ['收集资产信息参数', '資産情報の収集パラメータ'],
  'Gather accounts enabled': ['启用账号收集', 'アカウント収集を有効化'],
  'Gather accounts method': ['账号收集方式', 'アカウント収集方式'],
  'Gather accounts params': ['账号收集参数', 'アカウント収集パラメータ'],
  'Verify account enabled': ['启用账号验证', 'アカウント検証を有効化'],
  'Verify account method': ['账号验证方式', 'アカウント検証方式'],
  'Verify account params': ['账号验证参数', 'アカウント検証パラメータ'],
  'Change secret enabled': ['启用账号改密', 'アカウントのパスワード変更を有効化'],
  'Change secret method': ['账号改密方式', 'アカウントのパスワード変更方式'],
  'Change secret params': ['账号改密参数', 'アカウントのパスワード変更パラメータ'],
  'Push account enabled': ['启用账号推送', 'アカウントプッシュを有効化'],
  'Push account method': ['账号推送方式', 'アカウントプッシュ方式'],
  'Push account params': ['账号推送参数', 'アカウントプッシュパラメータ'],
})


function cleanAutomation(raw: unknown, category: string, type: string): Record<string, unknown> {
  const base = automationDefaults(category, type)
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return base
  const given = raw as Record<string, unknown>
  const methods = new Set(automationMethods().map((m) => m.id))
  for (const key of Object.keys(base)) {
    if (!(key in given)) continue
    const v = given[key]
    if (key.endsWith('_enabled') && typeof v === 'boolean') base[key] = v
    else if (key.endsWith('_method') && (v === null || (typeof v === 'string' && methods.has(v)))) base[key] = v
    else if ((key.endsWith('_params') || key === 'ansible_config') && v && typeof v === 'object' && !Array.isArray(v)) base[key] = v
  }
  return base
}

export const platforms: ResourceDef<'platforms'> = {
  name: 'assets.platform',
  app: 'assets',
  model: 'platform',
  verboseName: 'Platform',
  path: '/api/v1/assets/platforms/',
  table: 'platforms',
  idKind: 'serial',
  altLookup: 'name',
  fields: [
    { name: 'id', type: 'integer', label: 'ID', read_only: true },
    { name: 'name', type: 'string', label: 'Name', required: true, max_length: 50, unique: true },
    { name: 'internal', type: 'boolean', label: 'Internal', read_only: true },
    { name: 'category', type: 'labeled_choice', label: 'Category', default: 'host', choices: CATEGORIES.map((c) => ({ value: c, label: CATEGORY_LABELS[c] })) },
    { name: 'type', type: 'labeled_choice', label: 'Type', default: 'linux', choices: TYPES.map((x) => ({ value: x.value, label: x.label })) },
    { name: 'charset', type: 'labeled_choice', label: 'Charset', default: 'utf-8', choices: [{ value: 'utf-8', label: 'UTF-8' }, { value: 'gbk', label: 'GBK' }] },
    { name: 'domain_enabled', type: 'boolean', label: 'Domain enabled', default: true },
    { name: 'su_enabled', type: 'boolean', label: 'Su enabled', default: false },
    { name: 'su_method', type: 'labeled_choice', label: 'Su method', allow_null: true, choices: suMethods.map(([value, label]) => ({ value, label })) },
    {
      name: 'protocols', type: 'nested_many', label: 'Protocols', column: false, children: platformProtocolChildren,
      load: (ids, { db }) => platformProtocols(db, ids),
      async write(tx, id, value: Array<Partial<PlatformProtocol> & { name: string; port: number }>) {
        await sql`delete from platform_protocols where platform_id = ${id}`.execute(tx)
        const anyPrimary = value.some((p) => p.primary)
        for (const [i, p] of value.entries()) {
          await sql`insert into platform_protocols (platform_id, name, port, "primary", required, "default", public, setting)
            values (${id}, ${p.name}, ${p.port}, ${anyPrimary ? !!p.primary : i === 0}, ${!!p.required}, ${!!p.default}, ${p.public !== false},
                    ${JSON.stringify(p.setting ?? PROTOCOLS[p.name]?.setting ?? {})}::jsonb)`.execute(tx)
        }
      },
    },
    {
      // stored switches over the type's defaults (built-in platforms store none)
      name: 'automation', type: 'json', label: 'Automation', default: () => ({}), children: automationChildren,
      get: (row) => ({ id: row.id, ...cleanAutomation(row.automation, String(row.category), String(row.type)) }), column: 'automation',
    },
    { name: 'custom_fields', type: 'json', label: 'Custom fields', default: () => [] },
    commentField,
    createdBy,
    updatedBy,
    dateCreated,
    dateUpdated,
  ],
  search: ['name'],
  filters: ['id', 'name', 'category', 'type', 'domain_enabled', 'su_enabled'],
  ordering: { fields: ['id', 'name', 'category', 'type', 'date_created'], default: ['id'] },
  sizes: { mini: ['id', 'name'], small: ['id', 'name', 'category', 'type', 'internal', 'comment'] },
  perms: { view: 'assets.view_platform' },
  systemPermFor: ['add', 'change', 'delete', 'import_add', 'import_change'],
  bulkDelete: 'ids',
  actions: [{
    // The platforms of the given assets and of every asset under the given nodes, in the current organization
    // (lina's account push form: which platforms' push methods to offer).
    path: 'filter-nodes-assets', detail: false, method: 'POST', perm: 'assets.view_platform',
    async handler(req, _reply, api) {
      const body = (req.body ?? {}) as { node_ids?: unknown; asset_ids?: unknown }
      const uuids = (v: unknown) => (Array.isArray(v) ? v.filter(isUuid).map(String) : [])
      const ctx = req.ctx
      const inOrg = ctx.orgId === ORG_IDS.ROOT ? sql`true` : sql`a.org_id = ${ctx.orgId}`
      const ids = (await sql<{ id: number }>`select distinct a.platform_id as id from assets a where ${inOrg} and (a.id = any(${uuids(body.asset_ids)}::uuid[])
        or a.id in (select an.asset_id from nodes top join nodes n on n.org_id = top.org_id and (n.key = top.key or (n.key ~>=~ (top.key || ':') and n.key ~<~ (top.key || ';')))
          join asset_nodes an on an.node_id = n.id where top.id = any(${uuids(body.node_ids)}::uuid[])))`.execute(ctx.db)).rows
      return api.serialize(req, ids.map((r) => ({ id: Number(r.id) })))
    },
  }],
  hooks: {
    async validate(values, ctx, info) {
      const errors: Record<string, unknown> = {}
      if (info.existing?.internal) throw new ApiError(400, { detail: tr(ctx.lang, 'Built-in platforms cannot be changed or deleted') })
      const category = (values.category ?? info.existing?.category) as string
      const type = (values.type ?? info.existing?.type) as string
      if (info.existing && ((values.category && values.category !== info.existing.category) || (values.type && values.type !== info.existing.type))) {
        errors.type = [tr(ctx.lang, 'The category and type of a platform cannot be changed')]
        return errors
      }
      const tp = typeSpec(category, type)
      if (!tp) return { type: [tr(ctx.lang, '"{value}" is not a valid choice.', { value: String(type) })] }
      const offered = tp.protocols === 'any' ? undefined : tp.protocols
      // No protocols given on create (absent or an empty list, as a form with none added sends): the type's own.
      if (info.op === 'create' && (values.protocols === undefined || (Array.isArray(values.protocols) && !values.protocols.length))) {
        values.protocols = (offered ?? []).map((name, i) => ({ name, port: PROTOCOLS[name]!.port, primary: i === 0, default: i === 0, required: tp.required, public: true, setting: PROTOCOLS[name]!.setting }))
      }
      if (Array.isArray(values.protocols)) {
        const names = (values.protocols as Array<{ name?: unknown }>).map((p) => String(p.name))
        const bad = offered && names.find((n) => !offered.includes(n))
        if (bad) errors.protocols = [tr(ctx.lang, 'Protocol not allowed for this type: {name}', { name: bad })]
        else if (new Set(names).size !== names.length) errors.protocols = [tr(ctx.lang, 'Protocols must be unique')]
        else if (offered && !names.length) errors.protocols = [tr(ctx.lang, 'This field is required.')]
      }
      if (values.automation !== undefined || info.op === 'create') values.automation = cleanAutomation(values.automation ?? info.existing?.automation, category, type)
      if (values.su_enabled && !tp.su_methods.length) values.su_enabled = false
      if (values.su_method !== undefined && values.su_method !== null && tp.su_methods.length && !tp.su_methods.includes(String(values.su_method))) {
        errors.su_method = [tr(ctx.lang, '"{value}" is not a valid choice.', { value: String(values.su_method) })]
      }
      if (values.custom_fields !== undefined) {
        const cf = cleanCustomFields(values.custom_fields, ctx)
        if (cf.errors) errors.custom_fields = cf.errors
        else values.custom_fields = cf.fields
      }
      return Object.keys(errors).length ? errors : undefined
    },
    async beforeDelete(tx, row, ctx) {
      if (row.internal) throw new ApiError(400, { detail: tr(ctx.lang, 'Built-in platforms cannot be changed or deleted') })
      const used = await sql<{ n: number }>`select count(*)::int as n from assets where platform_id = ${row.id}`.execute(tx)
      if (used.rows[0]!.n) throw new ApiError(400, { detail: tr(ctx.lang, 'The platform is used by {n} assets and cannot be deleted', { n: used.rows[0]!.n }) })
    },
  },
}

/** The platform rows by id (for asset validation). */
export async function platformById(db: DB, id: unknown): Promise<RowOf<'platforms'> | undefined> {
  if (id === undefined || id === null) return undefined
  const r = await sql<RowOf<'platforms'>>`select * from platforms where id = ${Number(id)}`.execute(db)
  return r.rows[0]
}
