/**
 * Settings → Terminal (contract §5.8, JumpServer 3.2 apps/terminal): replay and command storages with a real
 * "test" action, endpoints and endpoint rules with the rule matching a connection's endpoint (`…/endpoints/smart/`).
 * docs/terminal.md "Storages and endpoints".
 */
import { randomUUID } from 'node:crypto'
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import { ipMatches } from '../../auth/ip-match.ts'
import { sealerFor } from '../../auth/otp-store.ts'
import { decryptOrPlain } from '../../auth/secret.ts'
import type { ActionDef, Ctx, FieldDef, ResourceDef } from '../../engine/types.ts'
import { jsonObject, type Values } from '../../http/body.ts'
import type { RowOf } from '../../db/connection.ts'
import { defaultOf, isUuid, normUuid, parseValue } from '../../engine/parse.ts'
import { requireUser } from '../../http/context.ts'
import { ApiError } from '../../http/errors.ts'
import { tr } from '../../i18n.ts'
import { validIpGroup } from '../acls/rules.ts'
import { commentField, createdBy, dateCreated, dateUpdated, idField, updatedBy } from '../common.ts'
import { replayDir } from './components.ts'
import { StorageRefusal } from './replay-backend.ts'
import { backendOf, storageSealContext } from './replay-remote.ts'
import './storage-messages.ts'

// ------------------------------------------------------------------------------------------------ storages

const MAX_META_VALUE = 1024

/** An ES host: http(s)://host:port (JumpServer's command_storage_es_host_format_validator). */
function validEsHost(v: string): boolean {
  try {
    const u = new URL(v)
    return (u.protocol === 'http:' || u.protocol === 'https:') && !!u.hostname && /:\d+$/.test(u.host)
  } catch {
    return false
  }
}

const safePath = (v: string) => { try { return new URL(v).pathname } catch { return '' } }

/** An endpoint URL whose path must be empty (JumpServer: "Endpoint invalid: remove path"). */
function validEndpointUrl(v: string, ctx: Ctx): string | undefined {
  try {
    const u = new URL(v)
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return tr(ctx.lang, 'Enter a valid URL.')
    if (u.pathname && u.pathname !== '/') return tr(ctx.lang, 'Endpoint invalid: remove path `{path}`', { path: safePath(v) })
    return undefined
  } catch {
    return tr(ctx.lang, 'Enter a valid URL.')
  }
}

/** A blob endpoint: an http(s) URL, a path allowed (Azurite names the account there), no query. */
function validBlobEndpoint(v: string, ctx: Ctx): string | undefined {
  try {
    const u = new URL(v)
    return (u.protocol === 'http:' || u.protocol === 'https:') && !u.search && !u.hash && !u.username ? undefined : tr(ctx.lang, 'Enter a valid URL.')
  } catch {
    return tr(ctx.lang, 'Enter a valid URL.')
  }
}

/**
 * The keys of a storage kind's `meta`, declared as engine fields and parsed by the engine's own field machinery
 * (server/engine/parse.ts): strings bounded, booleans and choices as DRF reads them; a secret is `secret` (kept
 * sealed, answered only as `<KEY>_SET`).
 */
const text = (key: string, label: string, o: Partial<FieldDef> = {}): FieldDef => ({ name: key, type: 'string', label, max_length: MAX_META_VALUE, ...o })
const BUCKET = text('BUCKET', 'Bucket', { required: true })
const ACCESS_KEY = text('ACCESS_KEY', 'Access key id')
/** A secret: kept as given (never trimmed), bounded, sealed when stored. */
const secret = (key: string, label: string, required = false): FieldDef => text(key, label, {
  required, secret: true, write_only: true,
  parse: (v, ctx) => (typeof v !== 'string' ? { error: tr(ctx.lang, 'Not a valid string.') }
    : v.length > MAX_META_VALUE ? { error: tr(ctx.lang, 'Ensure this field has no more than {n} characters.', { n: MAX_META_VALUE }) } : { value: v }),
})
const SECRET_KEY = secret('SECRET_KEY', 'Access key secret')
const endpoint = (required: boolean, url = true): FieldDef => text('ENDPOINT', 'Endpoint', { required, ...(url ? { validate: (v: string, ctx: Ctx) => validEndpointUrl(v, ctx) } : {}) })
const choice = (key: string, label: string, values: string[], dflt: string): FieldDef =>
  ({ name: key, type: 'choice', label, choices: values.map((v) => ({ value: v, label: v })), default: dflt })
