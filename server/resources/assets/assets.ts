/**
 * Assets (contract §5.2): one base declaration (`assetBase`, table `assets`) and six kinds derived from it with
 * `kindOf` — hosts, databases, devices, clouds, webs, customs — plus the combined `/api/v1/assets/assets/`
 * (no POST there). Protocols come from the platform: defaults when none are given, required ones enforced,
 * names the platform does not offer refused, ports 1–65535. Permissions are `assets.*_asset` for every kind.
 */
import { isIP } from 'node:net'
import { sql } from 'kysely'
import type { FastifyRequest } from 'fastify'
import { requireConfirm } from '../../auth/confirm.ts'
import { requirePerm } from '../../http/context.ts'
import type { DB, RowOf } from '../../db/connection.ts'
import { kindOf } from '../../engine/derive.ts'
import type { Ctx, FieldDef, LoadArgs, ResourceDef, StoredRow, WriteInfo } from '../../engine/types.ts'
import type { Values } from '../../http/body.ts'
import { validationError } from '../../http/errors.ts'
import { addMessages, tr } from '../../i18n.ts'
import { ORG_IDS } from '../../rbac/catalog.ts'
import { commentField, createdBy, dateCreated, dateUpdated, idField, isActive, updatedBy } from '../common.ts'
import { AUTOMATION_ITEMS, CATEGORY_LABELS, TYPES, type Category } from './catalog.ts'
import { cleanCustomInfo, customFieldDefs, platformCustomFields } from './custom-fields.ts'
import { domainField, domainFilter, labelsField, labelsFilter } from './links.ts'
import { nodeTree } from './nodes.ts'
import { automationChildren, platformById, platformProtocols, protocolChildren } from './platforms.ts'
import { assetAccountsField, prepareAssetAccounts, pushAssetAccounts, saveAssetAccounts } from '../accounts/on-asset.ts'
import './messages.ts'

const PERMS = { view: 'assets.view_asset', add: 'assets.add_asset', change: 'assets.change_asset', delete: 'assets.delete_asset' }

type AssetRow = StoredRow<'assets'>

async function assetProtocols(db: DB, ids: unknown[]): Promise<Map<unknown, ProtoIn[]>> {
  const out = new Map<unknown, ProtoIn[]>(ids.map((id) => [id, []]))
  if (!ids.length) return out
  const r = await sql<Pick<RowOf<'asset_protocols'>, 'asset_id' | 'name' | 'port'>>`select asset_id, name, port from asset_protocols where asset_id = any(${ids}::uuid[]) order by asset_id, id`.execute(db)
  for (const p of r.rows) out.get(p.asset_id)?.push({ name: p.name, port: p.port })
  return out
}

/** auto_config of each asset: its platform's switches (contract §5.2). */
async function autoConfig(_ids: unknown[], { db, rows }: LoadArgs<AssetRow>): Promise<Map<unknown, unknown>> {
  const pids = [...new Set(rows.map((r) => r.platform_id))]
  const plats = pids.length ? (await sql<Pick<RowOf<'platforms'>, 'id' | 'su_enabled' | 'domain_enabled' | 'automation'>>`select id, su_enabled, domain_enabled, automation from platforms where id = any(${pids}::int[])`.execute(db)).rows : []
  const byId = new Map(plats.map((p) => [p.id, p]))
  return new Map(rows.map((r) => {
    const p = byId.get(r.platform_id)
    const a = (p?.automation ?? {}) as Record<string, unknown>
    const cfg: Record<string, unknown> = { su_enabled: !!p?.su_enabled, domain_enabled: !!p?.domain_enabled, ansible_enabled: !!a.ansible_enabled, ansible_config: a.ansible_config ?? {} }
    for (const item of AUTOMATION_ITEMS) cfg[`${item}_enabled`] = !!a[`${item}_enabled`]
    return [r.id, cfg]
  }))
}

const HOSTNAME = /^(?=.{1,253}$)[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,62})(?:\.[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,62}))*\.?$/

