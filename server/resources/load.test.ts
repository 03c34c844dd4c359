/**
 * 20 concurrent clients create, update and delete users and groups for a fixed number of rounds: no 5xx, no lost
 * update, and the counts add up afterwards.
 */
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestServer, dbKind, type TestClient, type TestServer } from '../testing.ts'

const CLIENTS = 20
const ROUNDS = 4

describe(`concurrent writers (${dbKind()})`, () => {
  let t: TestServer
  let shared: { id: string }
  let busy: { id: string }

  beforeAll(async () => {
    t = await createTestServer()
    const admin = await t.as('admin')
    shared = (await admin.post('/api/v1/users/groups/', { name: 'shared' })).json()
    busy = (await admin.post('/api/v1/users/groups/', { name: 'busy' })).json()
  })
  afterAll(async () => { await t.close() })

  it(`${CLIENTS} clients × ${ROUNDS} rounds`, async () => {
    const statuses: number[] = []
    const expectStatus = <R extends { statusCode: number; body: string }>(r: R, code: number): R => {
      statuses.push(r.statusCode)
      if (r.statusCode !== code) throw new Error(`expected ${code}, got ${r.statusCode}: ${r.body.slice(0, 300)}`)
      return r
    }
    const clients: TestClient[] = []
    for (let k = 0; k < CLIENTS; k++) clients.push(await t.as('admin'))

    const worker = async (c: TestClient, k: number) => {
      const mine: string[] = []
      for (let r = 0; r < ROUNDS; r++) {
        const g = expectStatus(await c.post('/api/v1/users/groups/', { name: `g-${k}-${r}` }), 201).json()
        const u = expectStatus(await c.post('/api/v1/users/users/', {
          name: `User ${k}.${r}`, username: `w${k}r${r}`, email: `w${k}r${r}@example.com`, groups: [shared.id, g.id],
        }), 201).json()
        mine.push(u.id)
        expectStatus(await c.patch(`/api/v1/users/users/${u.id}/`, { comment: `round ${r}`, is_active: r % 2 === 0 }), 200)
        expectStatus(await c.patch(`/api/v1/users/groups/${g.id}/`, { comment: `client ${k}`, users: [u.id] }), 200)
        // everyone writes the same row: each PATCH must succeed, the last one wins
        expectStatus(await c.patch(`/api/v1/users/groups/${busy.id}/`, { comment: `${k}-${r}` }), 200)
        if (r % 2 === 1) expectStatus(await c.delete(`/api/v1/users/groups/${g.id}/`), 204)
      }
      // the last update of each of my users must have stuck
      const spm = expectStatus(await c.post('/api/v1/common/resources/cache/', { resources: mine }), 200).json().spm
      const rows = expectStatus(await c.get(`/api/v1/users/users/?spm=${spm}`), 200).json() as Array<{ comment: string; username: string }>
      expect(rows).toHaveLength(ROUNDS)
      for (const row of rows) expect(row.comment).toBe(`round ${Number(row.username.split('r').pop())}`)
    }
    await Promise.all(clients.map((c, k) => worker(c, k)))

    expect(statuses.every((s) => s < 500)).toBe(true)
    const admin = await t.as('admin')
    const users = (await admin.get('/api/v1/users/users/?search=@example.com&limit=1')).json()
    const created = (await sql<{ n: number }>`select count(*)::int as n from users where username like 'w%r%'`.execute(t.database.db)).rows[0]!.n
    expect(created).toBe(CLIENTS * ROUNDS)
    expect(users.count).toBeGreaterThanOrEqual(CLIENTS * ROUNDS)
    expect((await admin.get(`/api/v1/users/groups/${shared.id}/`)).json().users_amount).toBe(CLIENTS * ROUNDS)
    const groups = (await admin.get('/api/v1/users/groups/?search=g-')).json() as Array<{ users_amount: number; comment: string }>
    expect(groups).toHaveLength(CLIENTS * Math.ceil(ROUNDS / 2))
    expect(groups.every((g) => g.users_amount === 1 && g.comment.startsWith('client '))).toBe(true)
    expect((await admin.get(`/api/v1/users/groups/${busy.id}/`)).json().comment).toMatch(/^\d+-\d+$/)
    const logs = await sql<{ action: string; n: number }>`select action, count(*)::int as n from operate_logs where resource_type = 'User' group by action`.execute(t.database.db)
    expect(Object.fromEntries(logs.rows.map((r) => [r.action, r.n]))).toEqual({ create: CLIENTS * ROUNDS, update: CLIENTS * ROUNDS })
    const members = (await sql<{ n: number }>`select count(*)::int as n from role_bindings b join users u on u.id = b.user_id where u.username like 'w%r%' and b.scope = 'org'`.execute(t.database.db)).rows[0]!.n
    expect(members).toBe(CLIENTS * ROUNDS)
  }, 600_000)
})
