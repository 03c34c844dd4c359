/** The profile area's endpoints (issue 34): API keys and signed requests, temporary passwords, preferences, the
 * password form's login limit, the SSH-key look-up. */
import { generateKeyPairSync } from 'node:crypto'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { asEnglish, authTestServer, bindOtp, patchSession } from '../auth/test-support.ts'
import { totp } from '../auth/totp.ts'
import { DATE_SKEW_SECONDS, signRequest } from '../auth/signature.ts'
import { ROLE_IDS } from '../rbac/catalog.ts'
import { setSettings } from '../settings/store.ts'
import { md5Fingerprint, parseSshPublicKey, userByPublicKey } from '../startup/ssh-key.ts'
import type { TestServer } from '../testing.ts'
import { MAX_KEYS } from './access-keys.ts'
import { consumeTempToken } from './temp-tokens.ts'

let server: TestServer
const db = () => server.database.db
const KEYS = '/api/v1/authentication/access-keys/'
const USERS = '/api/v1/users/users/'

beforeAll(async () => { server = await authTestServer() })
afterAll(async () => { await server?.close() })

/** A request signed with an access key, with no cookie at all (a script's). */
function signed(id: string, secret: string, url: string, date?: string) {
  return server.app.inject({ method: 'GET', url, headers: { ...signRequest(id, secret, 'GET', url, date), 'accept-language': 'en' } })
}

describe('API keys', () => {
  it('creates a key whose secret is shown once, lists own keys only, and signs requests with the owner\'s permissions', async () => {
    const admin = await asEnglish(server, 'admin')
    const made = await admin.post(KEYS, {})
    expect(made.statusCode).toBe(201)
    const key = made.json()
    expect(key.secret).toMatch(/^[A-Za-z0-9_-]{32}$/)
    expect(key).toMatchObject({ is_active: true, date_last_used: null })
    const list = (await admin.get(KEYS)).json()
    expect(list.map((k: { id: string }) => k.id)).toContain(key.id)
    expect(list.find((k: { id: string }) => k.id === key.id).secret).toBe('******')
    // sealed at rest
    const stored = (await sql<{ secret: string }>`select secret from access_keys where id = ${key.id}`.execute(db())).rows[0]!.secret
    expect(stored).not.toContain(key.secret)

    const r = await signed(key.id, key.secret, `${USERS}?limit=5`)
    expect(r.statusCode).toBe(200)
    expect(r.json().results.map((u: { username: string }) => u.username)).toContain('admin')
    expect((await admin.get(`${KEYS}${key.id}/`)).json().date_last_used).not.toBeNull()

    // another user sees none of it, and their own key has their own (smaller) permissions
    await server.createUser({ username: 'keyuser', systemRoles: [ROLE_IDS.User] })
    const other = await asEnglish(server, 'keyuser')
    expect((await other.get(`${KEYS}${key.id}/`)).statusCode).toBe(404)
    expect((await other.patch(`${KEYS}${key.id}/`, { is_active: false })).statusCode).toBe(404)
    const own = (await other.post(KEYS, {})).json()
    expect((await signed(own.id, own.secret, USERS)).statusCode).toBe(403)
    expect((await signed(own.id, own.secret, '/api/v1/users/profile/')).json().username).toBe('keyuser')
  })

  it('refuses a disabled or deleted key at once, a wrong signature and a skewed date', async () => {
    const admin = await asEnglish(server, 'admin')
    const key = (await admin.post(KEYS, {})).json()
    expect((await signed(key.id, key.secret, USERS)).statusCode).toBe(200)

    expect((await admin.patch(`${KEYS}${key.id}/`, { is_active: false })).json().is_active).toBe(false)
    expect((await signed(key.id, key.secret, USERS)).statusCode).toBe(401)
    await admin.patch(`${KEYS}${key.id}/`, { is_active: true })
    expect((await signed(key.id, key.secret, USERS)).statusCode).toBe(200)

    expect((await signed(key.id, `${key.secret}x`, USERS)).statusCode).toBe(401)
    // signed for another URL
    const h = signRequest(key.id, key.secret, 'GET', '/api/v1/users/groups/')
    expect((await server.app.inject({ method: 'GET', url: USERS, headers: h })).statusCode).toBe(401)
    const skewed = new Date(Date.now() - (DATE_SKEW_SECONDS + 60) * 1000).toUTCString()
    expect((await signed(key.id, key.secret, USERS, skewed)).statusCode).toBe(401)
    const ahead = new Date(Date.now() + (DATE_SKEW_SECONDS + 60) * 1000).toUTCString()
    expect((await signed(key.id, key.secret, USERS, ahead)).statusCode).toBe(401)

    expect((await admin.delete(`${KEYS}${key.id}/`)).statusCode).toBe(204)
    expect((await signed(key.id, key.secret, USERS)).statusCode).toBe(401)
  })

  it('asks a user with MFA for an MFA confirmation before creating a key', async () => {
    const id = await server.createUser({ username: 'mfakeys', systemRoles: [ROLE_IDS.User] })
    const seed = await bindOtp(server, id)
    const c = await asEnglish(server, 'mfakeys')
    const refused = await c.post(KEYS, {})
    expect(refused.statusCode).toBe(400)
    expect(refused.json().code).toBe('mfa')
    expect((await c.post('/api/v1/authentication/confirm/', { confirm_type: 'mfa', mfa_type: 'otp', secret_key: totp(seed) })).json()).toBe('ok')
    expect((await c.post(KEYS, {})).statusCode).toBe(201)
    await patchSession(server, c, (d) => { d.confirm.at = Date.now() - 4000_000 })
    expect((await c.post(KEYS, {})).statusCode).toBe(400)
  })

  it('answers 401 to a request with no credentials and 400 to bad bodies', async () => {
    expect((await server.client().get(KEYS)).statusCode).toBe(401)
    const admin = await asEnglish(server, 'admin')
    const key = (await admin.post(KEYS, {})).json()
    const bad = await admin.patch(`${KEYS}${key.id}/`, { is_active: 'perhaps' })
    expect(bad.statusCode).toBe(400)
    expect(Object.keys(bad.json())).toEqual(['is_active'])
    // a bounded number per user
    const uid = await server.createUser({ username: 'manykeys', systemRoles: [ROLE_IDS.User] })
    await sql`insert into access_keys (id, secret, user_id) select gen_random_uuid(), 'x', ${uid} from generate_series(1, ${MAX_KEYS})`.execute(db())
    const over = await (await asEnglish(server, 'manykeys')).post(KEYS, {})
    expect(over.json()).toEqual({ non_field_errors: [`A user has at most ${MAX_KEYS} API keys.`] })
  })
})