/** Address rules per kind: an IP or host name; a URL for web and cloud; anything for custom. */
export function addressProblem(category: string, address: string, ctx: Ctx): string | undefined {
  const a = address.trim()
  if (category === 'custom') return undefined
  if (category === 'web' || category === 'cloud') {
    try {
      const u = new URL(a)
      if (u.protocol === 'http:' || u.protocol === 'https:') return undefined
    } catch { /* below */ }
    if (category === 'cloud' && (isIP(a) || HOSTNAME.test(a))) return undefined
    return tr(ctx.lang, 'Enter a valid URL.')
  }
  if (isIP(a) || HOSTNAME.test(a)) return undefined
  return tr(ctx.lang, 'Enter a valid IP address or host name.')
}

interface ProtoIn { name: string; port: number }

/** Protocol rules against the platform: known names only, each once, required ones present. */
async function checkProtocols(db: DB, platformId: number, given: ProtoIn[], ctx: Ctx): Promise<unknown> {
  const allowed = (await platformProtocols(db, [platformId])).get(platformId) ?? []
  const names = allowed.map((p) => String(p.name))
  const bad = given.find((p) => !names.includes(p.name))
  if (bad) return [tr(ctx.lang, 'Protocol not allowed by the platform: {name}', { name: bad.name })]
  const seen = new Set<string>()
  for (const p of given) {
    if (seen.has(p.name)) return [tr(ctx.lang, 'Protocols must be unique')]
    seen.add(p.name)
  }
  const missing = allowed.find((p) => p.required && !seen.has(String(p.name)))
  if (missing) return { protocols: tr(ctx.lang, 'Protocol is required: {name}', { name: String(missing.name) }) }
  return undefined
}

async function defaultProtocols(db: DB, platformId: number): Promise<ProtoIn[]> {
  const allowed = (await platformProtocols(db, [platformId])).get(platformId) ?? []
  const picked = allowed.filter((p) => p.required || p.default || p.primary)
  return (picked.length ? picked : allowed.slice(0, 1)).map((p) => ({ name: String(p.name), port: Number(p.port) }))
}

/**
 * Changing where an asset is reached — its address, its protocols (ports), its domain (and so its gateway) — sends
 * its stored secrets to the new place at the next verify, push or connection. When the asset has a stored secret
 * that needs what viewing the secret needs: the view-secret permission and a fresh MFA confirmation (issue 36
 * point 6, docs/decisions/security-hardening-second-round.md, "Secrets go only where their viewers send them").
 */
async function guardReach(req: FastifyRequest, values: Values, existing: AssetRow): Promise<void> {
  const db = req.ctx.db
  const moved: string[] = []
  if (values.address !== undefined && String(values.address).trim() !== String(existing.address ?? '')) moved.push('address')
  const domainOf = (v: unknown) => (v && typeof v === 'object' ? String((v as { id?: unknown }).id ?? '') : v === null || v === undefined ? '' : String(v))
  if (values.domain !== undefined && domainOf(values.domain) !== domainOf(existing.domain_id)) moved.push('domain')
  if (Array.isArray(values.protocols)) {
    const key = (list: Array<{ name?: unknown; port?: unknown }>) => list.map((p) => `${String(p.name)}:${Number(p.port)}`).sort().join(',')
    const kept = (await assetProtocols(db, [existing.id])).get(existing.id) ?? []
    if (key(values.protocols as Array<{ name?: unknown; port?: unknown }>) !== key(kept)) moved.push('protocols')
  }
  if (!moved.length) return
  const secrets = await sql`select 1 from accounts where asset_id = ${existing.id} and secret <> '' limit 1`.execute(db)
  if (!secrets.rows.length) return
  await requirePerm(req, 'accounts.view_accountsecret')
  await requireConfirm(req, 'mfa')
}