const flag = (key: string, label: string): FieldDef => ({ name: key, type: 'boolean', label, default: false })

/** ES hosts: a list (or comma-separated text) of 1–20 `http(s)://host:port`. */
const HOSTS: FieldDef = {
  name: 'HOSTS', type: 'list', label: 'Hosts', required: true, child: { name: 'HOSTS', type: 'string' },
  parse: (v, ctx) => {
    const list = typeof v === 'string' ? v.split(',').map((x) => x.trim()).filter(Boolean) : v
    if (!Array.isArray(list) || list.length === 0 || list.length > 20) return { error: tr(ctx.lang, 'This field is required.') }
    const bad = list.find((h) => typeof h !== 'string' || h.length > MAX_META_VALUE || !validEsHost(h))
    return bad !== undefined ? { error: tr(ctx.lang, 'The address format is incorrect') } : { value: list }
  },
}

/** Keys of each kind (JumpServer's ReplayStorageType*Serializer / CommandStorageTypeESSerializer). */
export const REPLAY_KINDS: Record<string, FieldDef[]> = {
  null: [],
  server: [],
  s3: [BUCKET, ACCESS_KEY, SECRET_KEY, endpoint(true)],
  ceph: [BUCKET, ACCESS_KEY, SECRET_KEY, endpoint(true)],
  swift: [BUCKET, ACCESS_KEY, SECRET_KEY, endpoint(true), text('REGION', 'Region', { required: true }), choice('PROTOCOL', 'Protocol', ['http', 'https'], 'http')],
  oss: [BUCKET, ACCESS_KEY, SECRET_KEY, endpoint(false)],
  azure: [text('CONTAINER_NAME', 'Container name', { required: true }), text('ACCOUNT_NAME', 'Account name', { required: true }),
    secret('ACCOUNT_KEY', 'Account key', true),
    choice('ENDPOINT_SUFFIX', 'Endpoint suffix', ['core.chinacloudapi.cn', 'core.windows.net'], 'core.chinacloudapi.cn'),
    // not JumpServer's: a full blob endpoint instead of https://<account>.blob.<suffix> (Azure Stack, Azurite)
    text('ENDPOINT', 'Blob endpoint', { help_text: 'Optional: a full blob endpoint (Azure Stack, a private endpoint) instead of https://<account>.blob.<endpoint suffix>.', validate: (v: string, ctx: Ctx) => validBlobEndpoint(v, ctx) })],
  obs: [BUCKET, ACCESS_KEY, SECRET_KEY, endpoint(false, false)],
  cos: [BUCKET, ACCESS_KEY, SECRET_KEY, endpoint(true)],
}

export const COMMAND_KINDS: Record<string, FieldDef[]> = {
  null: [],
  server: [],
  es: [HOSTS, flag('INDEX_BY_DATE', 'Index by date'), text('INDEX', 'Index', { default: 'jumpserver' }), flag('IGNORE_VERIFY_CERTS', 'Ignore Certificate Verification')],
}

const KIND_LABELS: Record<string, string> = {
  null: 'Null', server: 'Server', s3: 'S3', ceph: 'Ceph', swift: 'Swift', oss: 'OSS', azure: 'Azure', obs: 'OBS', cos: 'COS', es: 'Elasticsearch',
}

/**
 * Validates a kind's meta with the engine's parsing of its declared keys: unknown keys, required keys (a secret
 * already stored counts; a key not given keeps its stored value, else its default), types and bounds. Secrets
 * come hybrid-encrypted (contract §6) or plain. Answers the cleaned meta (plain secrets) or errors per key.
 */