describe('temporary passwords', () => {
  const URL = '/api/v1/authentication/temp-tokens/'
  it('are refused while AUTH_TEMP_TOKEN is off, then one-time and 300 s', async () => {
    await server.createUser({ username: 'tempuser', systemRoles: [ROLE_IDS.User] })
    const c = await asEnglish(server, 'tempuser')
    await setSettings(db(), { AUTH_TEMP_TOKEN: false })
    expect((await c.post(URL, {})).statusCode).toBe(403)
    await setSettings(db(), { AUTH_TEMP_TOKEN: true })
    const made = await c.post(URL, {})
    expect(made.statusCode).toBe(201)
    const tok = made.json()
    expect(tok.secret).toMatch(/^[A-Za-z0-9]{36}$/)
    expect(tok).toMatchObject({ username: 'tempuser', verified: false, is_valid: true })
    const life = new Date(tok.date_expired.replace(/\//g, '-').replace(' ', 'T').replace(/ ([+-]\d\d)(\d\d)$/, '$1:$2')).getTime() -
      new Date(tok.date_created.replace(/\//g, '-').replace(' ', 'T').replace(/ ([+-]\d\d)(\d\d)$/, '$1:$2')).getTime()
    expect(Math.round(life / 1000)).toBe(300)
    expect((await c.get(URL)).json()[0].secret).toBe('******')

    expect(await consumeTempToken(db(), 'admin', tok.secret)).toBeUndefined()
    const uid = await consumeTempToken(db(), 'tempuser', tok.secret)
    expect(uid).toBeDefined()
    expect(await consumeTempToken(db(), 'tempuser', tok.secret)).toBeUndefined() // used up
    expect((await c.get(`${URL}${tok.id}/`)).json()).toMatchObject({ verified: true, is_valid: false })

    const second = (await c.post(URL, {})).json()
    expect((await c.patch(`${URL}${second.id}/expire/`, {})).statusCode).toBe(204)
    expect(await consumeTempToken(db(), 'tempuser', second.secret)).toBeUndefined()
    const third = (await c.post(URL, {})).json()
    await sql`update temp_tokens set date_expired = now() - interval '1 second' where id = ${third.id}`.execute(db())
    expect(await consumeTempToken(db(), 'tempuser', third.secret)).toBeUndefined()
    await setSettings(db(), { AUTH_TEMP_TOKEN: false })
  })
})

describe('preferences', () => {
  const URL = '/api/v1/users/preference/'
  it('answer defaults, keep a partial group\'s other values, refuse bad values and describe themselves', async () => {
    await server.createUser({ username: 'prefuser', systemRoles: [ROLE_IDS.User] })
    const c = await asEnglish(server, 'prefuser')
    expect((await c.get(`${URL}?category=lina`)).json()).toEqual({ basic: { lang: 'auto', theme: 'system', default_view: 'auto', time_zone: '' } })
    const saved = await c.patch(`${URL}?category=lina`, { basic: { theme: 'dark', time_zone: 'Asia/Tokyo' } })
    expect(saved.json()).toEqual({ basic: { lang: 'auto', theme: 'dark', default_view: 'auto', time_zone: 'Asia/Tokyo' } })
    expect((await c.patch(`${URL}?category=lina`, { basic: { lang: 'ja' } })).json().basic).toMatchObject({ lang: 'ja', theme: 'dark' })
    const bad = await c.patch(`${URL}?category=lina`, { basic: { theme: 'purple', time_zone: 'Mars/Olympus' } })
    expect(bad.statusCode).toBe(400)
    expect(Object.keys(bad.json().basic).sort()).toEqual(['theme', 'time_zone'])
    expect((await c.get(`${URL}?category=lina`)).json().basic.theme).toBe('dark')
    expect((await c.get(`${URL}?category=nope`)).statusCode).toBe(400)

    const luna = await c.patch(`${URL}?category=luna`, { graphics: { rdp_resolution: '1920x1080', rdp_client_option: ['full_screen'] }, command_line: { character_terminal_font_size: 16 } })
    expect(luna.json().graphics).toMatchObject({ rdp_resolution: '1920x1080', rdp_client_option: ['full_screen'], keyboard_layout: 'en-us-qwerty' })
    expect(luna.json().command_line.character_terminal_font_size).toBe(16)
    expect((await c.patch(`${URL}?category=luna`, { command_line: { character_terminal_font_size: 400 } })).statusCode).toBe(400)
    expect((await c.patch(`${URL}?category=koko`, { basic: { file_name_conflict_resolution: 'skip' } })).json().basic.file_name_conflict_resolution).toBe('skip')

    // another user's are their own
    const admin = await asEnglish(server, 'admin')
    expect((await admin.get(`${URL}?category=lina`)).json().basic.theme).toBe('system')
    const meta = (await c.options(`${URL}?category=luna`)).json()
    expect(Object.keys(meta.actions.PUT)).toEqual(['basic', 'graphics', 'command_line'])
    expect(meta.actions.PUT.graphics.children.rdp_resolution.choices.length).toBeGreaterThan(1)
    expect((await server.client().get(`${URL}?category=lina`)).statusCode).toBe(401)
  })
})

describe('password change and the login limit', () => {
  it('counts a wrong current password as a failed login and blocks after the limit', async () => {
    await setSettings(db(), { SECURITY_LOGIN_LIMIT_COUNT: 3, SECURITY_LOGIN_LIMIT_TIME: 30 })
    await server.createUser({ username: 'guesser', password: 'Right-pass1' })
    const c = await asEnglish(server, 'guesser')
    const body = (old: string) => ({ old_password: old, new_password: 'New-pass22', new_password_again: 'New-pass22' })
    for (let i = 0; i < 2; i++) expect((await c.put('/api/v1/users/profile/password/', body('wrong'))).json()).toEqual({ old_password: ['The old password is incorrect'] })
    const third = await c.put('/api/v1/users/profile/password/', body('wrong'))
    expect(third.json().old_password[0]).toMatch(/locked/)
    // now even the right password is refused here, and the login is blocked too
    expect((await c.put('/api/v1/users/profile/password/', body('Right-pass1'))).json().old_password[0]).toMatch(/locked/)
    const login = server.client()
    login.headers['accept-language'] = 'en'
    const r = await login.post('/api/v1/authentication/auth/', { username: 'guesser', password: 'Right-pass1' })
    expect(r.statusCode).toBe(400)
    expect(r.json().code).toBe('blocked')
    await setSettings(db(), { SECURITY_LOGIN_LIMIT_COUNT: 7 })
  })
})

describe('SSH public key', () => {
  it('is set, replaced and removed through the profile, and finds its user by the key blob', async () => {
    await server.createUser({ username: 'sshuser', systemRoles: [ROLE_IDS.User] })
    const c = await asEnglish(server, 'sshuser')
    const { publicKey } = generateKeyPairSync('ed25519')
    const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32)
    const blob = Buffer.concat([Buffer.from([0, 0, 0, 11]), Buffer.from('ssh-ed25519'), Buffer.from([0, 0, 0, 32]), raw])
    const line = `ssh-ed25519 ${blob.toString('base64')} me@laptop`
    const set = await c.patch('/api/v1/users/profile/', { public_key: line })
    expect(set.json()).toMatchObject({ public_key_comment: 'me@laptop', public_key_hash_md5: md5Fingerprint(parseSshPublicKey(line)!.blob) })
    expect((await userByPublicKey(db(), blob))?.username).toBe('sshuser')
    expect((await c.patch('/api/v1/users/profile/', { public_key: 'ssh-ed25519 AAAA' })).statusCode).toBe(400)
    expect((await c.patch('/api/v1/users/profile/', { public_key: '' })).json().public_key_hash_md5).toBe('')
    expect(await userByPublicKey(db(), blob)).toBeUndefined()
  })
})

describe('asset more information', () => {
  it('a host\'s gathered_info is edited with JumpServer\'s keys; bad values are field errors and nothing is saved', async () => {
    const admin = await asEnglish(server, 'admin')
    const platform = (await sql<{ id: number }>`select id from platforms where category = 'host' order by id limit 1`.execute(db())).rows[0]!.id
    const made = await admin.post('/api/v1/assets/hosts/', { name: 'hw-host', address: '10.9.8.7', platform, protocols: [{ name: 'ssh', port: 22 }] })
    expect(made.statusCode, made.body).toBe(201)
    const id = made.json().id
    const meta = (await admin.options('/api/v1/assets/hosts/')).json()
    expect(Object.keys(meta.actions.POST.gathered_info.children)).toEqual(['vendor', 'model', 'sn', 'cpu_model', 'cpu_count', 'cpu_cores',
      'cpu_vcpus', 'memory', 'disk_total', 'distribution', 'distribution_version', 'arch'])
    const saved = await admin.patch(`/api/v1/assets/hosts/${id}/`, { gathered_info: { vendor: 'ACME', cpu_count: '2', arch: 'x86_64' } })
    expect(saved.statusCode, saved.body).toBe(200)
    expect((await admin.get(`/api/v1/assets/assets/${id}/`)).json().gathered_info).toMatchObject({ vendor: 'ACME', cpu_count: '2', arch: 'x86_64' })
    const bad = await admin.patch(`/api/v1/assets/hosts/${id}/`, { gathered_info: { vendor: 'x'.repeat(2000) } })
    expect(bad.statusCode).toBe(400)
    expect(Object.keys(bad.json())).toEqual(['gathered_info'])
    expect((await admin.get(`/api/v1/assets/hosts/${id}/`)).json().gathered_info.vendor).toBe('ACME')
  })
})