async function validateAsset(values: Values, ctx: Ctx, info: WriteInfo<AssetRow>, category: Category | undefined): Promise<Record<string, unknown> | undefined> {
  const db = ctx.db
  const existing = info.existing
  const platformId = (values.platform ?? existing?.platform_id) as number | undefined
  const platform = await platformById(db, platformId)
  if (existing && info.req) await guardReach(info.req, values, existing)
  const errors: Record<string, unknown> = {}
  if (!platform) return values.platform === undefined ? undefined : { platform: [tr(ctx.lang, 'Invalid pk "{pk}" - object does not exist.', { pk: String(values.platform) })] }
  if (category && platform.category !== category) {
    return { platform: [tr(ctx.lang, 'The platform is not of the category {category}', { category: tr(ctx.lang, CATEGORY_LABELS[category]) })] }
  }
  if (existing && platform.category !== existing.category) {
    return { platform: [tr(ctx.lang, 'The platform is not of the category {category}', { category: tr(ctx.lang, CATEGORY_LABELS[existing.category as Category] ?? existing.category) })] }
  }
  const address = (values.address ?? existing?.address) as string | undefined
  if (values.address !== undefined && address !== undefined) {
    const problem = addressProblem(platform.category, address, ctx)
    if (problem) errors.address = [problem]
  }
  if (values.protocols === undefined && (info.op === 'create' || values.platform !== undefined)) {
    const kept = existing ? ((await assetProtocols(db, [existing.id])).get(existing.id) ?? []) : []
    const fits = kept.length && !(await checkProtocols(db, platform.id, kept, ctx))
    values.protocols = fits ? kept : await defaultProtocols(db, platform.id)
  } else if (Array.isArray(values.protocols)) {
    const problem = await checkProtocols(db, platform.id, values.protocols as ProtoIn[], ctx)
    if (problem) errors.protocols = problem
  }
  if (platform.category === 'custom' && (values.custom_info !== undefined || info.op === 'create' || values.platform !== undefined)) {
    const checked = cleanCustomInfo(platformCustomFields(platform), values.custom_info ?? existing?.custom_info, ctx)
    if (checked.errors) errors.custom_info = checked.errors
    else values.custom_info = checked.value
  }
  if (platform.category === 'database' && ['mongodb', 'postgresql'].includes(platform.type)) {
    const dbName = values.db_name ?? existing?.db_name
    if (!dbName) errors.db_name = [tr(ctx.lang, 'This field is required.')]
  }
  return Object.keys(errors).length ? errors : undefined
}

const categoryChoices = Object.entries(CATEGORY_LABELS).map(([value, label]) => ({ value, label }))
const typeChoices = TYPES.map((x) => ({ value: x.value, label: x.label }))

const baseFields: Array<FieldDef<AssetRow>> = [
  idField(),
  { name: 'name', type: 'string', label: 'Name', required: true, max_length: 128, unique: 'org' },
  { name: 'address', type: 'string', label: 'Address', required: true, max_length: 767 },
  { name: 'platform', type: 'fk', label: 'Platform', required: true, relation: { resource: 'assets.platform', attrs: ['id', 'name'] } },
  {
    name: 'nodes', type: 'm2m', label: 'Node', default: [],
    // shown as the form's default: where a new asset goes without nodes (the organization's root node, DEFAULT)
    defaultFrom: { get: async (_v, ctx) => (ctx.orgId === ORG_IDS.ROOT ? undefined : nodeTree.root(ctx.db, ctx.orgId).then((n) => [n.id], () => undefined)) },
    relation: { resource: 'assets.node', attrs: ['id', 'name'], naturalKey: 'full_value', through: { table: 'asset_nodes', from: 'asset_id', to: 'node_id' } },
  },
  {
    name: 'nodes_display', type: 'list', label: 'Node path', read_only: true,
    expr: '(select coalesce(array_agg(n.full_value order by n.full_value), array[]::varchar[]) from asset_nodes an join nodes n on n.id = an.node_id where an.asset_id = t.id)',
  },
  {
    name: 'protocols', type: 'nested_many', label: 'Protocols', column: false, children: protocolChildren,
    // shown as the form's default: the platform's required and default protocols, which the server takes when none are given
    defaultFrom: { field: 'platform', get: async (v, ctx) => (Number.isInteger(Number(v)) ? defaultProtocols(ctx.db, Number(v)) : undefined) },
    load: (ids, { db }) => assetProtocols(db, ids),
    async write(tx, id, value: ProtoIn[]) {
      await sql`delete from asset_protocols where asset_id = ${id}`.execute(tx)
      for (const p of value) await sql`insert into asset_protocols (asset_id, name, port) values (${id}, ${p.name}, ${p.port})`.execute(tx)
    },
  },
  domainField,
  labelsField,
  isActive,
  { name: 'category', type: 'labeled_choice', label: 'Category', read_only: true, choices: categoryChoices },
  { name: 'type', type: 'labeled_choice', label: 'Type', read_only: true, choices: typeChoices },
  {
    name: 'connectivity', type: 'labeled_choice', label: 'Connectivity', read_only: true,
    choices: [{ value: '-', label: 'Unknown' }, { value: 'ok', label: 'OK' }, { value: 'err', label: 'Error' }],
  },
  { name: 'auto_config', type: 'json', label: 'Auto config', read_only: true, column: false, load: autoConfig,
    children: [{ name: 'su_enabled', type: 'boolean', label: 'Su enabled' }, { name: 'domain_enabled', type: 'boolean', label: 'Domain enabled' },
      ...automationChildren.filter((c) => !c.name.endsWith('_method') && !c.name.endsWith('_params'))] },
  { name: 'date_verified', type: 'datetime', label: 'Date verified', read_only: true },
  commentField,
  createdBy,
  updatedBy,
  dateCreated,
  dateUpdated,
]

