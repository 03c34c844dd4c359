/**
 * Escalation paths between roles (issue 16 points 1 and 2): an organization admin against system users and
 * members of other organizations, an auditor against writes.
 */
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROLE_IDS } from '../rbac/catalog.ts'
import { createTestServer, dbKind, type TestClient, type TestServer } from '../testing.ts'
import { ACLS, makeWorld, USERS, type World } from './fixtures.ts'

describe(`escalation paths (${dbKind()})`, () => {
  let t: TestServer
  let w: World
  let orgAdmin: TestClient
  let admin: TestClient

  beforeAll(async () => {
    t = await createTestServer()
    w = await makeWorld(t)
    orgAdmin = await w.as('acmeAdmin')
    admin = await w.as('admin')
    // Point 1's set-up: the org admin invites the system admin and the system auditor into Acme.
    const inv = await orgAdmin.post(`${USERS}invite/`, { users: [w.ids.admin, w.ids.sysAuditor], org_roles: [ROLE_IDS.OrgUser] })
    expect(inv.statusCode).toBe(201)
  })
  afterAll(async () => { await t.close() })

  const hash = async (id: string) => (await sql<{ password_hash: string; is_active: boolean }>`select password_hash, is_active from users where id = ${id}`.execute(t.database.db)).rows[0]!

  it('an org admin cannot set a system admin\'s password, disable or change them (point 1)', async () => {
    const before = await hash(w.ids.admin)
    for (const body of [{ password: 'Takeover-Passw0rd!', password_strategy: 'custom' }, { is_active: false }, { email: 'evil@example.com' }]) {
      const r = await orgAdmin.patch(`${USERS}${w.ids.admin}/`, body)
      expect(r.statusCode, JSON.stringify(body)).toBe(403)
    }
    const r = await orgAdmin.put(`${USERS}`, [{ id: w.ids.admin, name: 'x', username: 'admin', email: 'admin@example.com', is_active: false }])
    expect(r.statusCode).toBe(403)
    expect(await hash(w.ids.admin)).toEqual(before)
  })

  it('an org admin cannot change a system auditor nor a user who is also in an organization they do not manage', async () => {
    for (const id of [w.ids.sysAuditor, w.ids.dual]) {
      expect((await orgAdmin.patch(`${USERS}${id}/`, { is_active: false })).statusCode).toBe(403)
      for (const action of ['password/reset', 'mfa/reset', 'pubkey/reset', 'unblock']) {
        expect((await orgAdmin.put(`${USERS}${id}/${action}/`, {})).statusCode, action).toBe(403)
      }
      expect((await hash(id)).is_active).toBe(true)
    }
  })

  it('an org admin still changes the plain members of their own organization', async () => {
    const r = await orgAdmin.patch(`${USERS}${w.ids.member}/`, { comment: 'changed by the org admin' })
    expect(r.statusCode).toBe(200)
    expect((await orgAdmin.put(`${USERS}${w.ids.member}/unblock/`, {})).statusCode).toBe(200)
  })

  it('the system admin changes anyone', async () => {
    expect((await admin.patch(`${USERS}${w.ids.dual}/`, { comment: 'by admin' })).statusCode).toBe(200)
    expect((await admin.patch(`${USERS}${w.ids.sysAuditor}/`, { comment: 'by admin' })).statusCode).toBe(200)
  })

  it('an org admin cannot create a login ACL for a user they may not change, nor see or change theirs (point 2)', async () => {
    const acl = (user: string, name: string) => ({ name, user, action: 'reject', rules: { ip_group: ['*'], time_period: [] } })
    for (const id of [w.ids.admin, w.ids.sysAuditor, w.ids.dual, w.ids.outsider]) {
      const r = await orgAdmin.post(ACLS, acl(id, `lockout-${id}`))
      expect(r.statusCode, id).toBe(400)
      expect(r.json().user).toBeDefined()
    }
    expect(Number((await sql<{ n: number }>`select count(*)::int as n from login_acls`.execute(t.database.db)).rows[0]!.n)).toBe(0)
    // The system admin's own ACL is invisible and untouchable for the org admin.
    const mine = await admin.post(ACLS, acl(w.ids.admin, 'admin-own'))
    expect(mine.statusCode).toBe(201)
    const list = await orgAdmin.get(ACLS)
    expect(list.statusCode).toBe(200)
    expect(JSON.stringify(list.json())).not.toContain('admin-own')
    expect((await orgAdmin.get(`${ACLS}${mine.json().id}/`)).statusCode).toBe(404)
    expect((await orgAdmin.patch(`${ACLS}${mine.json().id}/`, { action: 'reject', is_active: true })).statusCode).toBe(404)
    expect((await orgAdmin.delete(`${ACLS}${mine.json().id}/`)).statusCode).toBe(404)
    // Moving a manageable user's ACL onto the admin is refused too.
    const own = await orgAdmin.post(ACLS, acl(w.ids.member, 'member-acl'))
    expect(own.statusCode).toBe(201)
    expect((await orgAdmin.patch(`${ACLS}${own.json().id}/`, { user: w.ids.admin })).statusCode).toBe(400)
  })

  it('the system admin can still log in (no ACL of the org admin stands in the way)', async () => {
    const r = await sql<{ n: number }>`select count(*)::int as n from login_acls where user_id = ${w.ids.admin} and name <> 'admin-own'`.execute(t.database.db)
    expect(Number(r.rows[0]!.n)).toBe(0)
  })

  it('an auditor cannot write anything: every unsafe method of every resource answers 403 or 405', async () => {
    const auditors = [await w.as('acmeAuditor'), await w.as('sysAuditor')]
    const unsafe = t.app.routeList.filter((r) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(r.method) && r.url.startsWith('/api/v1/')
      && !/\/(authentication|profile)\//.test(r.url) && !r.url.endsWith('render-to-json/') && r.url.endsWith('/'))
    expect(unsafe.length).toBeGreaterThan(20)
    // Writes every signed-in user may make about themselves (a selection cache, their own site messages, their
    // own preferences).
    const selfService = /^\/api\/v1\/(common\/resources\/cache\/|notifications\/site-messages?\/|users\/preference\/)/
    const counts = { requests: 0, refused: 0 }
    const accepted: string[] = []
    const before = (await sql<{ n: number }>`select count(*)::int as n from operate_logs`.execute(t.database.db)).rows[0]!.n
    for (const c of auditors) {
      for (const r of unsafe) {
        const url = r.url.replace(/:id/g, w.ids.member).replace(/\*/g, 'x')
        const res = await c.request({ method: r.method as 'POST', url, json: r.method === 'DELETE' ? undefined : {} })
        counts.requests++
        expect(res.statusCode, `${r.method} ${url}`).toBeLessThan(500)
        if (res.statusCode === 403 || res.statusCode === 405) counts.refused++
        else if (!selfService.test(url) && res.statusCode < 400) accepted.push(`${r.method} ${url} → ${res.statusCode}`)
      }
    }
    expect(accepted).toEqual([])
    const after = (await sql<{ n: number }>`select count(*)::int as n from operate_logs`.execute(t.database.db)).rows[0]!.n
    expect(after).toBe(before)
    expect(counts.refused).toBeGreaterThan(counts.requests * 0.8)
    console.info(`auditor writes: ${counts.requests} requests, ${counts.refused} refused, 0 accepted, 0 5xx`)
  })
})