function checkMeta(kinds: Record<string, FieldDef[]>, type: string, raw: unknown, stored: Values, ctx: Ctx): { meta: Values } | { errors: Record<string, unknown> } {
  const keys = kinds[type] ?? []
  const errors: Record<string, unknown> = {}
  const input = raw === undefined || raw === null ? {} : raw
  if (typeof input !== 'object' || Array.isArray(input)) return { errors: { meta: [tr(ctx.lang, 'Invalid data. Expected a dictionary.')] } }
  const given = input as Record<string, unknown>
  const meta: Values = {}
  for (const k of Object.keys(given)) {
    if (!keys.some((f) => f.name === k)) errors[k] = [tr(ctx.lang, 'Unknown key for this type.')]
  }
  const absent = (v: unknown) => v === undefined || v === null || v === ''
  for (const f of keys) {
    let v = given[f.name]
    if (f.secret) {
      if (absent(v)) {
        if (f.required && !stored[f.name]) errors[f.name] = [tr(ctx.lang, 'This field is required.')]
        continue
      }
      // the wire form is longer than the secret (hybrid encryption): bounded before it is opened
      if (typeof v === 'string') {
        if (v.length > 4 * MAX_META_VALUE) { errors[f.name] = [tr(ctx.lang, 'Ensure this field has no more than {n} characters.', { n: MAX_META_VALUE })]; continue }
        v = decryptOrPlain(v, ctx.session?.data.privateKey)
      }
    } else {
      if (absent(v)) v = stored[f.name] ?? defaultOf(f)
      if (absent(v)) {
        if (f.required) errors[f.name] = [tr(ctx.lang, 'This field is required.')]
        continue
      }
    }
    const r = parseValue(f, v, ctx)
    if (r.ok) meta[f.name] = r.value
    else errors[f.name] = r.error
  }
  return Object.keys(errors).length ? { errors } : { meta }
}

const secretKeys = (kinds: Record<string, FieldDef[]>, type: string) => (kinds[type] ?? []).filter((f) => f.secret).map((f) => f.name)

/** The meta as answered: secrets left out, with `<KEY>_SET` telling whether one is stored. */
function publicMeta(kinds: Record<string, FieldDef[]>, row: Pick<StorageRow, 'meta' | 'type'>): Values {
  const meta = jsonObject(row.meta) ?? {}
  const secrets = secretKeys(kinds, row.type)
  const out: Values = {}
  for (const [k, v] of Object.entries(meta)) if (!secrets.includes(k)) out[k] = v
  for (const k of secrets) out[`${k}_SET`] = typeof meta[k] === 'string' && meta[k] !== ''
  return out
}

const sealContext = storageSealContext

/** The stored meta with its secrets opened (for the "test" action). */
function openMeta(req: FastifyRequest, kinds: Record<string, FieldDef[]>, table: StorageTable, row: StorageRow): Values {
  const meta = { ...jsonObject(row.meta) }
  const sealer = sealerFor(req.server.services.config)
  for (const k of secretKeys(kinds, row.type)) {
    const v = meta[k]
    if (typeof v === 'string' && v !== '') meta[k] = sealer.open(v, sealContext(table, row.id, k))
  }
  return meta
}

interface TestResult { is_valid: boolean; msg: string }

/** A connection's failure as a user reads it: its error code (ECONNREFUSED, …), else its message. */
function errorText(e: unknown): string {
  const code = (e as { code?: string }).code ?? (e as { cause?: { code?: string } }).cause?.code
  return code ?? (e instanceof Error ? e.message : String(e))
}
type StorageTable = 'replay_storages' | 'command_storages'
type StorageRow = RowOf<StorageTable>

/** Any HTTP answer from the URL within 5 s (a bounded, real request from the server). */
async function reachable(url: string, init: RequestInit = {}): Promise<{ ok: boolean; status?: number; error?: string }> {
  try {
    const r = await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(5000) })
    await r.body?.cancel().catch(() => undefined)
    return { ok: true, status: r.status }
  } catch (e) {
    const cause = (e as { cause?: { code?: string; message?: string } }).cause
    return { ok: false, error: cause?.code ?? cause?.message ?? (e as Error).name }
  }
}

