/**
 * What the conformance suites share: the registered resources (no hand-kept list), valid bodies generated from
 * OPTIONS (related objects created through their picker source, recursively), bad values per OPTIONS type, and
 * the subjects of the permission matrix (one user per built-in role).
 */
import { afterAll } from 'vitest'
import { allResources, findResource } from '../engine/registry.ts'
import { allows } from '../engine/routes.ts'
import type { ResourceDef } from '../engine/types.ts'
import { BUILTIN_ROLES, ORG_IDS, ROLE_IDS, type BuiltinRole } from '../rbac/catalog.ts'
import { createTestServer, type TestClient, type TestServer } from '../testing.ts'
import { optionsProblems } from './checks.ts'
import { setSettings } from '../settings/store.ts'

export const byName = (name: string) => findResource(name)
/** The resource of a list URL (a picker URL's query string, e.g. `?category=database`, ignored). */
export const byPath = (path: string) => allResources().find((d) => d.path === path.split('?')[0])

/** The filter of a picker URL (`related.url` with a query string) as body values. */
export const pickerQuery = (url: string): Record<string, string> => Object.fromEntries(new URLSearchParams(url.split('?')[1] ?? ''))

/**
 * The server a conformance file runs against, started while the file is collected (top-level await) so the
 * suites can iterate over every resource the app registered — through RESOURCES or any module's own
 * `registerResource` — with no list kept by hand. Closed after the file.
 */
export async function conformanceServer(): Promise<{ t: TestServer; admin: TestClient; resources: ResourceDef[] }> {
  const t = await createTestServer()
  afterAll(async () => { await t.close() })
  // These suites check permissions, input and files, not confirmations (server/security/secrets.test.ts does):
  // writes guarded by a fresh confirmation (secretGuard, sensitive exports) need none here.
  await setSettings(t.database.db, { SECURITY_VIEW_AUTH_NEED_MFA: false })
  const admin = await adminClient(t)
  return { t, admin, resources: allResources() }
}

export type Info = Record<string, any>
export type Body = Record<string, unknown>

export const MISSING_UUID = '00000000-1111-2222-3333-444444444444'
export const MISSING_SERIAL = 2_000_000_000

/** Bad values of a field, by its OPTIONS info: each must be refused with a 400 naming the field. */
export function badValues(info: Info): Array<{ why: string; value: unknown }> {
  const out: Array<{ why: string; value: unknown }> = []
  const add = (why: string, ...values: unknown[]) => { for (const value of values) out.push({ why, value }) }
  if (info.max_length) add('too long', 'x'.repeat(info.max_length + 1))
  const missingRef = info.related?.url && byPath(info.related.url)?.idKind === 'serial' ? MISSING_SERIAL : MISSING_UUID
  switch (info.type) {
    case 'string': case 'email': case 'url':
      add('wrong type', { a: 1 }, ['x'], true)
      add('NUL byte', 'a\u0000b')
      if (info.required) add('blank required', '')
      if (info.type === 'email') add('not an email', 'not-an-email')
      if (info.type === 'url') add('not a url', 'not a url')
      break
    case 'integer': case 'float':
      add('wrong type', 'abc', { a: 1 }, true)
      if (info.type === 'integer') add('not an integer', 1.5, 1e12)
      if (info.max_value !== undefined) add('above max', info.max_value + 1)
      if (info.min_value !== undefined) add('below min', info.min_value - 1)
      break
    case 'boolean': add('wrong type', 'maybe', { a: 1 }, [true], 2); break
    case 'datetime': add('wrong type', 'not a date', 12345, { a: 1 }, '2023-02-30T00:00:00Z'); add('NUL byte', '2023-01-01\u0000'); break
    case 'date': add('wrong type', 'not a date', 12345, '2023-02-30'); break
    case 'choice': case 'labeled_choice':
      add('unknown choice', 'no-such-choice', { value: 'zzz' }, [1], 3.5)
      if (!(info.choices as Info[] | undefined)?.some((c) => c.value === '')) add('empty string for a choice', '')
      add('NUL byte', 'a\u0000')
      break
    case 'multiple choice': add('unknown choice', ['no-such-choice'], 'x', [{ value: 'zzz' }]); break
    case 'm2m_related_field': add('unknown related id', [missingRef]); add('wrong type', [{}], 5, [true]); add('NUL byte', ['a\u0000']); break
    case 'object_related_field': add('unknown related id', missingRef); add('wrong type', {}, [], 3.5, true); add('NUL byte', 'a\u0000'); break
    case 'field':
      if (info.related) { add('unknown related id', missingRef); add('wrong type', {}, [], 3.5) }
      break
    case 'list': add('wrong type', 'x', { a: 1 }, 5); add('NUL byte', ['a\u0000']); break
    case 'nested object': add('wrong type', 'x', [1], 5); break
    case 'tree': add('unknown choice', ['no-such-leaf'], 'x'); break
    default: break
  }
  return out
}