const directOnly = (q: Record<string, string | string[] | undefined>) =>
  q.show_current_asset !== undefined ? String(q.show_current_asset) === '1' : ['0', 'false'].includes(String(q.all ?? 'true').toLowerCase())

/** The node a `node_id` filter names (a malformed id names none). */
const nodeOf = async (value: string, ctx: Ctx) => (/^[0-9a-f-]{36}$/i.test(value) ? nodeTree.byId(ctx.db, value) : undefined)

/** `node_id` (or `node`): assets of a node with its descendants, or only its own with `all=0`/`show_current_asset=1`. */
const nodeFilter = (name: string) => ({
  name,
  async apply(value: string, ctx: Ctx, q: Record<string, string | string[] | undefined>) {
    const node = await nodeOf(value, ctx)
    return node ? nodeTree.memberCond(node, !directOnly(q)) : sql`false`
  },
  // With descendants, the node's subtree amount kept by the tree (exact, migration 023) is the page's count.
  async count(value: string, ctx: Ctx, q: Record<string, string | string[] | undefined>) {
    const node = directOnly(q) ? undefined : await nodeOf(value, ctx)
    if (!node || (ctx.orgId !== ORG_IDS.ROOT && node.org_id !== ctx.orgId)) return undefined
    const n = (await nodeTree.amounts(ctx.db, [node])).get(node.id)
    return typeof n === 'number' ? n : undefined
  },
})

/** The accounts of a new asset to push after its commit, by the write's values. */
const pushLater = new WeakMap<object, string[]>()

export const assetBase: ResourceDef<'assets'> = {
  name: 'assets.asset',
  app: 'assets',
  model: 'asset',
  verboseName: 'Asset',
  path: '/api/v1/assets/assets/',
  table: 'assets',
  orgScoped: true,
  fields: baseFields,
  search: ['name', 'address'],
  filters: [
    'id', 'name', 'address', 'is_active', 'type', 'category', 'connectivity',
    { name: 'platform', apply: (v) => (/^\d{1,9}$/.test(v) ? sql`t.platform_id = ${Number(v)}` : sql`t.platform_id in (select p.id from platforms p where p.name = ${v})`) },
    nodeFilter('node_id'), nodeFilter('node'), labelsFilter, domainFilter,
    { name: 'ip', apply: (v) => sql`t.address = ${v}` },
    { name: 'domain_enabled', apply: (v) => sql`t.platform_id in (select p.id from platforms p where p.domain_enabled = ${['1', 'true', 'True'].includes(v)})` },
  ],
  ordering: { fields: ['name', 'address', 'connectivity', 'platform', 'is_active', 'date_created', 'date_updated'], default: ['name'] },
  sizes: { mini: ['id', 'name', 'address'], small: ['id', 'name', 'address', 'platform', 'category', 'type', 'is_active', 'connectivity'] },
  perms: PERMS,
  display: (r) => `${String(r.name)}(${String(r.address)})`,
  hooks: {
    validate: (values, ctx, info) => validateAsset(values, ctx, info, undefined),
    async columns(values, ctx, info) {
      if (values.platform === undefined) return {}
      const p = await platformById(info.tx, values.platform)
      return p ? { category: p.category, type: p.type } : {}
    },
    async afterSave(tx, id, values, ctx, info) {
      const emptied = Array.isArray(values.nodes) && !values.nodes.length
      if (info.op !== 'create' && !emptied) return
      const given = (values.nodes as string[] | undefined) ?? []
      const q = (info.req?.query ?? {}) as Record<string, unknown>
      const byQuery = typeof q.node_id === 'string' && /^[0-9a-f-]{36}$/i.test(q.node_id) ? await nodeTree.byId(tx, q.node_id) : undefined
      const row = (await sql<{ org_id: string }>`select org_id from assets where id = ${id}`.execute(tx)).rows[0]!
      if (byQuery && byQuery.org_id !== row.org_id) throw validationError({ nodes: [tr(ctx.lang, 'Invalid pk "{pk}" - object does not exist.', { pk: byQuery.id })] })
      await nodeTree.placeMember(tx, row.org_id, String(id), given.length ? given : byQuery ? [byQuery.id] : [])
    },
  },
}