async function testReplay(req: FastifyRequest, row: StorageRow): Promise<TestResult> {
  const lang = req.ctx.lang
  const type = String(row.type)
  if (type === 'null') return { is_valid: true, msg: tr(lang, 'Replays are not kept.') }
  if (type === 'server') {
    // The replay directory takes a file for real: written, then removed.
    const dir = replayDir(req.server.services.config.dataDir)
    const probe = join(dir, `.probe-${randomUUID()}`)
    try {
      await mkdir(dir, { recursive: true })
      await writeFile(probe, 'probe', { mode: 0o600 })
      return { is_valid: true, msg: tr(lang, 'The replay directory is writable.') }
    } catch (e) {
      return { is_valid: false, msg: tr(lang, 'The replay directory is not writable: {error}', { error: (e as NodeJS.ErrnoException).code ?? 'error' }) }
    } finally {
      await rm(probe, { force: true })
    }
  }
  const meta = openMeta(req, REPLAY_KINDS, 'replay_storages', row)
  // the kinds with a backend (S3 family, azure): a test object is written, read back and removed, signed with the
  // storage's keys (as JumpServer's is_valid uploads a file) — what uploading a replay needs, not only a reachable host
  const backend = backendOf(type, meta)
  if (backend) {
    const key = `.connectivity-test-${randomUUID()}`
    const body = Buffer.from(`replay storage test ${new Date().toISOString()}\n`)
    let step = tr(lang, 'writing')
    try {
      await backend.putBytes(key, body, 'text/plain')
      step = tr(lang, 'reading')
      const size = await backend.head(key)
      if (size !== body.length) throw new StorageRefusal(200, 'ReadBack', `the test object reads back as ${size ?? 'missing'}`)
      step = tr(lang, 'removing')
      await backend.delete(key)
      return type === 'azure'
        ? { is_valid: true, msg: tr(lang, 'A test blob was written to container {container}, read back and removed.', { container: backend.place }) }
        : { is_valid: true, msg: tr(lang, 'A test object was written to bucket {bucket}, read back and removed.', { bucket: backend.place }) }
    } catch (e) {
      if (!(e instanceof StorageRefusal)) return { is_valid: false, msg: tr(lang, 'The storage endpoint cannot be reached: {error}', { error: errorText(e) }) }
      return { is_valid: false, msg: tr(lang, 'The replay storage refused the test ({step}): {error}', { step, error: e.message }) }
    }
  }
  let url: string
  if (meta.ENDPOINT) {
    const base = String(meta.ENDPOINT).includes('://') ? String(meta.ENDPOINT) : `https://${String(meta.ENDPOINT)}`
    url = `${base.replace(/\/+$/, '')}/${encodeURIComponent(String(meta.BUCKET ?? ''))}`
  } else return { is_valid: false, msg: tr(lang, 'No endpoint is set.') }
  const r = await reachable(url, { method: 'HEAD' })
  if (!r.ok) return { is_valid: false, msg: tr(lang, 'The storage endpoint cannot be reached: {error}', { error: r.error ?? '' }) }
  if (r.status! >= 500) return { is_valid: false, msg: tr(lang, 'The storage endpoint answered {status}.', { status: r.status! }) }
  return { is_valid: true, msg: tr(lang, 'The storage endpoint answered {status}.', { status: r.status! }) }
}

async function testCommand(req: FastifyRequest, row: StorageRow): Promise<TestResult> {
  const lang = req.ctx.lang
  const type = String(row.type)
  if (type === 'null') return { is_valid: true, msg: tr(lang, 'Commands are not kept.') }
  if (type === 'server') {
    await sql`select 1 from commands limit 1`.execute(req.ctx.db)
    return { is_valid: true, msg: tr(lang, 'Commands are stored in the database.') }
  }
  // Elasticsearch: every host answers its root (ES ping) with 200.
  const meta = openMeta(req, COMMAND_KINDS, 'command_storages', row)
  const hosts = Array.isArray(meta.HOSTS) ? (meta.HOSTS as string[]) : []
  for (const h of hosts) {
    const r = await reachable(h.replace(/\/+$/, '') + '/', { method: 'GET', headers: { accept: 'application/json' } })
    if (!r.ok) return { is_valid: false, msg: tr(lang, 'The storage endpoint cannot be reached: {error}', { error: `${h} ${r.error ?? ''}` }) }
    if (r.status !== 200) return { is_valid: false, msg: tr(lang, 'The storage endpoint answered {status}.', { status: r.status! }) }
  }
  return { is_valid: hosts.length > 0, msg: tr(lang, 'The storage endpoint answered {status}.', { status: 200 }) }
}