let counter = 0
const next = () => ++counter

/**
 * Creates objects of any registered resource with bodies generated from its OPTIONS: required fields get simple
 * valid values, required related fields a fresh related object (created through the target's own list URL,
 * the picker source of the hint) or, when the target cannot be created, an existing one.
 */
/**
 * What OPTIONS cannot say about a valid body: the world that must exist first. A connection token is created only
 * for an asset, account and protocol a valid permission grants its creator (the administrator of these suites).
 */
const PREREQUISITES: Readonly<Record<string, (f: Factory, org: string, n: number) => Promise<Body>>> = {
  // Cloud sync: the scan provider needs a range to scan (inside the default allowed network; nothing is probed).
  'xpack.account': async () => ({ attrs: { ip_group: ['127.0.0.1'], port: [22] } }),
  'xpack.syncinstancetask': async () => ({ regions: ['127.0.0.1'] }),
  'authentication.connectiontoken': async (f, requestOrg, n) => {
    // Created from ROOT, the token's world lives in the default organization (as `body` puts org_id there).
    const org = requestOrg === ORG_IDS.ROOT ? ORG_IDS.DEFAULT : requestOrg
    const headers = { 'x-jms-org': org }
    const host = await f.create(byName('assets.host')!, org)
    const account = await f.admin.post('/api/v1/accounts/accounts/', { asset: host.id, name: `c${n}`, username: `c${n}`, secret_type: 'password' }, headers)
    if (account.statusCode !== 201) throw new Error(`account for a connection token: ${account.statusCode} ${account.body}`)
    const me = (await f.admin.get('/api/v1/users/profile/')).json() as Body
    // A permission names members of its organization: the administrator joins another one as an OrgUser.
    if (org !== ORG_IDS.DEFAULT && org !== ORG_IDS.ROOT) await f.admin.post('/api/v1/rbac/org-role-bindings/', { user: me.id, role: ROLE_IDS.OrgUser }, headers)
    const perm = await f.admin.post('/api/v1/perms/asset-permissions/', {
      name: `c${n}-grant`, users: [me.id], assets: [host.id], accounts: ['@ALL'], protocols: ['all'], actions: ['all'],
    }, headers)
    if (perm.statusCode !== 201) throw new Error(`permission for a connection token: ${perm.statusCode} ${perm.body}`)
    const protocol = (host.protocols as Array<{ name: string }> | undefined)?.[0]?.name ?? 'ssh'
    return { asset: host.id, account: `c${n}`, protocol }
  },
  // Temporary passwords exist while the AUTH_TEMP_TOKEN switch is on (server/profile/temp-tokens.ts).
  'authentication.temptoken': async (f) => {
    const on = await f.admin.patch('/api/v1/settings/setting/?category=auth', { AUTH_TEMP_TOKEN: true })
    if (on.statusCode !== 200) throw new Error(`AUTH_TEMP_TOKEN: ${on.statusCode} ${on.body}`)
    return {}
  },
  // A sharing belongs to its session's user: a session of the administrator's, so the administrator lists it.
  'terminal.sessionsharing': async (f, requestOrg) => {
    const org = requestOrg === ORG_IDS.ROOT ? ORG_IDS.DEFAULT : requestOrg
    const me = (await f.admin.get('/api/v1/users/profile/')).json() as Body
    const made = await f.admin.post('/api/v1/terminal/sessions/', { user: `${String(me.name)}(${String(me.username)})`, user_id: me.id, asset: 'shared', org_id: org }, { 'x-jms-org': org })
    if (made.statusCode !== 201) throw new Error(`session for a sharing: ${made.statusCode} ${made.body}`)
    return { session: made.json().id }
  },
  // A join is recorded for a live sharing with its verify code (a refused one answers 400 {error}).
  'terminal.sessionjoinrecord': async (f, org) => {
    const sharing = await f.create(byName('terminal.sessionsharing')!, org, { expired_time: 60, users: [] })
    const me = (await f.admin.get('/api/v1/users/profile/')).json() as Body
    return { sharing: sharing.id, verify_code: sharing.verify_code, joiner: me.id }
  },
}