/** The combined list: every kind, read/update/delete; creating needs a kind's URL. */
export const assets: ResourceDef<'assets'> = {
  ...assetBase,
  // the detail (AssetDetail's Hardware card) carries the gathered hardware info, as a host's does; lists do not
  fields: [...assetBase.fields, { name: 'gathered_info', type: 'json', label: 'Gathered info', read_only: true, visible: (_ctx, action) => action === 'retrieve' }],
  verbs: ['list', 'retrieve', 'update', 'destroy', 'bulk_update', 'bulk_destroy', 'export'],
  refusals: { create: 'Cannot create asset directly, you should create a host or other' },
  actions: [{
    // lina's pickers (tickets, "select assets"): the first 10 matches of the current org, mini fields
    path: 'suggestions', detail: false, method: 'GET', perm: 'assets.match_asset',
    handler: (req, _reply, api) => api.listResponse(req, { only: ['id', 'name', 'address'], limit: 10, bare: true }),
  }],
}

const platformOf = (category: Category): FieldDef => ({
  name: 'platform', type: 'fk', label: 'Platform', required: true,
  relation: { resource: 'assets.platform', attrs: ['id', 'name'], query: category === 'custom' ? 'category=custom&type=custom' : `category=${category}`, limit: () => sql`t.category = ${category}` },
})

/**
 * One asset kind: its platforms, its own fields, and the accounts given on create (write-only rows, validated
 * each as the accounts resource checks a create, saved in the asset's transaction, "push now" queued after the
 * commit: server/resources/accounts/on-asset.ts). Not in files: an import names no accounts.
 */
function kind(category: Category, path: string, model: string, verboseName: string, fields: Array<FieldDef<AssetRow>> = []): ResourceDef<'assets'> {
  const def = kindOf(assetBase, {
    name: `assets.${model}`, model, verboseName, path: `/api/v1/assets/${path}/`,
    fields: [platformOf(category), ...fields],
    scope: () => sql`t.category = ${category}`,
    hooks: {
      async validate(values, ctx, info) {
        const errors = await validateAsset(values, ctx, info, category)
        const accountErrors = info.op === 'create' ? await prepareAssetAccounts(values, ctx, info.req?.body) : (delete values.accounts, undefined)
        return accountErrors ? { ...errors, accounts: accountErrors } : errors
      },
      async afterSave(tx, id, values, _ctx, info) {
        if (info.op !== 'create') return
        const org = (await sql<{ org_id: string }>`select org_id from assets where id = ${id}`.execute(tx)).rows[0]!.org_id
        pushLater.set(values, await saveAssetAccounts(tx, id, org, values, info.req))
      },
      // accounts marked "push now" go to the host once the asset and its accounts are committed
      async afterCommit(_id, values, _ctx, info) {
        const ids = pushLater.get(values)
        pushLater.delete(values)
        if (ids?.length) await pushAssetAccounts(ids, info.req).catch(() => undefined)
      },
    },
  })
  // the rows right after the protocols, as lina's form groups them ("Account": protocols, accounts)
  const ordered = def.fields.filter((f) => f.name !== 'accounts')
  ordered.splice(ordered.findIndex((f) => f.name === 'protocols') + 1, 0, assetAccountsField)
  return { ...def, fields: ordered, unexport: [...(def.unexport ?? []), 'accounts'] }
}

/** A host's hardware facts (JumpServer 3.2's HostGatheredInfoSerializer): gathered over SSH, or edited by hand
 * (lina's AssetMoreInformationEdit: `PATCH /api/v1/assets/hosts/<id>/ {gathered_info: {…}}`). */