function storage(opts: { name: string; model: string; verboseName: string; path: string; table: StorageTable; kinds: Record<string, FieldDef[]>;
  terminalColumn: string; test: (req: FastifyRequest, row: StorageRow) => Promise<TestResult> }): ResourceDef<StorageTable> {
  const { kinds, table } = opts
  const testAction: ActionDef<StorageRow> = {
    path: 'test-connective', detail: true, method: 'GET', perm: `terminal.view_${opts.model}`,
    handler: async (req, _reply, api, id) => opts.test(req, await api.getObject(req, id!)),
  }
  const fields: Array<FieldDef<StorageRow>> = [
    idField(),
    { name: 'name', type: 'string', label: 'Name', required: true, max_length: 128, unique: true },
    { name: 'type', type: 'labeled_choice', label: 'Type', default: 'server', choices: Object.keys(kinds).map((k) => ({ value: k, label: KIND_LABELS[k] ?? k })) },
    { name: 'meta', type: 'json', label: 'Meta', required: false, default: {}, help_text: 'Settings of the type. Secrets are never shown: leave one empty to keep the stored one.',
      get: (row) => publicMeta(kinds, row),
      // the form edits the type's own keys as typed inputs (issue 35: a JSON text area); a type without keys has none
      childrenFrom: { field: 'type', children: async (v) => (kinds[String(v)]?.length ? kinds[String(v)] : undefined) } },
    { name: 'is_default', type: 'boolean', label: 'Default storage', default: false },
    commentField, createdBy, updatedBy, dateCreated, dateUpdated,
  ]
  return {
    name: `terminal.${opts.model}`,
    app: 'terminal',
    model: opts.model,
    verboseName: opts.verboseName,
    path: opts.path,
    table,
    systemPerms: true,
    fields,
    search: ['name', 'type'],
    filters: ['name', 'type', 'is_default'],
    ordering: { fields: ['name', 'type', 'is_default', 'date_created'], default: ['name'] },
    sizes: { mini: ['id', 'name'], small: ['id', 'name', 'type', 'is_default'] },
    actions: [testAction],
    hooks: {
      validate: (values, ctx, info) => {
        const type = String(values.type ?? info.existing?.type ?? 'server')
        // A changed type starts from an empty meta; the same type keeps the stored keys not given again.
        const stored = info.existing && info.existing.type === type ? (jsonObject(info.existing.meta) ?? {}) : {}
        if (values.meta === undefined && values.type === undefined && info.op === 'update') return undefined
        const r = checkMeta(kinds, type, values.meta, stored, ctx)
        if ('errors' in r) return { meta: r.errors }
        values.meta = r.meta
        return undefined
      },
      columns: async (values, _ctx, info) => {
        const out: Values = {}
        const id = info.existing?.id ?? randomUUID()
        if (info.op === 'create') out.id = id
        if (values.meta !== undefined) {
          const type = String(values.type ?? info.existing?.type ?? 'server')
          const stored = info.existing && info.existing.type === type ? (jsonObject(info.existing.meta) ?? {}) : {}
          const sealer = sealerFor(info.req!.server.services.config)
          const meta: Values = { ...jsonObject(values.meta) }
          for (const k of secretKeys(kinds, type)) {
            const v = meta[k]
            if (typeof v === 'string' && v !== '') meta[k] = sealer.seal(v, sealContext(table, id, k))
            else if (stored[k]) meta[k] = stored[k]
          }
          out.meta = JSON.stringify(meta)
        }
        // One default storage: making this one the default takes it from the other.
        if (values.is_default === true) await sql`update ${sql.table(table)} set is_default = false where is_default and id <> ${id}::uuid`.execute(info.tx)
        return out
      },
      beforeDelete: async (tx, row, ctx) => {
        if (row.is_default) throw new ApiError(400, { detail: tr(ctx.lang, 'Deleting the default storage is not allowed'), code: 'storage_default' })
        const used = await sql`select 1 from terminals where ${sql.ref(opts.terminalColumn)} in (${String(row.name)}, ${String(row.id)}) and not is_deleted limit 1`.execute(tx)
        if (used.rows.length) throw new ApiError(400, { detail: tr(ctx.lang, 'Cannot delete storage that is being used'), code: 'storage_in_use' })
        // replays kept there would be lost to the audit
        if (table === 'replay_storages') {
          const holds = await sql`select 1 from terminal_sessions where replay_storage_id = ${String(row.id)} limit 1`.execute(tx)
          if (holds.rows.length) throw new ApiError(400, { detail: tr(ctx.lang, 'Cannot delete a replay storage that holds replays'), code: 'storage_in_use' })
        }
      },
    },
  }
}

