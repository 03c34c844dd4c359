/**
 * The terminal component API driven as a component drives it: registration with the bootstrap token, every
 * later request signed with the access key (HTTP Signature, hmac-sha256), over HTTP (inject) — never by
 * writing the database. Then what auditors and administrators read, and what they may not change.
 */
import { mkdtempSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { signRequest } from '../../auth/signature.ts'
import { ORG_IDS, ROLE_IDS } from '../../rbac/catalog.ts'
import { runCleanup } from '../../tasks/cleanup.ts'
import { dbKind } from '../../testing.ts'
import { useTestServer } from '../../use-test-server.ts'

const BOOTSTRAP = 'bootstrap-token-for-tests'
const dataDir = mkdtempSync(join(tmpdir(), 'bastion-terminal-'))

import { castOf, multipart, signed } from './test-support.ts'

describe(`terminal component API (${dbKind()})`, () => {
  const s = useTestServer({ bootstrapToken: BOOTSTRAP, dataDir, replayMaxBytes: 4096 })
  let comp: { id: string; secret: string }
  const sessionId = '6c1b5e0a-1f0e-4a57-9d44-0d2f2d2a0c01'

  it('registers with the bootstrap token only, and gives an access key once', async () => {
    const url = '/api/v1/terminal/terminal-registrations/'
    const bad = await s.t.app.inject({ method: 'POST', url, headers: { authorization: 'BootstrapToken nope', 'content-type': 'application/json' }, payload: '{"name":"koko-1"}' })
    expect(bad.statusCode).toBe(401)
    const none = await s.t.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload: '{"name":"koko-1"}' })
    expect(none.statusCode).toBe(401)
    const invalid = await s.t.app.inject({ method: 'POST', url, headers: { authorization: `BootstrapToken ${BOOTSTRAP}`, 'content-type': 'application/json' }, payload: '{"type":"fly"}' })
    expect(invalid.statusCode).toBe(400)
    expect(Object.keys(invalid.json()).sort()).toEqual(['name', 'type'])
    const ok = await s.t.app.inject({ method: 'POST', url, headers: { authorization: `BootstrapToken ${BOOTSTRAP}`, 'content-type': 'application/json' }, payload: '{"name":"koko-1","type":"koko"}' })
    expect(ok.statusCode).toBe(201)
    const body = ok.json()
    expect(body).toMatchObject({ name: 'koko-1', type: 'koko', service_account: { access_key: { id: expect.any(String), secret: expect.any(String) } } })
    comp = body.service_account.access_key
    // The secret is sealed at rest; the terminal is listed, and never shows the secret.
    const stored = (await sql<{ secret: string }>`select secret from access_keys where id = ${comp.id}`.execute(s.t.database.db)).rows[0]!
    expect(stored.secret).not.toContain(comp.secret)
    const list = await s.admin.get('/api/v1/terminal/terminals/')
    expect(list.json()).toEqual([expect.objectContaining({ name: 'koko-1', type: 'koko', is_alive: false, load: { value: 'offline', label: 'Offline' } })])
    expect(list.body).not.toContain(comp.secret)
    // The same name again gets a suffix.
    const again = await s.t.app.inject({ method: 'POST', url, headers: { authorization: `BootstrapToken ${BOOTSTRAP}`, 'content-type': 'application/json' }, payload: '{"name":"koko-1"}' })
    expect(again.json().name).toMatch(/^koko-1_/)
  })

  it('refuses bad signatures, other keys, unsigned headers and a Date outside the skew', async () => {
    const url = '/api/v1/terminal/terminals/status/'
    const body = JSON.stringify({ cpu_load: 0.5, memory_used: 40, disk_used: 30, session_online: 0 })
    const send = (headers: Record<string, string>) => s.t.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json', ...headers }, payload: body })
    const good = signRequest(comp.id, comp.secret, 'POST', url)
    expect((await send(good)).statusCode).toBe(201)
    const wrongSecret = signRequest(comp.id, 'not-the-secret', 'POST', url)
    const wrongPath = signRequest(comp.id, comp.secret, 'POST', '/api/v1/terminal/tasks/')
    const wrongMethod = signRequest(comp.id, comp.secret, 'GET', url)
    const unknownKey = signRequest('6c1b5e0a-1f0e-4a57-9d44-0d2f2d2a0c99', comp.secret, 'POST', url)
    const old = signRequest(comp.id, comp.secret, 'POST', url, new Date(Date.now() - 16 * 60_000).toUTCString())
    const future = signRequest(comp.id, comp.secret, 'POST', url, new Date(Date.now() + 16 * 60_000).toUTCString())
    const noDate = { authorization: good.authorization!.replace('(request-target) date', '(request-target)') }
    const garbage = { authorization: 'Signature keyId=,,,', date: good.date }
    for (const h of [wrongSecret, wrongPath, wrongMethod, unknownKey, old, future, noDate, garbage]) {
      const r = await send(h)
      expect(r.statusCode, JSON.stringify(h)).toBe(401)
      expect(r.json()).toMatchObject({ detail: 'Invalid signature.' })
    }
    // A signed request whose Date header was changed after signing.
    expect((await send({ ...good, date: new Date(Date.now() + 1000).toUTCString() })).statusCode).toBe(401)
    // A user (not a component) may not heartbeat.
    expect((await s.admin.post(url, {})).statusCode).toBe(403)
  })

  it('records heartbeats: the terminal is alive with its load', async () => {
    const r = await signed(s.t, comp, 'POST', '/api/v1/terminal/terminals/status/', { cpu_load: 9.5, memory_used: 50, disk_used: 20, session_online: 1, sessions: [] })
    expect(r.statusCode).toBe(201)
    expect(r.json()).toEqual([])
    const [t] = (await s.admin.get('/api/v1/terminal/terminals/?name=koko-1')).json()
    // JumpServer's thresholds: a cpu load of 9.5 is high (5–20), memory 50 % and disk 20 % normal
    expect(t).toMatchObject({ is_alive: true, is_active: true, load: { value: 'high' }, stat: { cpu_load: 9.5, memory_used: 50 } })
    const bad = await signed(s.t, comp, 'POST', '/api/v1/terminal/terminals/status/', { cpu_load: 'x', sessions: ['nope'] })
    expect(bad.statusCode).toBe(400)
    expect(Object.keys(bad.json()).sort()).toEqual(['cpu_load', 'sessions'])
  })

  it('opens a session, posts commands in bulk with risk levels and a file transfer, finishes it', async () => {
    const open = await signed(s.t, comp, 'POST', '/api/v1/terminal/sessions/', {
      id: sessionId, user: 'Alice(alice)', asset: 'web-01(10.0.0.5)', account: 'root(root)', user_id: 'u-1', asset_id: 'a-1', account_id: 'c-1',
      protocol: 'ssh', login_from: 'ST', remote_addr: '10.1.1.1', org_id: ORG_IDS.DEFAULT, type: 'normal',
    })
    expect(open.statusCode, open.body).toBe(201)
    expect(open.json()).toMatchObject({ id: sessionId, is_finished: false, terminal: { name: 'koko-1' }, can_terminate: true, org_id: ORG_IDS.DEFAULT })
    const ts = Math.floor(Date.now() / 1000)
    const cmds = [
      { user: 'Alice(alice)', asset: 'web-01(10.0.0.5)', account: 'root(root)', input: 'ls -la', output: 'total 0', session: sessionId, risk_level: 0, timestamp: ts, org_id: ORG_IDS.DEFAULT },
      { user: 'Alice(alice)', asset: 'web-01(10.0.0.5)', account: 'root(root)', input: 'rm -rf /tmp/x', output: '', session: sessionId, risk_level: 5, timestamp: ts + 1, org_id: ORG_IDS.DEFAULT },
    ]
    const posted = await signed(s.t, comp, 'POST', '/api/v1/terminal/commands/', cmds)
    expect(posted.statusCode, posted.body).toBe(201)
    // A bad item refuses the whole batch, aligned errors.
    const bad = await signed(s.t, comp, 'POST', '/api/v1/terminal/commands/', [cmds[0], { ...cmds[1], risk_level: 9 }])
    expect(bad.statusCode).toBe(400)
    expect(bad.json()).toEqual([{}, { risk_level: [expect.any(String)] }])
    const ftp = await signed(s.t, comp, 'POST', '/api/v1/audits/ftp-logs/', { user: 'Alice(alice)', asset: 'web-01(10.0.0.5)', account: 'root(root)', operate: 'upload', filename: '/tmp/a.txt', is_success: true, remote_addr: '10.1.1.1', org_id: ORG_IDS.DEFAULT, session: sessionId })
    expect(ftp.statusCode, ftp.body).toBe(201)

    const online = (await s.admin.get('/api/v1/terminal/sessions/?is_finished=0')).json()
    expect(online.map((x: { id: string }) => x.id)).toEqual([sessionId])
    expect(online[0]).toMatchObject({ has_command: true, command_amount: 2, login_from: { value: 'ST', label: 'SSH Terminal' } })
    const danger = (await s.admin.get(`/api/v1/terminal/commands/?session=${sessionId}&risk_level=5`)).json()
    expect(danger).toEqual([expect.objectContaining({ input: 'rm -rf /tmp/x', risk_level: { value: 5, label: 'Dangerous' }, timestamp: ts + 1 })])
    expect((await s.admin.get('/api/v1/terminal/commands/?search=rm')).json()).toHaveLength(1)
    expect((await s.admin.get('/api/v1/audits/ftp-logs/?operate=upload')).json()).toHaveLength(1)

    const finish = await signed(s.t, comp, 'PATCH', `/api/v1/terminal/sessions/${sessionId}/`, { is_finished: true })
    expect(finish.statusCode).toBe(200)
    expect(finish.json()).toMatchObject({ is_finished: true, can_terminate: false, date_end: expect.any(String) })
    expect((await s.admin.get('/api/v1/terminal/sessions/?is_finished=1')).json()).toHaveLength(1)
  })

  it('takes a gzip asciicast replay, bounded, and serves it to auditors', async () => {
    const url = `/api/v1/terminal/sessions/${sessionId}/replay/`
    const upload = async (data: Buffer) => {
      const m = multipart('file', `${sessionId}.cast.gz`, data)
      return signed(s.t, comp, 'POST', url, m.payload, { 'content-type': m.contentType })
    }
    const tooBig = await upload(gzipSync(Buffer.from(JSON.stringify({ version: 2 }) + '\n' + Array.from({ length: 3000 }, (_, i) => `[${i}.${(i * 7919) % 1000}, "o", "${Math.random().toString(36).repeat(3)}"]`).join('\n'))))
    expect(tooBig.statusCode).toBe(400)
    expect(tooBig.json().file[0]).toMatch(/larger than 4096 bytes/)
    expect((await upload(Buffer.from('not gzip at all'))).statusCode).toBe(400)
    expect((await upload(gzipSync(Buffer.from('<html>nope</html>')))).statusCode).toBe(400)
    expect(readdirSync(join(dataDir, 'replays'), { recursive: true }).filter((f) => String(f).endsWith('.part'))).toEqual([])
    const cast = castOf(['[0.1, "o", "$ ls -la\\r\\n"]', '[0.5, "o", "total 0\\r\\n"]'])
    const ok = await upload(cast)
    expect(ok.statusCode, ok.body).toBe(201)

    const info = await s.admin.get(url)
    expect(info.json()).toMatchObject({ type: 'asciicast', src: `${url}download/`, user: 'Alice(alice)' })
    const file = await s.admin.get(`${url}download/`)
    expect(file.statusCode).toBe(200)
    expect(file.headers['content-type']).toBe('application/gzip')
    expect(file.rawPayload.equals(cast)).toBe(true)
    expect((await s.admin.get('/api/v1/terminal/sessions/?has_replay=1')).statusCode).toBe(200)
  })

  it('delivers "terminate" to the component as a task it fetches and acknowledges', async () => {
    const id = '6c1b5e0a-1f0e-4a57-9d44-0d2f2d2a0c02'
    await signed(s.t, comp, 'POST', '/api/v1/terminal/sessions/', { id, user: 'Bob(bob)', asset: 'db-01', org_id: ORG_IDS.DEFAULT })
    const kill = await s.admin.post('/api/v1/terminal/tasks/kill-session/', [id, sessionId, 'garbage'])
    expect(kill.json()).toEqual({ ok: [id] })
    const beat = await signed(s.t, comp, 'POST', '/api/v1/terminal/terminals/status/', { sessions: [id] })
    const tasks = beat.json()
    expect(tasks).toEqual([expect.objectContaining({ name: 'kill_session', args: id, kwargs: { terminated_by: 'Administrator(admin)' }, is_finished: false })])
    expect((await signed(s.t, comp, 'GET', '/api/v1/terminal/tasks/')).json()).toHaveLength(1)
    const ack = await signed(s.t, comp, 'PATCH', `/api/v1/terminal/tasks/${tasks[0].id}/`, { is_finished: true })
    expect(ack.json()).toMatchObject({ is_finished: true })
    expect((await signed(s.t, comp, 'POST', '/api/v1/terminal/terminals/status/', {})).json()).toEqual([])
    // An administrator is no component: the task list is not theirs.
    expect((await s.admin.get('/api/v1/terminal/tasks/')).statusCode).toBe(403)
  })

  it('answers the per-type component metrics of Settings → Terminal → Monitor (terminal.view_terminal)', async () => {
    const URL = '/api/v1/terminal/components/metrics/'
    const register = async (name: string, type: string) => (await s.t.app.inject({ method: 'POST', url: '/api/v1/terminal/terminal-registrations/',
      headers: { authorization: `BootstrapToken ${BOOTSTRAP}`, 'content-type': 'application/json' }, payload: JSON.stringify({ name, type }) })).json().service_account.access_key as { id: string; secret: string }
    const lion = await register('lion-1', 'lion')
    const lion2 = await register('lion-2', 'lion')
    const gone = await register('lion-gone', 'lion')
    const beat = (key: { id: string; secret: string }, stat: Record<string, number>) => signed(s.t, key, 'POST', '/api/v1/terminal/terminals/status/', stat)
    expect((await beat(comp, { cpu_load: 0.5, memory_used: 90, disk_used: 10 })).statusCode).toBe(201)
    expect((await beat(lion, { cpu_load: 1, memory_used: 96, disk_used: 10 })).statusCode).toBe(201)
    expect((await beat(lion2, { cpu_load: 1, memory_used: 10, disk_used: 10 })).statusCode).toBe(201)
    await beat(gone, {})
    const goneId = (await s.admin.get('/api/v1/terminal/terminals/?name=lion-gone')).json()[0].id
    expect((await s.admin.delete(`/api/v1/terminal/terminals/${goneId}/`)).statusCode).toBe(204)
    const r = await s.admin.get(URL)
    expect(r.statusCode).toBe(200)
    // koko-1 is alive with memory 90 % (high) and one online session; its second registration never reported
    expect(r.json()).toEqual([
      { normal: 0, high: 1, critical: 0, offline: 1, total: 2, session_active: 1, type: 'koko' },
      { normal: 1, high: 0, critical: 1, offline: 0, total: 2, session_active: 0, type: 'lion' },
    ])
    expect(Object.keys(r.json()[0])).toEqual(['normal', 'high', 'critical', 'offline', 'total', 'session_active', 'type'])
    // the same in every organization; an auditor (no terminal.view_terminal) and anonymous callers are refused
    expect((await s.admin.get(URL, { 'x-jms-org': ORG_IDS.ROOT })).json()).toEqual(r.json())
    await s.t.createUser({ username: 'metrics-auditor', systemRoles: [ROLE_IDS.SystemAuditor], orgRoles: [] })
    expect((await (await s.t.as('metrics-auditor')).get(URL)).statusCode).toBe(403)
    expect((await s.t.client().get(URL)).statusCode).toBe(401)
  })

  it('shares a session: the component records joins (kept when refused) and finishes them; lina lists them by session', async () => {
    const SHARE = '/api/v1/terminal/session-sharings/'
    const JOIN = '/api/v1/terminal/session-join-records/'
    const shared = '6c1b5e0a-1f0e-4a57-9d44-0d2f2d2a0c03'
    const joiner = await s.t.createUser({ username: 'joiner', systemRoles: [ROLE_IDS.User], orgRoles: [ROLE_IDS.OrgUser] })
    const other = await s.t.createUser({ username: 'joiner2', systemRoles: [ROLE_IDS.User], orgRoles: [ROLE_IDS.OrgUser] })
    expect((await signed(s.t, comp, 'POST', '/api/v1/terminal/sessions/', { id: shared, user: 'Administrator(admin)', user_id: s.t.adminId, asset: 'web-01', org_id: ORG_IDS.DEFAULT })).statusCode).toBe(201)
    // the component shares it (in ROOT: the sharing takes the session's organization, its user is the creator)
    const share = async (body: Record<string, unknown>) => signed(s.t, comp, 'POST', SHARE, { session: shared, users: [], expired_time: 10, ...body })
    const made = await share({ action_permission: 'readonly' })
    expect(made.statusCode, made.body).toBe(201)
    const sharing = made.json()
    expect(sharing).toMatchObject({ session: shared, creator: s.t.adminId, is_active: true, expired_time: 10, org_id: ORG_IDS.DEFAULT, users_display: [] })
    expect(sharing.verify_code).toMatch(/^[A-Za-z0-9]{4}$/)
    expect((await s.admin.get(SHARE)).json().map((x: { id: string }) => x.id)).toEqual([sharing.id])
    const only = (await share({ users: [other] })).json()
    expect(only.users_display).toEqual(['joiner2(joiner2)'])
    const expired = (await share({ expired_time: 0 })).json()

    const join = (body: Record<string, unknown>) => signed(s.t, comp, 'POST', JOIN, { joiner, remote_addr: '10.2.2.2', login_from: 'WT', ...body })
    const ok = await join({ sharing: sharing.id, verify_code: sharing.verify_code })
    expect(ok.statusCode, ok.body).toBe(201)
    expect(ok.json()).toMatchObject({ session: shared, sharing: sharing.id, joiner, joiner_display: 'joiner(joiner)', is_success: true, is_finished: false,
      reason: '-', login_from: { value: 'WT', label: 'Web Terminal' }, action_permission: { value: 'readonly', label: 'Read Only' }, org_id: ORG_IDS.DEFAULT, date_left: null })
    // refused joins are kept, unsuccessful, with the reason (JumpServer answers 400 {error})
    const refusals = [
      [await join({ sharing: sharing.id, verify_code: 'zzzz' }), 'Invalid verification code'],
      [await join({ sharing: only.id, verify_code: only.verify_code }), 'User not allowed to join'],
      [await join({ sharing: expired.id, verify_code: expired.verify_code }), 'Link expired'],
    ] as const
    for (const [r, reason] of refusals) expect([r.statusCode, r.json()]).toEqual([400, { error: reason }])
    const zh = await join({ sharing: sharing.id, verify_code: 'yyyy' }).then(() => signed(s.t, comp, 'POST', JOIN, { joiner, remote_addr: 'x', sharing: sharing.id, verify_code: 'wwww' }, { 'accept-language': 'zh' }))
    expect(zh.json()).toEqual({ error: '验证码不正确' })
    // (the reason is stored in the request's language, as JumpServer stores the translated text)
    // bad input: field errors
    const bad = await signed(s.t, comp, 'POST', JOIN, { sharing: 'nope', login_from: 'XX' })
    expect(bad.statusCode).toBe(400)
    expect(Object.keys(bad.json()).sort()).toEqual(['joiner', 'login_from', 'remote_addr', 'sharing', 'verify_code'])

    // lina's session detail: the records of the session, newest first, paginated like every list
    const listed = await s.admin.get(`${JOIN}?session=${shared}&limit=20&offset=0`)
    expect(listed.statusCode).toBe(200)
    expect(listed.json().count).toBe(6)
    expect(listed.json().results.map((x: { is_success: boolean; reason: string }) => [x.is_success, x.reason]).sort()).toEqual([
      [false, 'Invalid verification code'], [false, 'Invalid verification code'],
      [false, 'Link expired'], [false, 'User not allowed to join'], [false, '验证码不正确'], [true, '-']])
    expect((await s.admin.get(`${JOIN}?session=${sessionId}`)).json()).toEqual([])
    expect((await s.admin.get(`${JOIN}?session=garbage`)).statusCode).toBe(400)
    expect((await s.admin.get(`${JOIN}?session=${shared}&is_success=1`)).json().map((x: { id: string }) => x.id)).toEqual([ok.json().id])

    // the joiner leaves: finished once, with the date left
    const fin = await signed(s.t, comp, 'PATCH', `${JOIN}${ok.json().id}/finished/`, {})
    expect([fin.statusCode, fin.json()]).toEqual([200, { msg: 'ok' }])
    const after = (await s.admin.get(`${JOIN}${ok.json().id}/`)).json()
    expect(after).toMatchObject({ is_finished: true, date_left: expect.any(String) })
    expect((await signed(s.t, comp, 'PATCH', `${JOIN}${ok.json().id}/finished/`, {})).json()).toEqual({ msg: 'ok' })
    expect((await s.admin.get(`${JOIN}${ok.json().id}/`)).json().date_left).toBe(after.date_left)

    // auditors read the records and write nothing; users without the permission read nothing
    await s.t.createUser({ username: 'join-auditor', systemRoles: [ROLE_IDS.SystemAuditor], orgRoles: [] })
    const auditor = await s.t.as('join-auditor')
    expect((await auditor.get(`${JOIN}?session=${shared}`, { 'x-jms-org': 'ROOT' })).json()).toHaveLength(6)
    expect((await auditor.post(JOIN, { sharing: sharing.id, verify_code: sharing.verify_code, joiner, remote_addr: 'x' }, { 'x-jms-org': 'ROOT' })).statusCode).toBe(403)
    expect((await auditor.patch(`${JOIN}${ok.json().id}/finished/`, {}, { 'x-jms-org': 'ROOT' })).statusCode).toBe(403)
    expect((await auditor.post(SHARE, { session: shared, users: [] }, { 'x-jms-org': 'ROOT' })).statusCode).toBe(403)
    const user = await s.t.as('joiner')
    expect((await user.get(`${JOIN}?session=${shared}`)).statusCode).toBe(403)
    // sharing is off while the Security setting "Session share" is
    await s.admin.patch('/api/v1/settings/setting/?category=security', { SECURITY_SESSION_SHARE: false })
    const off = await share({})
    expect([off.statusCode, off.json().detail]).toEqual([405, 'Secure session sharing settings is disabled'])
    await s.admin.patch('/api/v1/settings/setting/?category=security', { SECURITY_SESSION_SHARE: true })
    // the session goes with its sharings and records (the later tests count sessions)
    await sql`delete from terminal_sessions where id = ${shared}`.execute(s.t.database.db)
    expect((await s.admin.get(`${JOIN}?session=${shared}`)).json()).toEqual([])
  })

  it('lets an auditor read everything and change nothing', async () => {
    await s.t.createUser({ username: 'auditor', systemRoles: [ROLE_IDS.SystemAuditor], orgRoles: [] })
    const a = await s.t.as('auditor')
    for (const url of ['/api/v1/terminal/sessions/', '/api/v1/terminal/commands/', '/api/v1/audits/ftp-logs/', '/api/v1/audits/login-logs/',
      '/api/v1/audits/password-change-logs/', '/api/v1/audits/operate-logs/', `/api/v1/terminal/sessions/${sessionId}/replay/`,
      '/api/v1/index/?total_count=1&dates_metrics=1&days=7', '/api/v1/audits/my-login-logs/', '/api/v1/terminal/my-sessions/']) {
      expect((await a.get(url, { 'x-jms-org': 'ROOT' })).statusCode, url).toBe(200)
    }
    const writes = [
      await a.post('/api/v1/terminal/sessions/', { user: 'x', asset: 'y' }),
      await a.patch(`/api/v1/terminal/sessions/${sessionId}/`, { is_finished: false }),
      await a.post('/api/v1/terminal/commands/', [{ user: 'x', asset: 'y', input: 'z', session: sessionId, timestamp: 1 }]),
      await a.post('/api/v1/audits/ftp-logs/', { user: 'x', asset: 'y', operate: 'upload' }),
      await a.post(`/api/v1/terminal/sessions/${sessionId}/replay/`, {}),
      await a.patch('/api/v1/terminal/terminals/00000000-0000-0000-0000-000000000000/', { comment: 'x' }),
      await a.delete(`/api/v1/terminal/sessions/${sessionId}/`),
    ]
    expect(writes.map((r) => r.statusCode)).toEqual([403, 403, 403, 403, 403, 403, 405])
    // …but cuts a session off, as JumpServer 3.2's auditors (`terminal.session.*`) do (issue 31)
    expect((await a.post('/api/v1/terminal/tasks/kill-session/', [sessionId])).statusCode).toBe(200)
    expect((await a.get('/api/v1/terminal/terminals/')).statusCode).toBe(403)
  })

  it('answers the dashboard figures with the reference console switches', async () => {
    const r = (await s.admin.get('/api/v1/index/?days=7&total_count_commands=1&total_count_commands_danger=1&dates_metrics=1&session_dates_metrics=1&dates_login_times_top10_users=1&dates_login_times_top10_assets=1&dates_login_record_top10_sessions=1&total_count_online_sessions=1', { 'x-jms-org': 'ROOT' })).json()
    expect(r).toMatchObject({ total_count_commands: 2, total_count_commands_danger: 1, total_count_online_sessions: 1 })
    expect(r.dates_metrics_date).toHaveLength(7)
    expect(r.dates_metrics_total_count_session.reduce((a: number, b: number) => a + b, 0)).toBe(2)
    expect(r.dates_metrics_total_count_active_users.at(-1)).toBe(2)
    expect(r.dates_login_times_top10_users.map((x: { user: string }) => x.user).sort()).toEqual(['Alice(alice)', 'Bob(bob)'])
    expect(r.dates_login_times_top10_assets).toHaveLength(2)
    expect(r.dates_login_record_top10_sessions[0]).toMatchObject({ user: 'Bob(bob)', is_finished: false })
    // The period's command total counts closed days through the per-day cache: exact after a write to a cached day.
    const total = async () => (await s.admin.get('/api/v1/index/?days=7&total_count_commands=1', { 'x-jms-org': 'ROOT' })).json().total_count_commands as number
    const at = (days: number) => Math.floor((Date.now() - days * 86_400_000) / 1000)
    const db = s.t.database.db
    await sql`insert into commands (id, "user", asset, account, input, session, risk_level, timestamp, org_id)
      values (gen_random_uuid(), 'Alice(alice)', 'web1(10.0.0.1)', 'root', 'old-3', ${sessionId}, 0, ${at(3)}, ${ORG_IDS.DEFAULT}),
             (gen_random_uuid(), 'Alice(alice)', 'web1(10.0.0.1)', 'root', 'old-10', ${sessionId}, 0, ${at(10)}, ${ORG_IDS.DEFAULT})`.execute(db)
    expect(await total()).toBe(3)
    expect(await total()).toBe(3) // the closed days from the cache now
    await sql`delete from commands where input in ('old-3', 'old-10')`.execute(db)
    expect(await total()).toBe(2)
    expect(Object.keys((await s.admin.get('/api/v1/index/?total_count_users=1')).json())).toEqual(['total_count_users'])
    expect((await s.admin.get('/api/v1/index/?days=abc&dates_metrics=1')).json().dates_metrics_date).toHaveLength(1)
    expect((await s.t.client().get('/api/v1/index/')).statusCode).toBe(401)
  })

  it('deletes each kind after its configured days (clean-up task)', async () => {
    const db = s.t.database.db
    const old = new Date(Date.now() - 400 * 86_400_000)
    await sql`update terminal_sessions set date_start = ${old} where id = ${sessionId}`.execute(db)
    await sql`update commands set timestamp = ${Math.floor(old.getTime() / 1000)} where session = ${sessionId} and risk_level = 0`.execute(db)
    await sql`update ftp_logs set date_start = ${old}`.execute(db)
    await sql`insert into login_logs (id, username, datetime) values (gen_random_uuid(), 'old', ${old}), (gen_random_uuid(), 'new', now())`.execute(db)
    const logs: string[] = []
    const result = await runCleanup({ db, now: () => new Date(), log: async (l: string) => { logs.push(l) }, signal: new AbortController().signal } as never)
    expect(result).toMatchObject({ terminal_sessions: 1, commands: 1, ftp_logs: 1, login_logs: 1 })
    // The online session (finished sessions only are deleted) and the recent command stay.
    expect((await s.admin.get('/api/v1/terminal/sessions/', { 'x-jms-org': 'ROOT' })).json()).toHaveLength(1)
    expect((await s.admin.get('/api/v1/terminal/commands/', { 'x-jms-org': 'ROOT' })).json()).toHaveLength(1)
  })
})