export class Factory {
  private readonly meta = new Map<string, Promise<Record<string, Info>>>()
  constructor(readonly admin: TestClient) {}

  private headers(org: string) { return { 'x-jms-org': org } }

  postFields(def: ResourceDef, org: string): Promise<Record<string, Info>> {
    const key = `${def.path}|${org}`
    let m = this.meta.get(key)
    if (!m) {
      m = this.admin.options(def.path, this.headers(org)).then((r) => {
        if (r.statusCode !== 200) throw new Error(`OPTIONS ${def.path}: ${r.statusCode}`)
        return (r.json().actions?.POST ?? {}) as Record<string, Info>
      })
      this.meta.set(key, m)
    }
    return m
  }

  /** A valid value of one field (undefined: leave it out). */
  async value(info: Info, org: string, n: number): Promise<unknown> {
    const len = (s: string) => {
      const padded = typeof info.min_length === 'number' ? s.padEnd(info.min_length, 'x') : s
      return info.max_length ? padded.slice(0, info.max_length) : padded
    }
    switch (info.type) {
      case 'string': return len(`c${n}x`)
      case 'email': return `c${n}@example.com`
      case 'url': return 'https://example.com/'
      // A bounded integer varies within its bounds, so a unique one (an endpoint rule's priority) does not clash.
      case 'integer': case 'float': {
        const min = typeof info.min_value === 'number' ? info.min_value : undefined
        const max = typeof info.max_value === 'number' ? info.max_value : undefined
        return min !== undefined && max !== undefined && info.type === 'integer' ? min + (n % (max - min + 1)) : min ?? 1
      }
      case 'boolean': return true
      case 'datetime': return new Date(Date.now() + 86_400_000).toISOString()
      case 'date': return '2030-01-01'
      case 'choice': case 'labeled_choice': return (info.choices as Info[])[0]!.value
      case 'multiple choice': return [(info.choices as Info[])[0]!.value]
      case 'object_related_field': case 'field': case 'm2m_related_field': {
        const target = info.related?.url ? byPath(info.related.url) : undefined
        if (!target) return undefined
        const obj = await this.related(target, org, info.related!.url)
        return info.type === 'm2m_related_field' ? [obj.id] : obj.id
      }
      case 'list': return []
      default: return undefined
    }
  }

  /**
   * A target of a related field: a fresh one, or, when the picker URL filters the list (a platform of the
   * database category), the newest matching one — created with the filter's values when there is none.
   */
  private async related(target: ResourceDef, org: string, url = target.path): Promise<Body> {
    const query = pickerQuery(url)
    if (Object.keys(query).length) {
      const r = await this.admin.get(`${url}&limit=1`, this.headers(org))
      const first = r.json()?.results?.[0]
      if (first) return first
      return this.create(target, org, query)
    }
    if (allows(target, 'create')) return this.create(target, org)
    // A base resource without POST (assets): create through a resource on the same table that has one (hosts).
    const sibling = allResources().find((d) => d !== target && d.table === target.table && allows(d, 'create'))
    if (sibling) return this.create(sibling, org)
    return this.existing(target, org)
  }

  /** A valid create body (required fields only, plus overrides). */
  async body(def: ResourceDef, org: string, overrides: Body = {}): Promise<Body> {
    const fields = await this.postFields(def, org)
    const n = next()
    const prepared = PREREQUISITES[def.name]
    if (prepared) overrides = { ...(await prepared(this, org, n)), ...overrides }
    const body: Body = {}
    for (const [name, info] of Object.entries(fields)) {
      if (info.read_only || !info.required || name in overrides) continue
      const v = await this.value(info, org, n)
      if (v !== undefined) body[name] = v
    }
    if (org === ORG_IDS.ROOT && 'org_id' in fields) body.org_id = ORG_IDS.DEFAULT
    return { ...body, ...overrides }
  }