export const replayStorages = storage({
  name: 'replay', model: 'replaystorage', verboseName: 'Replay storage', path: '/api/v1/terminal/replay-storages/', table: 'replay_storages',
  kinds: REPLAY_KINDS, terminalColumn: 'replay_storage', test: testReplay,
})

export const commandStorages = storage({
  name: 'command', model: 'commandstorage', verboseName: 'Command storage', path: '/api/v1/terminal/command-storages/', table: 'command_storages',
  kinds: COMMAND_KINDS, terminalColumn: 'command_storage', test: testCommand,
})

// ------------------------------------------------------------------------------------------------ endpoints

export const DEFAULT_ENDPOINT = '00000000-0000-0000-0000-000000000001'
type PortName = 'https_port' | 'http_port' | 'ssh_port' | 'rdp_port' | 'mysql_port' | 'mariadb_port' | 'postgresql_port' | 'redis_port'
const PORTS: Array<[PortName, string, number]> = [
  ['https_port', 'HTTPS port', 443], ['http_port', 'HTTP port', 80], ['ssh_port', 'SSH port', 2222], ['rdp_port', 'RDP port', 3389],
  ['mysql_port', 'MySQL port', 33061], ['mariadb_port', 'MariaDB port', 33062], ['postgresql_port', 'PostgreSQL port', 54320], ['redis_port', 'Redis port', 63790],
]
/** Magnus's Oracle listening ports (JumpServer's MAGNUS_ORACLE_PORTS default). */
const ORACLE_PORTS = '30000-30030'

export const endpoints: ResourceDef<'endpoints'> = {
  name: 'terminal.endpoint',
  app: 'terminal',
  model: 'endpoint',
  verboseName: 'Endpoint',
  path: '/api/v1/terminal/endpoints/',
  table: 'endpoints',
  systemPerms: true,
  fields: [
    idField(),
    { name: 'name', type: 'string', label: 'Name', required: true, max_length: 128, unique: true },
    { name: 'host', type: 'string', label: 'Host', max_length: 256, allow_blank: true, default: '', required: false,
      help_text: 'The host users connect to; empty: the address the browser used.',
      validate: (v: string, ctx) => (v && !/^[A-Za-z0-9.:\-[\]]+$/.test(v) ? tr(ctx.lang, 'Enter a valid host name or IP address.') : undefined) },
    ...PORTS.map(([name, label, def]): FieldDef => ({ name, type: 'integer', label, default: def, min_value: 0, max_value: 65535, required: false,
      help_text: '0: not offered through this endpoint' })),
    { name: 'oracle_port_range', type: 'string', label: 'Oracle port range', read_only: true, column: false, get: () => ORACLE_PORTS },
    commentField, createdBy, updatedBy, dateCreated, dateUpdated,
  ],
  search: ['name', 'host'],
  filters: ['name', 'host'],
  ordering: { fields: ['name', 'host', 'date_created'], default: ['name'] },
  sizes: { mini: ['id', 'name'], small: ['id', 'name', 'host'] },
  hooks: {
    beforeDelete: async (_tx, row, ctx) => {
      if (String(row.id) === DEFAULT_ENDPOINT) throw new ApiError(400, { detail: tr(ctx.lang, 'The default endpoint cannot be deleted.'), code: 'endpoint_default' })
    },
  },
}

export const endpointRules: ResourceDef<'endpoint_rules'> = {
  name: 'terminal.endpointrule',
  app: 'terminal',
  model: 'endpointrule',
  verboseName: 'Endpoint rule',
  path: '/api/v1/terminal/endpoint-rules/',
  table: 'endpoint_rules',
  systemPerms: true,
  fields: [
    idField(),
    { name: 'name', type: 'string', label: 'Name', required: true, max_length: 128, unique: true },
    { name: 'ip_group', type: 'list', label: 'IP group', default: ['*'], required: false,
      help_text: 'Target IP addresses of the connection: *, an address, a CIDR subnet or a range (10.0.0.1-10.0.0.9).',
      child: { name: 'ip_group', type: 'string', max_length: 1024 }, validate: (v: string[], ctx) => (v.length === 0 ? tr(ctx.lang, 'This list may not be empty.') : v.length > 100 ? tr(ctx.lang, 'Ensure this field has no more than {max} elements.', { max: 100 }) : validIpGroup(v, ctx)) },
    { name: 'priority', type: 'integer', label: 'Priority', required: true, min_value: 1, max_value: 100, unique: true, help_text: '1-100, the lower the value will be match first' },
    { name: 'endpoint', type: 'fk', label: 'Endpoint', required: false, allow_null: true, relation: { resource: 'terminal.endpoint' } },
    commentField, createdBy, updatedBy, dateCreated, dateUpdated,
  ],
  search: ['name'],
  filters: ['name', 'priority', { name: 'endpoint', apply: (v) => (isUuid(v) ? sql`t.endpoint_id = ${normUuid(v)}` : sql`false`) }],
  ordering: { fields: ['priority', 'name', 'date_created'], default: ['priority', 'name'] },
  sizes: { mini: ['id', 'name'], small: ['id', 'name', 'priority'] },
  display: (r) => `${String(r.name)}(${String(r.priority)})`,
}

