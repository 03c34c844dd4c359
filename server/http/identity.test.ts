/**
 * A request's identity (server/http/identity.ts): read in one statement, kept between requests beside PGlite only,
 * and every change — through the API or straight in SQL — counts for the very next request: a logout, a disabled or
 * expired user, a role granted or taken back, an organization created. On PostgreSQL (the PostgreSQL pass) nothing
 * is kept, and the same answers come from reading every time.
 */
import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { beforeAll, describe, expect, it } from 'vitest'
import { ORG_IDS, ROLE_IDS } from '../rbac/catalog.ts'
import type { TestClient} from '../testing.ts';
import { dbKind, type TestServer } from '../testing.ts'
import { useTestServer } from '../use-test-server.ts'
import { identityReader } from './identity.ts'

const USERS = '/api/v1/users/users/'
const PROFILE = '/api/v1/users/profile/'

describe('the request identity', () => {
  const s = useTestServer()
  let t: TestServer
  beforeAll(() => { t = s.t })

  /** A client with a copy of another's cookies: it keeps sending the session after the other logged out. */
  const copyOf = (c: TestClient) => {
    const d = t.client()
    for (const [k, v] of c.jar) d.jar.set(k, v)
    return d
  }
  const newUser = async () => {
    const username = `id-${randomUUID().slice(0, 8)}`
    const id = await t.createUser({ username })
    return { id, username, c: await t.as(username) }
  }

  it('is kept beside PGlite and read each time on PostgreSQL', async () => {
    const reader = await identityReader(t.database)
    const { c } = await newUser()
    const sid = c.jar.get(`${t.config.sessionCookiePrefix}sessionid`)!
    const first = await reader.read(sid, [])
    expect(first?.session_id).toBe(sid)
    expect(reader.size).toBe(dbKind() === 'pglite' ? 1 : 0)
    expect(reader.indexed ?? 0).toBe(dbKind() === 'pglite' ? 2 : 0) // by session, by user
    // what a request is handed is its own copy: changing it changes nothing kept
    first!.session_data!.scratch = 1
    expect((await reader.read(sid, []))?.session_data?.scratch).toBeUndefined()
    // a session ended leaves nothing behind, in the entries or their indexes
    await sql`delete from sessions where id = ${sid}`.execute(t.database.db)
    expect([reader.size, reader.indexed ?? 0]).toEqual([0, 0])
  })

  it('a logout ends the session for the very next request', async () => {
    const { c } = await newUser()
    const kept = copyOf(c)
    expect((await kept.get(PROFILE)).statusCode).toBe(200)
    expect((await c.get('/core/auth/logout/')).statusCode).toBe(302)
    expect((await kept.get(PROFILE)).statusCode).toBe(401)
  })

  it('a user disabled by an administrator, or expired, is refused at once', async () => {
    const admin = await t.as('admin')
    const a = await newUser()
    expect((await a.c.get(PROFILE)).statusCode).toBe(200)
    const kept = copyOf(a.c)
    expect((await admin.patch(`${USERS}${a.id}/`, { is_active: false })).statusCode).toBe(200)
    expect((await kept.get(PROFILE)).statusCode).toBe(401)

    const b = await newUser()
    expect((await b.c.get(PROFILE)).statusCode).toBe(200)
    await sql`update users set date_expired = now() - interval '1 minute' where id = ${b.id}`.execute(t.database.db)
    expect((await b.c.get(PROFILE)).statusCode).toBe(401)
  })

  it('a role granted or taken back counts for the next request, through the API or in SQL', async () => {
    const admin = await t.as('admin')
    const u = await newUser()
    expect((await u.c.get(USERS)).statusCode).toBe(403)
    const bind = await admin.post('/api/v1/rbac/org-role-bindings/', { user: u.id, role: ROLE_IDS.OrgAdmin })
    expect(bind.statusCode).toBe(201)
    expect((await u.c.get(USERS)).statusCode).toBe(200)
    expect((await admin.delete(`/api/v1/rbac/org-role-bindings/${(JSON.parse(bind.body) as { id: string }).id}/`)).statusCode).toBe(204)
    expect((await u.c.get(USERS)).statusCode).toBe(403)

    await sql`insert into role_bindings (id, user_id, role_id, scope, org_id) values (${randomUUID()}, ${u.id}, ${ROLE_IDS.OrgAdmin}, 'org', ${ORG_IDS.DEFAULT})`.execute(t.database.db)
    expect((await u.c.get(USERS)).statusCode).toBe(200)
    await sql`delete from role_bindings where user_id = ${u.id} and role_id = ${ROLE_IDS.OrgAdmin}`.execute(t.database.db)
    expect((await u.c.get(USERS)).statusCode).toBe(403)
  })

  it('a permission added to or taken from a custom role counts for the next request of its users', async () => {
    const u = await newUser()
    const role = randomUUID()
    const db = t.database.db
    await sql`insert into roles (id, name, scope) values (${role}, ${`viewer-${role.slice(0, 8)}`}, 'org')`.execute(db)
    await sql`insert into role_bindings (id, user_id, role_id, scope, org_id) values (${randomUUID()}, ${u.id}, ${role}, 'org', ${ORG_IDS.DEFAULT})`.execute(db)
    expect((await u.c.get(USERS)).statusCode).toBe(403)
    await sql`insert into role_permissions (role_id, codename) values (${role}, 'users.view_user')`.execute(db)
    expect((await u.c.get(USERS)).statusCode).toBe(200)
    await sql`delete from role_permissions where role_id = ${role}`.execute(db)
    expect((await u.c.get(USERS)).statusCode).toBe(403)
  })

  it('a session deleted or changed in SQL, and an organization created after a request named it, count at once', async () => {
    const u = await newUser()
    const sid = u.c.jar.get(`${t.config.sessionCookiePrefix}sessionid`)!
    expect((await u.c.get(PROFILE)).statusCode).toBe(200)
    await sql`update sessions set data = data || ${JSON.stringify({ userId: t.adminId })}::jsonb where id = ${sid}`.execute(t.database.db)
    expect(JSON.parse((await u.c.get(PROFILE)).body).username).toBe('admin')
    await sql`delete from sessions where id = ${sid}`.execute(t.database.db)
    expect((await u.c.get(PROFILE)).statusCode).toBe(401)

    const reader = await identityReader(t.database)
    const admin = await t.as('admin')
    const adminSid = admin.jar.get(`${t.config.sessionCookiePrefix}sessionid`)!
    const name = `org-${randomUUID().slice(0, 8)}`
    expect((await reader.read(adminSid, [{ lookupName: name }]))?.orgs).toBeNull()
    const id = randomUUID()
    await sql`insert into organizations (id, name) values (${id}, ${name})`.execute(t.database.db)
    expect((await reader.read(adminSid, [{ lookupName: name }]))?.orgs).toEqual([{ id, name }])
  })

  it('the organization: oid, then header, then cookie, then the session\'s, then DEFAULT; unknown values fall through', async () => {
    const db = t.database.db
    const [a, b] = [randomUUID(), randomUUID()]
    const [na, nb] = [`org-a-${a.slice(0, 8)}`, `org-b-${b.slice(0, 8)}`]
    await sql`insert into organizations (id, name) values (${a}, ${na}), (${b}, ${nb})`.execute(db)
    await sql`insert into user_groups (id, name, org_id) values (${randomUUID()}, 'in-a', ${a}), (${randomUUID()}, 'in-b', ${b}), (${randomUUID()}, 'in-default', ${ORG_IDS.DEFAULT})`.execute(db)
    const admin = await t.as('admin')
    const sid = admin.jar.get(`${t.config.sessionCookiePrefix}sessionid`)!
    /** The groups the call sees (one per organization above): which organization it was resolved to. */
    const seen = async (query: string, headers: Record<string, string> = {}) => {
      const r = await admin.get(`/api/v1/users/groups/?name__in=in-a,in-b,in-default&limit=10${query}`, headers)
      expect(r.statusCode, r.body).toBe(200)
      return (r.json().results as { name: string }[]).map((g) => g.name).join()
    }
    const unknown = randomUUID()
    expect(await seen('')).toBe('in-default')
    expect(await seen(`&oid=${a}`, { 'x-jms-org': b })).toBe('in-a')
    expect(await seen(`&oid=${unknown}`, { 'x-jms-org': nb })).toBe('in-b') // by name
    expect(await seen(`&oid=nowhere`, { 'x-jms-org': 'DEFAULT' })).toBe('in-default')
    admin.jar.set('X-JMS-ORG', a)
    expect(await seen('', { 'x-jms-org': unknown })).toBe('in-a')
    admin.jar.delete('X-JMS-ORG')
    await sql`update sessions set data = data || ${JSON.stringify({ oid: b })}::jsonb where id = ${sid}`.execute(db)
    expect(await seen('')).toBe('in-b')
    expect(await seen('', { 'x-jms-org': unknown })).toBe('in-b')
    // the session's organization deleted: DEFAULT, at once
    await sql`delete from organizations where id = ${b}`.execute(db)
    expect(await seen('')).toBe('in-default')
  })

  it('a read that a change overtook is not kept', async () => {
    const u = await newUser()
    // another request renames the user after this one read it, before it kept it
    let once = false
    const reader = await identityReader(t.database, {
      afterRead: async () => {
        if (once) return
        once = true
        await sql`update users set name = 'Renamed' where id = ${u.id}`.execute(t.database.db)
      },
    })
    const sid = u.c.jar.get(`${t.config.sessionCookiePrefix}sessionid`)!
    expect((await reader.read(sid, []))?.name).toBe(u.username)
    expect((await reader.read(sid, []))?.name).toBe('Renamed')
  })
})

describe('the request identity with unknown sessions', () => {
  const s = useTestServer()

  it('keeps only identities of sessions that exist', async () => {
    const t = s.t
    const reader = await identityReader(t.database)
    const c = await t.as('admin')
    const sid = c.jar.get(`${t.config.sessionCookiePrefix}sessionid`)!
    // unknown sessions are never kept (any text may be sent as a cookie)
    for (let i = 0; i < 50; i++) expect((await reader.read(`nope${i}`, []))?.session_id).toBeNull()
    expect(reader.size).toBe(0)
    await reader.read(sid, [])
    expect(reader.size).toBe(dbKind() === 'pglite' ? 1 : 0)
  })
})