  async create(def: ResourceDef, org: string, overrides: Body = {}): Promise<Body> {
    const r = await this.admin.post(def.path, await this.body(def, org, overrides), this.headers(org))
    if (r.statusCode !== 201) throw new Error(`creating ${def.name} in ${org}: ${r.statusCode} ${r.body.slice(0, 300)}`)
    const made = r.json() as Body
    // a create answered with its background task rather than the object (applet host deployments, as 3.2): the newest
    return made?.id !== undefined ? made : this.existing(def, org)
  }

  /** An existing object (the newest the admin sees in that org). */
  async existing(def: ResourceDef, org: string): Promise<Body> {
    const r = await this.admin.get(`${def.path}?limit=1`, this.headers(org))
    const first = r.json()?.results?.[0]
    if (r.statusCode !== 200 || !first) throw new Error(`no ${def.name} in ${org}: ${r.statusCode} ${r.body.slice(0, 200)}`)
    return first
  }

  /** A fresh object when the resource can create one, else an existing one. */
  object(def: ResourceDef, org: string): Promise<Body> {
    return allows(def, 'create') ? this.create(def, org) : this.existing(def, org)
  }

  /**
   * Like `object`, but a read-only resource with no rows yet gives a missing id (`missing: true`): permission
   * checks come before the lookup, so refusals are still checked, and an allowed read answers 404.
   */
  objectOrMissing(def: ResourceDef, org: string): Promise<Body> {
    if (allows(def, 'create')) return this.create(def, org)
    return this.existing(def, org).catch(() => ({ id: def.idKind === 'serial' ? MISSING_SERIAL : MISSING_UUID, missing: true }))
  }
}

/** A client of the admin (SystemAdmin) in English. */
export async function adminClient(t: TestServer): Promise<TestClient> {
  const admin = await t.as('admin')
  admin.headers['accept-language'] = 'en'
  return admin
}

export interface Subject { role: BuiltinRole; userId: string; client: TestClient }

/**
 * One user per built-in role: system roles are bound at system scope only (member of no organization); org
 * roles are bound in `ownOrg` on top of the plain User system role.
 */
export async function makeSubjects(t: TestServer, ownOrg: string): Promise<Subject[]> {
  const out: Subject[] = []
  for (const role of BUILTIN_ROLES) {
    const username = `subject_${role.name.toLowerCase()}`
    const userId = role.scope === 'system'
      ? await t.createUser({ username, systemRoles: [role.id], orgRoles: [] })
      : await t.createUser({ username, systemRoles: [ROLE_IDS.User], orgRoles: [role.id], orgId: ownOrg })
    const client = await t.as(username)
    client.headers['accept-language'] = 'en'
    out.push({ role, userId, client })
  }
  return out
}

const USER_ROLE = BUILTIN_ROLES.find((r) => r.id === ROLE_IDS.User)!

/**
 * The catalogue's answer: the codenames a subject holds when permissions are checked in `checkOrg`
 * (system bindings always count; org bindings only in their own organization, never in ROOT).
 */
export function heldBy(role: BuiltinRole, checkOrg: 'own' | 'foreign' | 'root'): Set<string> {
  const held = new Set<string>(role.scope === 'system' ? role.perms() : USER_ROLE.perms())
  if (role.scope === 'org' && checkOrg === 'own') for (const p of role.perms()) held.add(p)
  return held
}

/** The OPTIONS answer of a URL in English, Chinese and Japanese, checked by `optionsProblems`. */
export async function fetchOptionsProblems(client: TestClient, path: string, org: string = ORG_IDS.DEFAULT): Promise<string[]> {
  const get = async (lang: string) => {
    const r = await client.options(path, { 'accept-language': lang, 'x-jms-org': org })
    if (r.statusCode !== 200) throw new Error(`OPTIONS ${path} (${lang}): ${r.statusCode} ${r.body.slice(0, 200)}`)
    return r.json()
  }
  const [en, zh, ja] = await Promise.all([get('en'), get('zh'), get('ja')])
  return optionsProblems(path, en, { zh, ja })
}
