import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { asEnglish, authTestServer, englishClient, webLogin } from '../auth/test-support.ts'
import { dbKind, type TestClient, type TestServer } from '../testing.ts'

const STATUS = '/api/v1/authentication/login-confirm-ticket/status/'

describe(`login confirm (${dbKind()})`, () => {
  let t: TestServer
  let admin: TestClient
  let reviewer: TestClient
  let userId = ''

  beforeAll(async () => {
    t = await authTestServer()
    admin = await asEnglish(t, 'admin')
    userId = await t.createUser({ username: 'waiter', password: 'Waiter-pass-1' })
    const reviewerId = await t.createUser({ username: 'gatekeeper' })
    reviewer = await asEnglish(t, 'gatekeeper')
    const acl = await admin.post('/api/v1/acls/login-acls/', { name: 'review all', user: userId, action: 'review', reviewers: [reviewerId] })
    expect(acl.statusCode, acl.body).toBe(201)
  })
  afterAll(async () => { await t.close() })

  async function waitingLogin() {
    const c = englishClient(t)
    const r = await webLogin(c, 'waiter', 'Waiter-pass-1')
    expect(r.statusCode, r.body).toBe(200)
    expect(r.json().confirm_required).toBe(true)
    expect(r.json().reviewers).toEqual(['gatekeeper'])
    const pending = await c.get(STATUS)
    expect(pending.json().state).toBe('pending')
    // not logged in while waiting
    expect((await c.get('/api/v1/users/profile/')).statusCode).toBe(401)
    return { c, ticketId: r.json().ticket_id as string }
  }

  it('an approval completes the login', async () => {
    const { c, ticketId } = await waitingLogin()
    const detail = (await reviewer.get(`/api/v1/tickets/apply-login-tickets/${ticketId}/`)).json()
    expect(detail.type.value).toBe('login_confirm')
    expect(detail.org_id).toBe('00000000-0000-0000-0000-000000000000')
    expect((await reviewer.put(`/api/v1/tickets/apply-login-tickets/${ticketId}/approve/`)).statusCode).toBe(200)
    const done = await c.get(STATUS)
    expect(done.statusCode, done.body).toBe(200)
    expect(done.json().ok).toBe(true)
    expect((await c.get('/api/v1/users/profile/')).json().username).toBe('waiter')
  })

  it('a rejection returns to the login page with the reason', async () => {
    const { c, ticketId } = await waitingLogin()
    expect((await reviewer.put(`/api/v1/tickets/apply-login-tickets/${ticketId}/reject/`)).statusCode).toBe(200)
    const r = await c.get(STATUS)
    expect(r.statusCode).toBe(400)
    expect(r.json().code).toBe('login_confirm_rejected')
    expect((await c.get('/api/v1/users/profile/')).statusCode).toBe(401)
    // the wait is over
    expect((await c.get(STATUS)).json().code).toBe('login_confirm_none')
  })

  it('the user cancels: the ticket closes', async () => {
    const { c, ticketId } = await waitingLogin()
    expect((await c.delete(STATUS)).statusCode).toBe(204)
    const row = (await sql<{ state: string }>`select state from tickets where id = ${ticketId}`.execute(t.database.db)).rows[0]!
    expect(row.state).toBe('closed')
    expect((await reviewer.put(`/api/v1/tickets/apply-login-tickets/${ticketId}/approve/`)).statusCode).toBe(400)
  })
})