/**
 * The endpoint a connection to `target_ip` over `protocol` goes to (JumpServer's EndpointRule.match_endpoint):
 * the first rule by priority whose IP group holds the target and whose endpoint has a host and a port for the
 * protocol; else the default endpoint. An empty host is the host the request came to.
 */
/** An endpoint as a component reads it: its host and a port per protocol. */
export type EndpointAnswer = Pick<RowOf<'endpoints'>, 'id' | 'name' | 'host'> & Record<PortName, number> & { oracle_port_range: string }

export async function matchEndpoint(req: FastifyRequest, targetIp: string, protocol: string): Promise<EndpointAnswer> {
  const db = req.ctx.db
  const portCol = `${protocol}_port`
  const hasPort = PORTS.some(([n]) => n === portCol)
  const rules = await sql<RowOf<'endpoints'> & Pick<RowOf<'endpoint_rules'>, 'ip_group'>>`select r.ip_group, e.* from endpoint_rules r join endpoints e on e.id = r.endpoint_id order by r.priority, r.name`.execute(db)
  let chosen: Partial<RowOf<'endpoints'>> & Pick<RowOf<'endpoints'>, 'id' | 'name' | 'host'> | undefined
  for (const r of rules.rows) {
    if (!targetIp || !ipMatches(targetIp, r.ip_group)) continue
    const isDefault = String(r.id) === DEFAULT_ENDPOINT
    if (!isDefault && (!r.host || (hasPort && Number(r[portCol as PortName]) === 0))) continue
    chosen = r
    break
  }
  if (!chosen) chosen = (await sql<RowOf<'endpoints'>>`select * from endpoints where id = ${DEFAULT_ENDPOINT}`.execute(db)).rows[0] ?? { id: DEFAULT_ENDPOINT, name: 'Default', host: '' }
  const ports = Object.fromEntries(PORTS.map(([n]) => [n, Number(chosen[n] ?? 0)])) as Record<PortName, number>
  return { id: chosen.id, name: chosen.name, host: chosen.host || hostOf(req), ...ports, oracle_port_range: ORACLE_PORTS }
}

function hostOf(req: FastifyRequest): string {
  const h = req.hostname ?? ''
  return h.startsWith('[') ? h.slice(0, h.indexOf(']') + 1) : h.split(':')[0] ?? ''
}

/** `GET /api/v1/terminal/endpoints/smart/?target_ip=&asset_id=&protocol=`: any signed-in user (or component). */
export async function registerEndpointRoutes(app: FastifyInstance): Promise<void> {
  for (const url of ['/api/v1/terminal/endpoints/smart/', '/api/v1/terminal/endpoints/smart']) {
    app.get(url, async (req) => {
      requireUser(req)
      const q = (req.query ?? {}) as Record<string, unknown>
      const protocol = typeof q.protocol === 'string' ? q.protocol.toLowerCase().slice(0, 32) : ''
      let target = typeof q.target_ip === 'string' ? q.target_ip.trim().slice(0, 64) : ''
      if (!target && typeof q.asset_id === 'string' && isUuid(q.asset_id)) {
        const has = await sql<{ t: string | null }>`select to_regclass('assets')::text as t`.execute(req.ctx.db)
        if (has.rows[0]?.t) {
          const a = await sql<{ address: string }>`select address from assets where id = ${normUuid(q.asset_id)}`.execute(req.ctx.db)
          target = a.rows[0]?.address ?? ''
        }
      }
      return matchEndpoint(req, target, protocol)
    })
  }
}
