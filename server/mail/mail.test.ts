import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { asEnglish, authTestServer, englishClient, openLoginPage, webLogin } from '../auth/test-support.ts'
import { invalidateSettingsCache } from '../settings/store.ts'
import { dbKind, type TestClient, type TestServer } from '../testing.ts'
import { startSmtp, type TestSmtp } from '../testing/smtp.ts'

const EMAIL = '/api/v1/settings/setting/?category=email'
const CONTENT = '/api/v1/settings/setting/?category=email_content'
const TESTING = '/api/v1/settings/mail/testing/'
const USERS = '/api/v1/users/users/'
const RESET = '/api/v1/authentication/password/reset/'

const tokenOf = (text: string) => /\/core\/auth\/password\/reset\/\?token=([A-Za-z0-9_-]+)/.exec(text)?.[1]

describe(`mail against a real SMTP server (${dbKind()})`, () => {
  let server: TestServer
  let admin: TestClient
  let smtp: TestSmtp
  let other: TestSmtp

  beforeAll(async () => {
    invalidateSettingsCache()
    server = await authTestServer()
    admin = await asEnglish(server, 'admin')
    smtp = await startSmtp({ user: 'mailer', password: 'smtp-secret' })
    other = await startSmtp({ user: 'relay', password: 'relay-secret' })
  })
  afterAll(async () => {
    await smtp?.stop()
    await other?.stop()
    await server?.close()
  })

  const useSmtp = async (s: TestSmtp, extra: Record<string, unknown> = {}) => {
    const r = await admin.patch(EMAIL, { EMAIL_HOST: s.host, EMAIL_PORT: String(s.port), EMAIL_USE_SSL: false, EMAIL_USE_TLS: false, ...extra })
    expect(r.statusCode, r.body).toBe(200)
    return r.json()
  }

  it('refuses the test mail without a mail server, then sends it through the saved one with its login', async () => {
    const none = await admin.post(TESTING, { EMAIL_RECIPIENT: 'ops@example.org' })
    expect(none.statusCode).toBe(400)
    expect(none.json()).toEqual({ error: 'No mail server is configured' })

    const saved = await useSmtp(smtp, { EMAIL_HOST_USER: 'mailer', EMAIL_HOST_PASSWORD: 'smtp-secret', EMAIL_FROM: 'bastion@example.org', EMAIL_SUBJECT_PREFIX: '[Bastion] ' })
    expect(saved).not.toHaveProperty('EMAIL_HOST_PASSWORD')
    expect(saved.SECRETS_SET).toEqual({ EMAIL_HOST_PASSWORD: true })

    const r = await admin.post(TESTING, { EMAIL_RECIPIENT: 'ops@example.org' })
    expect(r.json()).toEqual({ msg: 'Test mail sent to ops@example.org, please check' })
    const mail = await smtp.next('ops@example.org')
    expect(mail).toMatchObject({ from: 'bastion@example.org', user: 'mailer', subject: '[Bastion] Test mail' })
    expect(mail.text).toContain('If you read it, mail works.')

    // an empty password keeps the stored one; a wrong one is the mail server's refusal, shown
    await useSmtp(smtp, { EMAIL_HOST_PASSWORD: '' })
    expect((await admin.post(TESTING, { EMAIL_RECIPIENT: 'ops@example.org' })).statusCode).toBe(200)
    await smtp.next('ops@example.org')
    await useSmtp(smtp, { EMAIL_HOST_PASSWORD: 'wrong' })
    const refused = await admin.post(TESTING, { EMAIL_RECIPIENT: 'ops@example.org' })
    expect(refused.statusCode).toBe(400)
    expect(refused.json().error).toMatch(/^The mail could not be sent: .*Invalid username or password/)
    await useSmtp(smtp, { EMAIL_HOST_PASSWORD: 'smtp-secret' })
  })

  it('needs settings.change_email for the test mail', async () => {
    await server.createUser({ username: 'plain-mail' })
    const plain = await asEnglish(server, 'plain-mail')
    expect((await plain.post(TESTING, { EMAIL_RECIPIENT: 'x@example.org' })).statusCode).toBe(403)
    expect((await englishClient(server).post(TESTING, {})).statusCode).toBe(401)
  })

  it('a changed mail server takes the next mail', async () => {
    await useSmtp(other, { EMAIL_HOST_USER: 'relay', EMAIL_HOST_PASSWORD: 'relay-secret' })
    expect((await admin.post(TESTING, { EMAIL_RECIPIENT: 'next@example.org' })).statusCode).toBe(200)
    expect(await other.next('next@example.org')).toMatchObject({ user: 'relay', subject: '[Bastion] Test mail' })
    expect(smtp.mails).toHaveLength(0)
    await useSmtp(smtp, { EMAIL_HOST_USER: 'mailer', EMAIL_HOST_PASSWORD: 'smtp-secret' })
  })

  it('mails a new user the account-created mail of the Email content settings, whose link sets the password', async () => {
    const content = await admin.patch(CONTENT, {
      EMAIL_CUSTOM_USER_CREATED_SUBJECT: 'Welcome aboard', EMAIL_CUSTOM_USER_CREATED_HONORIFIC: 'Dear',
      EMAIL_CUSTOM_USER_CREATED_BODY: 'Your bastion account is ready.', EMAIL_CUSTOM_USER_CREATED_SIGNATURE: 'The ops team',
    })
    expect(content.statusCode).toBe(200)
    const created = await admin.post(USERS, { name: 'Nora New', username: 'nora', email: 'nora@example.org', password_strategy: 'email' })
    expect(created.statusCode, created.body).toBe(201)
    const mail = await smtp.next('nora@example.org')
    expect(mail.subject).toBe('[Bastion] Welcome aboard')
    expect(mail.text).toContain('Dear Nora New,')
    expect(mail.text).toContain('Your bastion account is ready.')
    expect(mail.text).toContain('Username: nora')
    expect(mail.text).toContain('The ops team')
    const token = tokenOf(mail.text)!
    expect(token).toBeTruthy()

    const c = englishClient(server)
    await openLoginPage(c)
    expect((await c.get(`${RESET}?token=${token}`)).json()).toMatchObject({ username: 'nora', name: 'Nora New', password_rules: { SECURITY_PASSWORD_MIN_LENGTH: 6 } })
    const mismatch = await c.post(RESET, { token, new_password: 'Nora-Passw0rd!', new_password_again: 'other' })
    expect(mismatch.statusCode).toBe(400)
    expect(mismatch.json()).toEqual({ new_password_again: ['The newly set password is inconsistent'] })
    const short = await c.post(RESET, { token, new_password: 'abc', new_password_again: 'abc' })
    expect(short.json()).toHaveProperty('new_password')
    expect((await c.post(RESET, { token, new_password: 'Nora-Passw0rd!', new_password_again: 'Nora-Passw0rd!' })).json())
      .toEqual({ msg: 'Your password has been reset. You can log in with it now.' })
    // used once
    const again = await c.post(RESET, { token, new_password: 'Nora-Passw0rd!2', new_password_again: 'Nora-Passw0rd!2' })
    expect(again.statusCode).toBe(400)
    expect(again.json().code).toBe('reset_link_invalid')
    expect((await webLogin(englishClient(server), 'nora', 'Nora-Passw0rd!')).statusCode).toBe(200)
  })

  it('a custom password sends the mail without a link; a reset link needs the login page CSRF token and a valid token', async () => {
    const created = await admin.post(USERS, { name: 'Carl', username: 'carl', email: 'carl@example.org', password_strategy: 'custom', password: 'Carl-Passw0rd!' })
    expect(created.statusCode, created.body).toBe(201)
    const mail = await smtp.next('carl@example.org')
    expect(tokenOf(mail.text)).toBeUndefined()
    const c = englishClient(server)
    expect((await c.post(RESET, { token: 'x', new_password: 'a', new_password_again: 'a' })).statusCode).toBe(403)
    await openLoginPage(c)
    expect((await c.get(`${RESET}?token=nope`)).json()).toMatchObject({ code: 'reset_link_invalid' })
    expect((await c.post(RESET, { token: 'nope', new_password: 'Valid-Passw0rd!', new_password_again: 'Valid-Passw0rd!' })).statusCode).toBe(400)
    expect((await c.post(RESET, {})).json()).toMatchObject({ token: ['This field is required.'], new_password: ['This field is required.'] })
  })

  it('mails the reset link of "reset password", ending the sessions; a refusing mail server changes nothing', async () => {
    const id = (await admin.get(`${USERS}?username=carl`, { 'x-jms-org': 'ROOT' })).json()[0].id as string
    const r = await admin.put(`${USERS}${id}/password/reset/`, {})
    expect(r.statusCode, r.body).toBe(200)
    const mail = await smtp.next('carl@example.org')
    expect(mail.subject).toBe('[Bastion] Reset password')
    expect(mail.text).toContain('Hello Carl,')
    expect(tokenOf(mail.text)).toBeTruthy()

    const count = async () => (await sql<{ n: number }>`select count(*)::int as n from password_reset_tokens where user_id = ${id}`.execute(server.database.db)).rows[0]!.n
    const before = await count()
    await useSmtp(smtp, { EMAIL_HOST_PASSWORD: 'wrong' })
    const refused = await admin.put(`${USERS}${id}/password/reset/`, {})
    expect(refused.statusCode).toBe(400)
    expect(refused.json()).toMatchObject({ code: 'email_send_failed' })
    expect(await count()).toBe(before)
    await useSmtp(smtp, { EMAIL_HOST_PASSWORD: 'smtp-secret' })
  })
})