const GATHERED_INFO_KEYS: [string, string][] = [
  ['vendor', 'Vendor'], ['model', 'Model'], ['sn', 'Serial number'], ['cpu_model', 'CPU model'], ['cpu_count', 'CPU count'],
  ['cpu_cores', 'CPU cores'], ['cpu_vcpus', 'CPU vcpus'], ['memory', 'Memory'], ['disk_total', 'Disk total'],
  ['distribution', 'OS'], ['distribution_version', 'OS version'], ['arch', 'OS arch'],
]

addMessages({
  'Vendor': ['制造商', 'ベンダー'], 'Serial number': ['序列号', 'シリアル番号'], 'CPU model': ['CPU 型号', 'CPU モデル'],
  'CPU count': ['CPU 数量', 'CPU 数'], 'CPU cores': ['CPU 核数', 'CPU コア数'], 'CPU vcpus': ['CPU 总数', 'vCPU 数'],
  'Model': ['型号', 'モデル'], 'OS': ['操作系统', 'OS'], 'OS version': ['系统版本', 'OS バージョン'],
  'Memory': ['内存', 'メモリ'], 'Disk total': ['硬盘大小', 'ディスク合計'], 'OS arch': ['系统架构', 'OS アーキテクチャ'],
})

export const hosts = kind('host', 'hosts', 'host', 'Host', [
  { name: 'address', type: 'string', label: 'IP/Host', required: true, max_length: 767 },
  {
    name: 'gathered_info', type: 'nested', label: 'Gathered info', required: false, default: {},
    children: GATHERED_INFO_KEYS.map(([name, label]) => ({ name, type: 'string', label, required: false, allow_blank: true, max_length: 1024 })),
  },
])
export const devices = kind('device', 'devices', 'device', 'Device')
export const databases = kind('database', 'databases', 'database', 'Database', [
  { name: 'db_name', type: 'string', label: 'Default database', max_length: 1024, allow_blank: true, default: '' },
  { name: 'use_ssl', type: 'boolean', label: 'Use SSL', default: false },
  { name: 'ca_cert', type: 'text', label: 'CA cert', allow_blank: true, default: '' },
  { name: 'client_cert', type: 'text', label: 'Client cert', allow_blank: true, default: '' },
  { name: 'client_key', type: 'text', label: 'Client key', allow_blank: true, default: '', write_only: true, secret: true },
  { name: 'allow_invalid_cert', type: 'boolean', label: 'Allow invalid cert', default: false },
])
export const clouds = kind('cloud', 'clouds', 'cloud', 'Cloud', [
  { name: 'address', type: 'url', label: 'URL', required: true, max_length: 767 },
])
export const webs = kind('web', 'webs', 'web', 'Web', [
  { name: 'address', type: 'url', label: 'URL', required: true, max_length: 767 },
  { name: 'autofill', type: 'labeled_choice', label: 'Autofill', default: 'basic', choices: [{ value: 'no', label: 'Disabled' }, { value: 'basic', label: 'Basic' }, { value: 'script', label: 'Script' }] },
  { name: 'username_selector', type: 'string', label: 'Username selector', max_length: 128, allow_blank: true, default: 'name=username' },
  { name: 'password_selector', type: 'string', label: 'Password selector', max_length: 128, allow_blank: true, default: 'name=password' },
  { name: 'submit_selector', type: 'string', label: 'Submit selector', max_length: 128, allow_blank: true, default: 'id=login_button' },
  { name: 'script', type: 'json', label: 'Script', default: () => [] },
])
export const customs = kind('custom', 'customs', 'custom', 'Custom', [
  {
    name: 'custom_info', type: 'json', label: 'Custom info', default: () => ({}),
    // OPTIONS with `?platform=` (or an asset's own platform) describes the platform's custom fields as sub-fields
    childrenFrom: {
      field: 'platform',
      children: async (value, ctx) => {
        const platform = Number.isSafeInteger(Number(value)) ? await platformById(ctx.db, Number(value)) : undefined
        return platform?.category === 'custom' ? customFieldDefs(platformCustomFields(platform)) : undefined
      },
    },
  },
])

export const ASSET_KINDS = [hosts, databases, devices, clouds, webs, customs]
