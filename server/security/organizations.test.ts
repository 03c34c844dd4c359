/**
 * Issue 36 point 10 and its class: an object whose organization comes from a parent named in the body (a command
 * from its session, a sharing from its session, a join record from its sharing) takes the parent's organization,
 * and outside ROOT a parent of another organization is a 400 on that field — nothing is written there.
 * The class is generated from every registered resource that declares a `parent`.
 */
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { allResources } from '../engine/registry.ts'
import { setSettings } from '../settings/store.ts'
import { createTestServer, dbKind, type TestClient, type TestServer } from '../testing.ts'
import { Factory } from '../conformance/harness.ts'
import { makeWorld, type World } from './fixtures.ts'

const SESSIONS = '/api/v1/terminal/sessions/'
const COMMANDS = '/api/v1/terminal/commands/'

// Started while the file is collected, so the cases can be generated from the registered resources.
const t: TestServer = await createTestServer()
afterAll(async () => { await t.close() })

describe(`a parent's organization decides (${dbKind()})`, () => {
  let w: World
  let admin: TestClient
  let orgAdmin: TestClient

  beforeAll(async () => {
    w = await makeWorld(t)
    admin = await w.as('admin')
    orgAdmin = await w.as('acmeAdmin')
    await setSettings(t.database.db, { SECURITY_SESSION_SHARE: true })
  })

  const newSession = async (org: string) => {
    const r = await admin.post(SESSIONS, { user: 'u(u)', asset: 'h', org_id: org })
    expect(r.statusCode, r.body).toBe(201)
    return r.json().id as string
  }
  const command = (session: string) => ({ user: 'x(x)', asset: 'h', input: 'rm -rf /', session, timestamp: 1700000000 })
  const amount = async (id: string) => (await admin.get(`${SESSIONS}${id}/`)).json().command_amount

  it('an org admin cannot add commands to another organization\'s session (point 10)', async () => {
    const foreign = await newSession(w.other)
    const r = await orgAdmin.post(COMMANDS, command(foreign))
    expect(r.statusCode, r.body).toBe(400)
    expect(Object.keys(r.json())).toEqual(['session'])
    expect(await amount(foreign)).toBe(0)
    const rows = await sql`select 1 from commands where session = ${foreign}`.execute(t.database.db)
    expect(rows.rows).toHaveLength(0)
  })

  it('a command takes its session\'s organization; in its own organization it is accepted (point 10)', async () => {
    const foreign = await newSession(w.other)
    const r = await admin.post(COMMANDS, command(foreign))
    expect(r.statusCode, r.body).toBe(201)
    expect(r.json().org_id).toBe(w.other)
    const own = await newSession(w.acme)
    const mine = await orgAdmin.post(COMMANDS, command(own))
    expect(mine.statusCode, mine.body).toBe(201)
    expect(await amount(own)).toBe(1)
  })

  const withParent = allResources().filter((d) => d.parent)
  it('every resource with a parent is in the generated cases', () => {
    expect(withParent.map((d) => d.name).sort()).toEqual(['terminal.command', 'terminal.sessionjoinrecord', 'terminal.sessionsharing'])
  })

  it.each(withParent.map((d) => [d.path, d] as const))('%s: a parent of another organization is refused outside ROOT', async (path, def) => {
    const { field, table } = def.parent!
    const parentDef = allResources().find((d) => d.table === table)!
    const f = new Factory(admin)
    const parent = await f.create(parentDef, w.other)
    const body = await f.body(def, w.acme, { [field]: parent.id })
    const before = (await sql<{ n: number }>`select count(*)::int as n from ${sql.table(def.table)}`.execute(t.database.db)).rows[0]!.n
    const r = await orgAdmin.post(path, body)
    expect([400, 403], r.body).toContain(r.statusCode)
    if (r.statusCode === 400) expect(Object.keys(r.json())).toContain(field)
    const after = (await sql<{ n: number }>`select count(*)::int as n from ${sql.table(def.table)}`.execute(t.database.db)).rows[0]!.n
    expect(after).toBe(before)
  })
})
