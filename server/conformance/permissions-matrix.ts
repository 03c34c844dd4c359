/**
 * The leak matrix (issue 16) and the permission conformance of issue 9, generated from the permission catalogue
 * and the resource declarations: every registered resource × every built-in role × list, retrieve, create,
 * update, delete, export, import × own organization, a foreign one and ROOT, and every special action of the
 * resource — allowed exactly where the catalogue says. Objects of a foreign organization never show through,
 * and the escalation paths between roles stay closed.
 * The matrix is the longest server test: it runs in parts (permissions-<n>.test.ts), each on its own server and
 * database and a share of the resources, so Vitest's workers share it out instead of one worker taking it all.
 */
import type { LightMyRequestResponse } from 'fastify'
import { sql } from 'kysely'
import { beforeAll, describe, expect, it } from 'vitest'
import { permOf } from '../engine/fields.ts'
import { allows } from '../engine/routes.ts'
import type { PermAction, ResourceDef, Verb } from '../engine/types.ts'
import type { Values } from '../http/body.ts'
import { ORG_IDS, ROLE_IDS, satisfies } from '../rbac/catalog.ts'
import { dbKind } from '../testing.ts'
import { Factory, heldBy, makeSubjects, type conformanceServer, type Subject } from './harness.ts'

type OrgCase = 'own' | 'foreign' | 'root'
const ORG_CASES: OrgCase[] = ['own', 'foreign', 'root']
const DENIED = 'You do not have permission to perform this action.'

interface Outcome { role: string; resource: string; what: string; org: OrgCase; method: string; status: number; expected: boolean }

/** A refusal by the permission check (hooks may refuse with other 403s, e.g. built-in roles). */
function permissionDenied(r: LightMyRequestResponse): boolean {
  if (r.statusCode !== 403) return false
  const body = r.json() as { code?: string; detail?: string }
  return body.code === 'permission_denied' && body.detail === DENIED
}

const VERB_KIND: Array<{ verb: Verb; kind: PermAction; what: string }> = [
  { verb: 'list', kind: 'view', what: 'list' },
  { verb: 'retrieve', kind: 'view', what: 'retrieve' },
  { verb: 'export', kind: 'view', what: 'export' },
  { verb: 'create', kind: 'add', what: 'create' },
  { verb: 'update', kind: 'change', what: 'update' },
  { verb: 'destroy', kind: 'delete', what: 'delete' },
  { verb: 'import', kind: 'import_add', what: 'import' },
  { verb: 'bulk_update', kind: 'change', what: 'bulk update' },
  { verb: 'bulk_destroy', kind: 'delete', what: 'bulk delete' },
]

/** Where the engine checks a kind: system-scope resources (and ROOT requests) count system bindings only. */
function checkOrg(def: ResourceDef, org: OrgCase, kind?: PermAction, systemAction = false): OrgCase {
  if (org === 'root' || def.systemPerms || systemAction || (kind && def.systemPermFor?.includes(kind))) return 'root'
  return org
}

