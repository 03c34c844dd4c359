import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ORG_IDS } from '../rbac/catalog.ts'
import { createTestServer, type TestClient, type TestServer } from '../testing.ts'

const BASE = '/api/v1/notifications/site-messages/'

describe('site messages API (contract §4.13)', () => {
  let server: TestServer
  let admin: TestClient
  let alice: TestClient
  let aliceId: string
  let bobId: string

  beforeAll(async () => {
    server = await createTestServer()
    aliceId = await server.createUser({ username: 'alice' })
    bobId = await server.createUser({ username: 'bob' })
    admin = await server.as('admin')
    alice = await server.as('alice')
    for (const c of [admin, alice]) c.headers['accept-language'] = 'en'
  })
  afterAll(async () => server?.close())

  async function send(body: unknown) {
    return admin.post(`${BASE}send/`, body)
  }

  it('refuses anonymous callers with 401', async () => {
    const anon = server.client()
    expect((await anon.get(BASE)).statusCode).toBe(401)
    expect((await anon.get(`${BASE}unread-total/`)).statusCode).toBe(401)
    expect((await anon.patch(`${BASE}mark-as-read-all/`)).statusCode).toBe(401)
  })

  it('lets only a system administrator send', async () => {
    const res = await alice.post(`${BASE}send/`, { subject: 's', message: 'm', user_ids: [bobId] })
    expect(res.statusCode).toBe(403)
  })

  it('validates the send body with field errors and writes nothing', async () => {
    const before = (await alice.get(`${BASE}unread-total/`)).json().total
    const res = await send({ subject: '  ', user_ids: ['nope', aliceId], is_broadcast: 'maybe' })
    expect(res.statusCode).toBe(400)
    const body = res.json()
    expect(body.subject).toEqual(['This field may not be blank.'])
    expect(body.message).toEqual(['This field is required.'])
    expect(body.user_ids).toEqual({ 0: ['Must be a valid UUID.'] })
    expect(body.is_broadcast).toEqual(['Must be a valid boolean.'])
    const unknown = await send({ subject: 's', message: 'm', user_ids: ['00000000-0000-0000-0000-0000000000aa'] })
    expect(unknown.statusCode).toBe(400)
    expect(unknown.json().user_ids[0]).toContain('object does not exist')
    const nobody = await send({ subject: 's', message: 'm' })
    expect(nobody.statusCode).toBe(400)
    expect(nobody.json().non_field_errors).toHaveLength(1)
    expect((await alice.get(`${BASE}unread-total/`)).json().total).toBe(before)
  })

  it('translates errors into the request language', async () => {
    const res = await server.client().post(`${BASE}send/`, { subject: 's' }, { 'accept-language': 'zh-CN' })
    expect(res.statusCode).toBe(401)
    expect(res.json().detail).toBe('身份认证信息未提供。')
    admin.jar.set('django_language', 'ja')
    const ja = await send({ subject: 's' })
    admin.jar.delete('django_language')
    expect(ja.json().message).toEqual(['この項目は必須です。'])
  })

  it('sends to users, lists own messages newest first, paginated with absolute links', async () => {
    for (let i = 1; i <= 3; i++) {
      const res = await send({ subject: `Subject ${i}`, message: `Body ${i}`, user_ids: [aliceId] })
      expect(res.statusCode, res.body).toBe(201)
      expect(res.json().recipients).toBe(1)
    }
    const page = await alice.get(`${BASE}?offset=0&limit=2&has_read=false`)
    expect(page.statusCode).toBe(200)
    const body = page.json()
    expect(body.count).toBe(3)
    expect(body.results.map((r: { content: { subject: string } }) => r.content.subject)).toEqual(['Subject 3', 'Subject 2'])
    expect(body.next).toMatch(/^http:\/\/[^/]+\/api\/v1\/notifications\/site-messages\/\?.*limit=2/)
    expect(body.next).toContain('offset=2')
    expect(body.previous).toBeNull()
    const row = body.results[0]
    expect(row).toMatchObject({ has_read: false, read_at: null, content: { message: 'Body 3', sender: 'Administrator(admin)' } })
    expect(row.date_created).toMatch(/^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2} [+-]\d{4}$/)
    const second = (await alice.get(body.next.replace(/^http:\/\/[^/]+/, ''))).json()
    expect(second.results).toHaveLength(1)
    expect(second.previous).not.toContain('offset=')
    // Without limit: a bare array of everything.
    const all = (await alice.get(BASE)).json()
    expect(Array.isArray(all)).toBe(true)
    expect(all).toHaveLength(3)
    // Other users see none of them.
    const bob = await server.as('bob')
    bob.headers['accept-language'] = 'en'
    expect((await bob.get(`${BASE}?limit=15`)).json().count).toBe(0)
  })

  it('renders datetimes in the X-TZ zone', async () => {
    const utc = (await alice.get(`${BASE}?limit=1`, { 'x-tz': 'UTC' })).json().results[0].date_created
    const tokyo = (await alice.get(`${BASE}?limit=1`, { 'x-tz': 'Asia/Tokyo' })).json().results[0].date_created
    expect(utc).toMatch(/\+0000$/)
    expect(tokyo).toMatch(/\+0900$/)
  })

  it('rejects a bad has_read filter', async () => {
    const res = await alice.get(`${BASE}?has_read=perhaps`)
    expect(res.statusCode).toBe(400)
    expect(Object.keys(res.json())).toEqual(['has_read'])
  })

  it('marks one read, ignores other users\u2019 ids, then all read', async () => {
    const unread = (await alice.get(`${BASE}?limit=15&has_read=0`)).json().results as { id: string }[]
    const bad = await alice.patch(`${BASE}mark-as-read/`, { ids: ['x'] })
    expect(bad.statusCode).toBe(400)
    expect(bad.json()).toEqual({ ids: { 0: ['Must be a valid UUID.'] } })
    const missing = await alice.patch(`${BASE}mark-as-read/`, {})
    expect(missing.json()).toEqual({ ids: ['This field is required.'] })
    const notList = await alice.patch(`${BASE}mark-as-read/`, { ids: 'abc' })
    expect(notList.statusCode).toBe(400)

    // Bob cannot mark Alice's message.
    const bob = await server.as('bob')
    expect((await bob.patch(`${BASE}mark-as-read/`, { ids: [unread[0]!.id] })).statusCode).toBe(200)
    expect((await alice.get(`${BASE}unread-total/`)).json()).toEqual({ total: 3 })

    const ok = await alice.patch(`${BASE}mark-as-read/`, { ids: [unread[0]!.id] })
    expect(ok.json()).toEqual({ detail: 'ok' })
    expect((await alice.get(`${BASE}unread-total/`)).json()).toEqual({ total: 2 })
    const read = (await alice.get(`${BASE}?limit=15&has_read=true`)).json()
    expect(read.count).toBe(1)
    expect(read.results[0].read_at).not.toBeNull()

    expect((await alice.patch(`${BASE}mark-as-read-all/`)).json()).toEqual({ detail: 'ok' })
    expect((await alice.get(`${BASE}unread-total/`)).json()).toEqual({ total: 0 })
  })

  it('broadcasts to every active user', async () => {
    const res = await send({ subject: 'To all', message: 'Hello', is_broadcast: true })
    expect(res.statusCode).toBe(201)
    expect(res.json().recipients).toBeGreaterThanOrEqual(3)
    const bob = await server.as('bob')
    expect((await bob.get(`${BASE}unread-total/`)).json().total).toBe(1)
  })

  it('sends to the members of user groups, once per user', async () => {
    const groupId = randomUUID()
    await sql`insert into user_groups (id, name, org_id) values (${groupId}, 'ops', ${ORG_IDS.DEFAULT})`.execute(server.database.db)
    await sql`insert into user_group_members (user_id, usergroup_id) values (${aliceId}, ${groupId}), (${bobId}, ${groupId})`.execute(server.database.db)
    const res = await send({ subject: 'Team', message: 'Hi team', group_ids: [groupId], user_ids: [aliceId] })
    expect(res.statusCode, res.body).toBe(201)
    expect(res.json().recipients).toBe(2)
  })

  it('reports unknown group ids as field errors', async () => {
    const res = await send({ subject: 's', message: 'm', group_ids: ['00000000-0000-0000-0000-0000000000bb'] })
    expect(res.statusCode).toBe(400)
    expect(res.json().group_ids[0]).toContain('object does not exist')
  })
})
