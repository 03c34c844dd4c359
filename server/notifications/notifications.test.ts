import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { asEnglish, authTestServer, englishClient, webLogin } from '../auth/test-support.ts'
import { ORG_IDS } from '../rbac/catalog.ts'
import { invalidateSettingsCache } from '../settings/store.ts'
import { taskKind } from '../tasks/kinds.ts'
import { dbKind, type TestClient, type TestServer } from '../testing.ts'
import { startSmtp, type TestSmtp } from '../testing/smtp.ts'
import { PASSWORD_EXPIRY_TASK } from './events.ts'

const SUBS = '/api/v1/notifications/system-msg-subscription/'
const NEW_IP = `${SUBS}UserLoginFromNewIpMsg/`
const INBOX = '/api/v1/notifications/site-messages/?has_read=false'

describe(`message subscription and notify() (${dbKind()})`, () => {
  let server: TestServer
  let admin: TestClient
  let smtp: TestSmtp
  let ops: string
  let sec: string
  let group: string

  beforeAll(async () => {
    invalidateSettingsCache()
    server = await authTestServer()
    admin = await asEnglish(server, 'admin')
    smtp = await startSmtp()
    ops = await server.createUser({ username: 'ops' })
    sec = await server.createUser({ username: 'sec' })
    await server.createUser({ username: 'bystander' })
    await server.createUser({ username: 'alice', password: 'Alice-Passw0rd!' })
    group = randomUUID()
    await sql`insert into user_groups (id, name, org_id) values (${group}, 'security team', ${ORG_IDS.DEFAULT})`.execute(server.database.db)
    await sql`insert into user_group_members (user_id, usergroup_id) values (${sec}, ${group})`.execute(server.database.db)
    const r = await admin.patch('/api/v1/settings/setting/?category=email', { EMAIL_HOST: smtp.host, EMAIL_PORT: String(smtp.port), EMAIL_USE_SSL: false, EMAIL_USE_TLS: false })
    expect(r.statusCode, r.body).toBe(200)
  })
  afterAll(async () => {
    await smtp?.stop()
    await server?.close()
  })

  it('lists the channels and the messages by category, as lina reads them', async () => {
    expect((await admin.get('/api/v1/notifications/backends/')).json()).toEqual([
      { name: 'site_msg', name_display: 'Site message' }, { name: 'email', name_display: 'Email' }])
    const cats = (await admin.get(SUBS)).json() as { category: string; children: { message_type: string; receive_backends: string[] }[] }[]
    expect(cats.map((c) => c.category)).toEqual(['accounts', 'users', 'settings'])
    const users = cats.find((c) => c.category === 'users')!
    expect(users.children.find((m) => m.message_type === 'UserLoginFromNewIpMsg')).toMatchObject({
      message_type_label: 'User login from a new IP', users: [], groups: [], receive_backends: ['site_msg'], receivers: [] })
    const zh = await server.as('admin')
    expect(((await zh.get(SUBS)).json() as { category_label: string }[])[1]!.category_label).toMatch(/^用户/)
  })

  it('refuses unknown receivers and channels on their field and saves nothing; needs the permission', async () => {
    const bad = await admin.patch(NEW_IP, { users: [ops, randomUUID()], receive_backends: ['email'] })
    expect(bad.statusCode).toBe(400)
    expect(Object.keys(bad.json())).toEqual(['users'])
    const chan = await admin.patch(NEW_IP, { users: [ops], receive_backends: ['pigeon'] })
    expect(chan.statusCode).toBe(400)
    expect(chan.json().receive_backends[0]).toContain('pigeon')
    expect((await admin.patch(NEW_IP, 'x')).statusCode).toBe(400)
    expect((await admin.put(NEW_IP, { users: [ops] })).json()).toEqual({ receive_backends: ['This field is required.'] })
    expect((await admin.get(NEW_IP)).json()).toMatchObject({ users: [], receive_backends: ['site_msg'] })
    expect((await admin.patch(`${SUBS}NoSuchMsg/`, { users: [] })).statusCode).toBe(404)
    const plain = await asEnglish(server, 'bystander')
    expect((await plain.get(SUBS)).statusCode).toBe(403)
    expect((await plain.patch(NEW_IP, { users: [] })).statusCode).toBe(403)
  })

  it('a login from a new IP reaches the subscribed user and group member by mail and site message, no one else', async () => {
    const saved = await admin.patch(NEW_IP, { users: [ops], groups: [group], receive_backends: ['site_msg', 'email'] })
    expect(saved.statusCode, saved.body).toBe(200)
    expect(saved.json()).toMatchObject({ users: [ops], groups: [group], receive_backends: ['site_msg', 'email'] })
    expect(saved.json().receivers.map((r: { name: string }) => r.name).sort()).toEqual(['ops(ops)', 'sec(sec)'])

    // alice logged in before, from elsewhere; now from the test client's address
    await sql`insert into login_logs (id, username, type, ip, city, user_agent, mfa, reason, backend, status)
      values (${randomUUID()}, 'alice', 'W', '10.9.8.7', '', '', 0, '', 'password', true)`.execute(server.database.db)
    const login = await webLogin(englishClient(server), 'alice', 'Alice-Passw0rd!')
    expect(login.statusCode, login.body).toBe(200)

    const mails = [await smtp.next('ops@example.com'), await smtp.next('sec@example.com')]
    for (const m of mails) {
      expect(m.subject).toBe('[JMS] Login from a new IP: alice')
      expect(m.text).toContain('logged in from 127.0.0.1')
      expect(m.to).toHaveLength(1)
    }
    const inboxOf = async (u: string) => ((await (await asEnglish(server, u)).get(INBOX)).json() as { results?: { content: { subject: string } }[] } | { content: { subject: string } }[])
    const subjects = (x: Awaited<ReturnType<typeof inboxOf>>) => (Array.isArray(x) ? x : x.results ?? []).map((m) => m.content.subject)
    await expect.poll(async () => subjects(await inboxOf('ops'))).toEqual(['Login from a new IP: alice'])
    expect(subjects(await inboxOf('sec'))).toEqual(['Login from a new IP: alice'])
    expect(subjects(await inboxOf('bystander'))).toEqual([])
    expect(smtp.mails.filter((m) => m.to.includes('bystander@example.com'))).toEqual([])

    // the same address again: no message; the site message only when email is switched off
    const before = smtp.mails.length
    expect((await webLogin(englishClient(server), 'alice', 'Alice-Passw0rd!')).statusCode).toBe(200)
    await new Promise((r) => setTimeout(r, 300))
    expect(smtp.mails.length).toBe(before)
    expect(subjects(await inboxOf('ops'))).toHaveLength(1)
  })

  it('the daily check lists the passwords about to expire to its subscribers', async () => {
    await admin.patch(`${SUBS}PasswordExpirationReminderMsg/`, { users: [ops], receive_backends: ['email'] })
    await admin.patch('/api/v1/settings/setting/?category=security', { SECURITY_PASSWORD_EXPIRATION_TIME: 30 })
    await sql`update users set date_password_last_updated = now() - interval '28 days' where username = 'alice'`.execute(server.database.db)
    const logs: string[] = []
    const kind = taskKind(PASSWORD_EXPIRY_TASK)!
    const result = await kind.run({ id: randomUUID(), name: kind.name, args: [], kwargs: {}, db: server.database.db, database: server.database,
      log: async (t) => { logs.push(t) }, now: () => new Date(), signal: new AbortController().signal, lang: 'en', t: (s) => s })
    expect(result).toMatchObject({ mailed: 1 })
    const mail = await smtp.next('ops@example.com')
    expect(mail.subject).toBe('[JMS] Passwords expiring soon')
    expect(mail.text).toContain('alice(alice)')
  })
})