/** Part `part` (0-based) of `parts` of the matrix: every `parts`-th resource; the escalation checks in part 0. */
export function permissionMatrix(s: Awaited<ReturnType<typeof conformanceServer>>, part: number, parts: number): void {
  const RESOURCES = s.resources.filter((_, i) => i % parts === part)
  describe(`permissions and leaks of every resource, part ${part + 1} of ${parts} (${dbKind()})`, () => {
    let foreignOrg = ''
    let subjects: Subject[] = []
    const factory = new Factory(s.admin)
    const orgId = (o: OrgCase) => (o === 'own' ? ORG_IDS.DEFAULT : o === 'foreign' ? foreignOrg : ORG_IDS.ROOT)
    const outcomes: Outcome[] = []

    beforeAll(async () => {
      const org = await s.admin.post('/api/v1/orgs/orgs/', { name: 'Foreign' })
      expect(org.statusCode, org.body).toBe(201)
      foreignOrg = org.json().id
      subjects = await makeSubjects(s.t, ORG_IDS.DEFAULT)
      // Something in the foreign organization for the read-only resources (operate logs) to show.
      await s.admin.post('/api/v1/users/groups/', { name: 'foreign-group' }, { 'x-jms-org': foreignOrg })
    })

    /** An object of the resource in the org of a case (ROOT uses the own org's objects). */
    const samples = new Map<string, Promise<Values>>()
    const sample = (def: ResourceDef, org: OrgCase) => {
      const key = `${def.name}|${org === 'root' ? 'own' : org}`
      if (!samples.has(key)) samples.set(key, factory.objectOrMissing(def, orgId(org === 'root' ? 'own' : org)))
      return samples.get(key)!
    }
    const fresh = (def: ResourceDef, org: OrgCase) => factory.objectOrMissing(def, orgId(org === 'root' ? 'own' : org))

    it.each(RESOURCES.map((d) => [d.path, d] as const))('%s: each built-in role × verb × own, foreign and root org is allowed exactly as the catalogue says', async (path, def) => {
      const problems: string[] = []
      for (const subject of subjects) {
        for (const org of ORG_CASES) {
          const headers = { 'x-jms-org': orgId(org) }
          const obj = await sample(def, org)
          for (const { verb, kind, what } of VERB_KIND) {
            if (!allows(def, verb)) continue
            const held = heldBy(subject.role, checkOrg(def, org, kind))
            // An upload is refused before it is read unless the subject may import new or changed objects (which
            // of the two the file needs is known only after reading it).
            const expected = satisfies(held, permOf(def, kind)) || (kind === 'import_add' && satisfies(held, permOf(def, 'import_change')))
            let r: LightMyRequestResponse
            let target = obj
            if ((what === 'delete' || what === 'bulk delete') && expected) target = await fresh(def, org)
            switch (what) {
              case 'list': r = await subject.client.get(path, headers); break
              case 'retrieve': r = await subject.client.get(`${path}${obj.id}/`, headers); break
              case 'export': r = await subject.client.get(`${path}?format=csv`, headers); break
              case 'create': r = await subject.client.post(path, await factory.body(def, orgId(org)), headers); break
              case 'update': r = await subject.client.patch(`${path}${obj.id}/`, {}, headers); break
              case 'delete': r = await subject.client.delete(`${path}${target.id}/`, headers); break
              case 'bulk update': r = await subject.client.patch(path, [{ id: obj.id }], headers); break
              case 'bulk delete': r = await subject.client.delete(`${path}?ids=${target.id}`, headers); break
              default: r = await subject.client.request({ method: 'POST', url: `${path}render-to-json/`, payload: 'not,a\n"file', headers: { ...headers, 'content-type': 'text/csv' } })
            }
            const method = ({ create: 'POST', import: 'POST', update: 'PATCH', 'bulk update': 'PATCH', delete: 'DELETE', 'bulk delete': 'DELETE' } as Record<string, string>)[what] ?? 'GET'
            outcomes.push({ role: subject.role.name, resource: def.name, what, org, method, status: r.statusCode, expected })
            const tag = `${subject.role.name} ${what} in ${org} org → ${r.statusCode} ${r.body.slice(0, 120)}`
            if (r.statusCode >= 500 || r.statusCode === 401) problems.push(tag)
            else if (!expected && !permissionDenied(r)) problems.push(`${tag} (the catalogue denies it)`)
            else if (expected && permissionDenied(r)) problems.push(`${tag} (the catalogue allows it)`)
            // Objects only their owner reads (connection tokens): another user's answers 404, permission or not.
            else if (def.ownObjects && what === 'retrieve' && !obj.missing && r.statusCode !== 404 && (expected || !permissionDenied(r))) problems.push(`${tag} (another user's object)`)
            else if (expected && method === 'GET' && !(def.ownObjects && what === 'retrieve') && r.statusCode !== (obj.missing && what === 'retrieve' ? 404 : 200)) problems.push(`${tag} (allowed read)`)
          }
        }
      }
      // Refused writes changed nothing: every sample is still there, as it was.
      for (const org of ['own', 'foreign'] as const) {
        const obj = await sample(def, org)
        if (!allows(def, 'retrieve') || obj.missing) continue
        const r = await s.admin.get(`${path}${obj.id}/`, { 'x-jms-org': orgId(org) })
        if (r.statusCode !== 200) problems.push(`the ${org} sample is gone: ${r.statusCode}`)
      }
      expect(problems).toEqual([])
    })

    it.each(RESOURCES.map((d) => [d.path, d] as const))('%s: objects of a foreign organization never show through', async (path, def) => {
      const problems: string[] = []
      const foreign = await sample(def, 'foreign')
      const own = { 'x-jms-org': ORG_IDS.DEFAULT }
      const adminSees = (await s.admin.get(`${path}${foreign.id}/`, own)).statusCode
      if (def.orgScoped && adminSees !== 404) problems.push(`an org-scoped object of another organization is retrievable: ${adminSees}`)
      const adminIds = new Set(((await s.admin.get(path, own)).json() as Values[]).map((x) => String(x.id)))
      if (adminIds.has(String(foreign.id)) !== (adminSees === 200)) problems.push('list and retrieve disagree on a foreign object')
      for (const subject of subjects) {
        if (!satisfies(heldBy(subject.role, checkOrg(def, 'own', 'view')), permOf(def, 'view'))) continue
        const r = await subject.client.get(`${path}${foreign.id}/`, own)
        // Never more than the administrator; less is allowed where a rule narrows what a role sees (an org admin
        // sees only the login ACLs of users it manages: issue 16 #2).
        if (r.statusCode === 200 ? adminSees !== 200 : ![403, 404].includes(r.statusCode)) problems.push(`${subject.role.name} retrieves a foreign object: ${r.statusCode}, the admin ${adminSees}`)
        const list = await subject.client.get(path, own)
        const extra = (list.json() as Values[]).filter((x) => !adminIds.has(String(x.id)))
        // (own-object resources — API keys, temporary passwords — list each user's own: never the admin's sample)
        if (extra.length && !def.ownObjects) problems.push(`${subject.role.name} lists ${extra.length} objects the admin does not see in that org`)
        if (def.ownObjects && (list.json() as Values[]).some((x) => String(x.id) === String(foreign.id))) problems.push(`${subject.role.name} lists another user's object`)
        if (def.orgScoped && (list.json() as Values[]).some((x) => x.org_id !== ORG_IDS.DEFAULT)) problems.push(`${subject.role.name} lists objects of another org`)
      }
      // Read actions on a foreign object answer as the retrieve does (no object that the list hides).
      for (const a of (def.actions ?? []).filter((x) => x.detail && x.method === 'GET')) {
        const url = `${path}${foreign.id}/${a.path}/`
        const adminAction = (await s.admin.get(url, own)).statusCode
        if (adminAction !== (adminSees === 200 ? 200 : 404)) problems.push(`admin GET <foreign id>/${a.path} → ${adminAction}, retrieve ${adminSees}`)
        for (const subject of subjects) {
          const r = await subject.client.get(url, own)
          if (r.statusCode === 200 ? adminAction !== 200 : ![403, 404].includes(r.statusCode)) problems.push(`${subject.role.name} GET <foreign id>/${a.path} → ${r.statusCode}, the admin ${adminAction}`)
        }
      }
      expect(problems).toEqual([])
    })

    const withActions = RESOURCES.filter((d) => d.actions?.length)
    it.each(withActions.map((d) => [d.path, d] as const))('%s: special actions are allowed exactly as their permission says, in every org', async (path, def) => {
      const problems: string[] = []
      for (const a of def.actions ?? []) {
        for (const subject of subjects) {
          for (const org of ORG_CASES) {
            const headers = { 'x-jms-org': orgId(org) }
            const expected = a.perm === null || satisfies(heldBy(subject.role, checkOrg(def, org, undefined, a.systemPerm)), a.perm)
            const writes = a.method !== 'GET'
            const obj = a.detail ? await (writes && expected ? fresh(def, org) : sample(def, org)) : undefined
            const url = a.detail ? `${path}${obj!.id}/${a.path}/` : `${path}${a.path}/`
            const r = await subject.client.request({ method: a.method, url, headers, ...(writes ? { json: {} } : {}) })
            outcomes.push({ role: subject.role.name, resource: def.name, what: `${a.method} ${a.path}`, org, method: a.method, status: r.statusCode, expected })
            const tag = `${subject.role.name} ${a.method} ${a.detail ? '<id>/' : ''}${a.path} in ${org} org → ${r.statusCode} ${r.body.slice(0, 120)}`
            if (r.statusCode >= 500 || r.statusCode === 401) problems.push(tag)
            else if (!expected && !permissionDenied(r)) problems.push(`${tag} (the permission denies it)`)
            else if (expected && permissionDenied(r)) problems.push(`${tag} (the permission allows it)`)
            else if (expected && !writes && r.statusCode !== (obj?.missing ? 404 : 200)) problems.push(`${tag} (allowed read)`)
          }
        }
      }
      expect(problems).toEqual([])
    })

    // Escalation paths, independent of what the catalogue grants (they hold even if it were wrong).

    it('auditors never write anything, anywhere', () => {
      // Objects a user owns for themself (their connection tokens) are not administration: every user may make them.
      const own = new Set(RESOURCES.filter((d) => d.ownObjects).map((d) => d.name))
      const writes = outcomes.filter((o) => (o.role === 'SystemAuditor' || o.role === 'OrgAuditor') && o.method !== 'GET' && o.what !== 'import' && !own.has(o.resource))
      expect(writes.length).toBeGreaterThan(0)
      expect(writes.filter((o) => o.status !== 403)).toEqual([])
    })

    it('an organization admin gets nothing from system-scope resources, and cannot delete users', () => {
      // Own objects (connection tokens) are system-scope but every user's own: an org admin has theirs.
      const system = new Set(RESOURCES.filter((d) => d.systemPerms && !d.ownObjects).map((d) => d.name))
      const tried = outcomes.filter((o) => o.role === 'OrgAdmin' && (system.has(o.resource) || (o.resource === 'users.user' && o.what === 'delete')))
      expect(tried.length).toBeGreaterThan(0)
      expect(tried.filter((o) => o.status !== 403 && o.status !== 405)).toEqual([])
    })

    it('the matrix ran: every resource, role and org was tried', () => {
      for (const def of RESOURCES) for (const subject of subjects) for (const org of ORG_CASES) {
        expect(outcomes.some((o) => o.resource === def.name && o.role === subject.role.name && o.org === org), `${def.name} ${subject.role.name} ${org}`).toBe(true)
      }
    })

    if (part !== 0) return

    it('an organization admin cannot take over a user holding a system role above User (issue 16 #1)', async () => {
      const orgAdmin = subjects.find((x) => x.role.id === ROLE_IDS.OrgAdmin)!
      const auditorId = subjects.find((x) => x.role.id === ROLE_IDS.SystemAuditor)!.userId
      for (const victim of [s.t.adminId, auditorId]) {
        const invited = await orgAdmin.client.post('/api/v1/users/users/invite/', { users: [victim], org_roles: [ROLE_IDS.OrgUser] })
        expect(invited.statusCode).toBeLessThan(500)
        for (const change of [{ name: 'taken over' }, { is_active: false }, { password: 'Takeover-Passw0rd!' }]) {
          const r = await orgAdmin.client.patch(`/api/v1/users/users/${victim}/`, change)
          expect([403, 404], `${JSON.stringify(change)} → ${r.statusCode} ${r.body.slice(0, 120)}`).toContain(r.statusCode)
        }
        const row = (await sql<{ name: string; is_active: boolean }>`select name, is_active from users where id = ${victim}`.execute(s.t.database.db)).rows[0]!
        expect(row).toMatchObject({ is_active: true })
        expect(row.name).not.toBe('taken over')
      }
    })

    it('an organization admin cannot lock out or read the login ACLs of a system administrator (issue 16 #2)', async () => {
      const orgAdmin = subjects.find((x) => x.role.id === ROLE_IDS.OrgAdmin)!
      const made = await s.admin.post('/api/v1/acls/login-acls/', { name: 'admin-own-rule', user: s.t.adminId, action: 'accept', is_active: false })
      expect(made.statusCode, made.body).toBe(201)
      const r = await orgAdmin.client.post('/api/v1/acls/login-acls/', { name: 'lockout', user: s.t.adminId, action: 'reject' })
      expect([400, 403], r.body).toContain(r.statusCode)
      const listed = await orgAdmin.client.get(`/api/v1/acls/login-acls/?user=${s.t.adminId}`)
      if (listed.statusCode === 200) expect(listed.json()).toEqual([])
      else expect(listed.statusCode).toBe(403)
      const rows = (await sql<{ name: string }>`select name from login_acls where user_id = ${s.t.adminId}`.execute(s.t.database.db)).rows
      expect(rows.map((x) => x.name)).toEqual(['admin-own-rule'])
    })
  })
}
