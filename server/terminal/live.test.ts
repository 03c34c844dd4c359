/**
 * Live sessions (issue 31): monitor, terminate, share and join, against a real sshd through the web terminal's
 * websocket. Several processes: live-processes.test.ts.
 */
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { tr } from '../i18n.ts'
import { ORG_IDS, ROLE_IDS } from '../rbac/catalog.ts'
import { terminalManager } from './index.ts'
import { FrozenClock, LiveClient, ManualTimers, openSession } from './live-support.ts'
import { LIVE_MESSAGES, liveService } from './live.ts'
import { useTerminalFixture } from './test-support.ts'

describe('live sessions: monitor, terminate, share', () => {
  const f = useTerminalFixture()

  const auditor = async (tag: string, orgId: string = ORG_IDS.DEFAULT) => {
    await f.t.createUser({ username: tag, systemRoles: [ROLE_IDS.User], orgRoles: [ROLE_IDS.OrgAuditor], orgId })
    const c = await f.t.as(tag)
    c.headers['accept-language'] = 'en'
    return c
  }

  it('monitors a session: the current screen first, then live output; several auditors; read-only', async () => {
    const g = await f.grantedUser('mon-user')
    const { w, id } = await openSession(f.address, g)
    w.type('echo before-$((20+1))\r')
    await w.until(() => w.output.includes('before-21'), 'echo before')
    const a = await auditor('mon-auditor')
    const m1 = await LiveClient.open(f.address, a, { type: 'monitor', session: id })
    const m2 = await LiveClient.open(f.address, f.admin, { type: 'monitor', session: id })
    for (const m of [m1, m2]) {
      await m.until(() => m.output.includes('before-21'), 'the screen so far')
      expect(m.frame('live-info')).toMatchObject({ mode: 'monitor', cols: 100, rows: 30, session: { id } })
    }
    // a monitor cannot type
    m1.send({ type: 'data', data: 'echo from-monitor-$((3*3))\r' })
    w.type('echo after-$((40+2))\r')
    for (const m of [m1, m2]) await m.until(() => m.output.includes('after-42'), 'live output')
    expect(w.output).not.toContain('from-monitor-9')
    expect(m1.output).not.toContain('from-monitor-9')
    // the session list says it is joinable while live
    expect((await f.admin.get(`/api/v1/terminal/sessions/${id}/`)).json()).toMatchObject({ can_join: true, can_terminate: true })
    w.send({ type: 'close' })
    for (const m of [m1, m2]) await m.until(() => m.closed !== null, 'monitor closed with the session')
    expect(m1.frame('close')).toMatchObject({ reason: 'closed' })
    expect((await f.admin.get(`/api/v1/terminal/sessions/${id}/`)).json()).toMatchObject({ can_join: false, is_finished: true })
  })

  it('refuses a monitor without terminal.monitor_session, and another organization\'s auditor', async () => {
    const g = await f.grantedUser('mon-refused')
    const { w, id } = await openSession(f.address, g)
    const plain = await f.grantedUser('mon-plain')
    const m = await LiveClient.open(f.address, plain.c, { type: 'monitor', session: id })
    await m.until(() => m.closed !== null, 'refused')
    expect(m.frame('error')?.code).toMatch(/permission_denied|session_not_found/)
    expect(m.output).toBe('')
    const org = (await f.admin.post('/api/v1/orgs/orgs/', { name: 'live-other-org' })).json().id as string
    const other = await auditor('mon-other-org', org)
    const o = await LiveClient.open(f.address, other, { type: 'monitor', session: id }, { 'x-jms-org': org })
    await o.until(() => o.closed !== null, 'refused')
    expect(o.frame('error')).toMatchObject({ code: 'session_not_found' })
    expect(o.output).toBe('')
    // an unknown id, an unsigned socket
    const u = await LiveClient.open(f.address, f.admin, { type: 'monitor', session: '00000000-0000-4000-8000-000000000000' })
    await u.until(() => u.closed !== null, 'refused')
    expect(u.frame('error')).toMatchObject({ code: 'session_not_found' })
    w.send({ type: 'close' })
    await w.until(() => w.closed !== null, 'closed')
  })

  it('terminates a session: the user sees why, a monitor too; the detail, the task and the operate log record it', async () => {
    const g = await f.grantedUser('kill-user')
    const { w, id } = await openSession(f.address, g)
    const m = await LiveClient.open(f.address, f.admin, { type: 'monitor', session: id })
    await m.until(() => !!m.frame('live-info'), 'monitoring')
    const denied = await g.c.post('/api/v1/terminal/tasks/kill-session/', [id])
    expect(denied.statusCode).toBe(403)
    const r = await f.admin.post('/api/v1/terminal/tasks/kill-session/', [id])
    expect(r.json()).toEqual({ ok: [id] })
    await w.until(() => w.closed !== null, 'the user\'s session ended')
    expect(w.frame('close')).toMatchObject({ reason: 'terminated' })
    expect(String(w.frame('close')!.message)).toContain('terminated by')
    await m.until(() => m.closed !== null, 'the monitor ended')
    expect(m.frame('close')).toMatchObject({ reason: 'terminated', message: 'The session was terminated.' })
    await expect.poll(async () => (await f.admin.get(`/api/v1/terminal/sessions/${id}/`)).json()).toMatchObject({ is_finished: true, comment: expect.stringContaining('Terminated by') })
    const tasks = (await sql<{ is_finished: boolean }>`select is_finished from terminal_tasks where args = ${id}`.execute(f.t.database.db)).rows
    expect(tasks).toEqual([{ is_finished: true }])
    const logs = (await f.admin.get('/api/v1/audits/operate-logs/?action=terminate&limit=100')).json() as { results: Array<Record<string, unknown>> }
    expect(logs.results.filter((l) => String(l.resource).includes('kill-user-host'))).toEqual([expect.objectContaining({ user: 'Administrator(admin)', resource_type: 'Session' })])
    // the session detail's activity names it
    const activity = (await f.admin.get(`/api/v1/audits/activities/?resource_id=${id}`)).json() as Array<{ content: string }>
    expect(activity.map((x) => x.content)).toContain('User Administrator(admin) Terminate this resource')
  })

  it('shares a session: a wrong code and a user not named are refused, a writable joiner types into it, the owner removes them', async () => {
    await f.admin.patch('/api/v1/settings/setting/?category=security', { SECURITY_SESSION_SHARE: true })
    const g = await f.grantedUser('share-owner')
    const { w, id } = await openSession(f.address, g)
    w.type('echo shared-$((5*5))\r')
    await w.until(() => w.output.includes('shared-25'), 'echo')
    const joiner = await f.grantedUser('share-joiner')
    const stranger = await f.grantedUser('share-stranger')
    // bad input, then someone else's session
    const bad = await g.c.post(`/api/v1/terminal/live/sessions/${id}/sharings/`, { users: ['nope'], expired_time: 0, action_permission: 'all' })
    expect(bad.statusCode).toBe(400)
    expect(Object.keys(bad.json()).sort()).toEqual(['action_permission', 'expired_time', 'users'])
    expect((await joiner.c.post(`/api/v1/terminal/live/sessions/${id}/sharings/`, { users: [] })).statusCode).toBe(403)
    const made = await g.c.post(`/api/v1/terminal/live/sessions/${id}/sharings/`, { users: [joiner.userId], expired_time: 10, action_permission: 'writable' })
    expect(made.statusCode, made.body).toBe(201)
    const share = made.json() as { id: string; verify_code: string; url: string }
    expect(share.url).toBe(`/luna/share/${share.id}/`)
    expect(share.verify_code).toMatch(/^[A-Za-z0-9]{4}$/)

    const wrong = await LiveClient.open(f.address, joiner.c, { type: 'join', sharing: share.id, code: share.verify_code === 'aaaa' ? 'bbbb' : 'aaaa' })
    await wrong.until(() => wrong.closed !== null, 'wrong code refused')
    expect(wrong.frame('error')).toMatchObject({ code: 'join_refused', message: 'Invalid verification code' })
    const outsider = await LiveClient.open(f.address, stranger.c, { type: 'join', sharing: share.id, code: share.verify_code })
    await outsider.until(() => outsider.closed !== null, 'outsider refused')
    expect(outsider.frame('error')).toMatchObject({ code: 'join_refused', message: 'User not allowed to join' })

    const j = await LiveClient.open(f.address, joiner.c, { type: 'join', sharing: share.id, code: share.verify_code })
    await j.until(() => j.output.includes('shared-25'), 'the joiner sees the screen')
    const info = j.frame('live-info') as unknown as { mode: string; record: string }
    expect(info.mode).toBe('writable')
    // the owner's web terminal hears who joined
    await w.until(() => w.frames.some((x) => x.type === 'share-participants' && (x.participants as unknown[]).length === 1), 'participants')
    const listed = (await g.c.get(`/api/v1/terminal/live/sessions/${id}/participants/`)).json() as Array<{ id: string; user: string }>
    expect(listed).toMatchObject([{ id: info.record, user: 'share-joiner(share-joiner)' }])
    expect((await joiner.c.get(`/api/v1/terminal/live/sessions/${id}/participants/`)).statusCode).toBe(403)
    // the joiner's input reaches the host
    j.send({ type: 'data', data: 'echo joined-$((6*7))\r' })
    await w.until(() => w.output.includes('joined-42'), 'the joiner\'s command ran')
    await j.until(() => j.output.includes('joined-42'), 'the joiner sees it')
    // the records: failed attempts with reasons, the successful join
    const records = (await f.admin.get(`/api/v1/terminal/session-join-records/?session=${id}`)).json() as Array<Record<string, unknown>>
    expect(records.map((r) => [r.is_success, r.reason]).sort()).toEqual([[false, 'Invalid verification code'], [false, 'User not allowed to join'], [true, '-']])
    // removed by the owner
    expect((await g.c.delete(`/api/v1/terminal/live/sessions/${id}/participants/${info.record}/`)).statusCode).toBe(204)
    await j.until(() => j.closed !== null, 'removed')
    expect(j.frame('close')).toMatchObject({ reason: 'removed', message: 'The session owner removed you from the session.' })
    await w.until(() => w.frames.some((x) => x.type === 'share-participants' && (x.participants as unknown[]).length === 0), 'participants after removal')
    const rec = (await f.admin.get(`/api/v1/terminal/session-join-records/${info.record}/`)).json()
    expect(rec).toMatchObject({ is_finished: true })
    w.send({ type: 'close' })
    await w.until(() => w.closed !== null, 'closed')
  })

  it('a read-only share shows the session and drops the joiner\'s input; an expired share is refused', async () => {
    await f.admin.patch('/api/v1/settings/setting/?category=security', { SECURITY_SESSION_SHARE: true })
    const g = await f.grantedUser('ro-owner')
    const { w, id } = await openSession(f.address, g)
    const joiner = await f.grantedUser('ro-joiner')
    const share = (await g.c.post(`/api/v1/terminal/live/sessions/${id}/sharings/`, { users: [], expired_time: 5, action_permission: 'readonly' })).json() as { id: string; verify_code: string }
    const j = await LiveClient.open(f.address, joiner.c, { type: 'join', sharing: share.id, code: share.verify_code })
    await j.until(() => !!j.frame('live-info'), 'joined')
    expect(j.frame('live-info')).toMatchObject({ mode: 'readonly' })
    j.send({ type: 'data', data: 'echo ro-typed-$((1+1))\r' })
    w.type('echo owner-$((2+2))\r')
    await j.until(() => j.output.includes('owner-4'), 'live output')
    expect(w.output).not.toContain('ro-typed-2')
    // the share expires
    await sql`update session_sharings set date_created = now() - interval '6 minutes' where id = ${share.id}`.execute(f.t.database.db)
    const late = await LiveClient.open(f.address, joiner.c, { type: 'join', sharing: share.id, code: share.verify_code })
    await late.until(() => late.closed !== null, 'expired')
    expect(late.frame('error')).toMatchObject({ code: 'join_refused', message: 'Link expired' })
    w.send({ type: 'close' })
    await j.until(() => j.closed !== null, 'joiner closed with the session')
  })

  it('removes a joiner when the share expires: the socket is told and closed, the record gets its end time', async () => {
    await f.admin.patch('/api/v1/settings/setting/?category=security', { SECURITY_SESSION_SHARE: true })
    const clock = new FrozenClock(f.t.app)
    const timers = clock.timers
    try {
      const g = await f.grantedUser('exp-owner')
      const { w, id } = await openSession(f.address, g)
      const joiner = await f.grantedUser('exp-joiner')
      const share = (await g.c.post(`/api/v1/terminal/live/sessions/${id}/sharings/`, { users: [], expired_time: 5, action_permission: 'writable' })).json() as { id: string; verify_code: string }
      const created = (await sql<{ date_created: Date }>`select date_created from session_sharings where id = ${share.id}`.execute(f.t.database.db)).rows[0]!.date_created
      const expires = created.getTime() + 5 * 60_000
      const j = await LiveClient.open(f.address, joiner.c, { type: 'join', sharing: share.id, code: share.verify_code })
      await j.until(() => !!j.frame('live-info'), 'joined')
      const record = (j.frame('live-info') as unknown as { record: string }).record
      await w.until(() => w.frames.some((x) => x.type === 'share-participants' && (x.participants as unknown[]).length === 1), 'the owner hears of the joiner')
      expect(timers.size).toBe(1)

      // a minute before the end: nothing is due; a timer that fires early (the clock has not reached the end) is set again
      clock.time = expires - 60_000
      expect(timers.runDue()).toBe(0)
      expect(timers.fireAll()).toBe(1)
      expect(timers.size).toBe(1)
      j.send({ type: 'data', data: 'echo still-in-$((4*4))\r' })
      await w.until(() => w.output.includes('still-in-16'), 'the joiner still types into the session')
      expect(j.closed).toBeNull()

      // the end: the joiner is told and the socket closes; the record is finished at that time; the owner hears it
      clock.time = expires + 1000
      expect(timers.runDue()).toBe(1)
      await j.until(() => j.closed !== null, 'removed at expiry')
      expect(j.frame('close')).toMatchObject({ reason: 'expired', message: 'The share link expired: you have left the session.' })
      const rec = (await sql<{ is_finished: boolean; date_left: Date | null }>`select is_finished, date_left from session_join_records where id = ${record}`.execute(f.t.database.db)).rows[0]!
      expect(rec.is_finished).toBe(true)
      expect(rec.date_left?.getTime()).toBe(clock.time)
      const joinedNow = () => (w.frames.filter((x) => x.type === 'share-participants').at(-1)?.participants as unknown[] | undefined)?.length
      await w.until(() => joinedNow() === 0, 'the owner hears the joiner left')
      expect(timers.size).toBe(0)
      // the session goes on for its owner
      w.type('echo owner-after-$((3*5))\r')
      await w.until(() => w.output.includes('owner-after-15'), 'the owner\'s session goes on')
      w.send({ type: 'close' })
      await w.until(() => w.closed !== null, 'closed')
    } finally {
      clock.release()
    }
  })

  it('a joiner who leaves before the end takes their expiry timer with them', async () => {
    await f.admin.patch('/api/v1/settings/setting/?category=security', { SECURITY_SESSION_SHARE: true })
    const live = liveService(f.t.app)!
    const realTimers = live.timers
    const timers = new ManualTimers(terminalManager(f.t.app).now)
    live.timers = timers
    try {
      const g = await f.grantedUser('exp-leaver-owner')
      const { w, id } = await openSession(f.address, g)
      const joiner = await f.grantedUser('exp-leaver')
      const share = (await g.c.post(`/api/v1/terminal/live/sessions/${id}/sharings/`, { users: [], expired_time: 30, action_permission: 'readonly' })).json() as { id: string; verify_code: string }
      const j = await LiveClient.open(f.address, joiner.c, { type: 'join', sharing: share.id, code: share.verify_code })
      await j.until(() => !!j.frame('live-info'), 'joined')
      expect(timers.size).toBe(1)
      j.send({ type: 'close' })
      await j.until(() => j.closed !== null, 'left')
      await expect.poll(() => timers.size).toBe(0)
      const record = (j.frame('live-info') as unknown as { record: string }).record
      await expect.poll(async () => (await sql<{ is_finished: boolean }>`select is_finished from session_join_records where id = ${record}`.execute(f.t.database.db)).rows[0]!.is_finished).toBe(true)
      w.send({ type: 'close' })
      await w.until(() => w.closed !== null, 'closed')
    } finally {
      live.timers = realTimers
    }
  })

  it('refuses sharing without the share action, and while sharing is off', async () => {
    const g = await f.grantedUser('noshare-owner', { actions: ['connect', 'copy', 'paste'] })
    const { w, id } = await openSession(f.address, g)
    const r = await g.c.post(`/api/v1/terminal/live/sessions/${id}/sharings/`, { users: [], expired_time: 5 })
    expect(r.statusCode).toBe(403)
    await f.admin.patch('/api/v1/settings/setting/?category=security', { SECURITY_SESSION_SHARE: false })
    const g2 = await f.grantedUser('off-owner')
    const s2 = await openSession(f.address, g2)
    const off = await g2.c.post(`/api/v1/terminal/live/sessions/${s2.id}/sharings/`, { users: [], expired_time: 5 })
    expect(off.statusCode).toBe(405)
    await f.admin.patch('/api/v1/settings/setting/?category=security', { SECURITY_SESSION_SHARE: true })
    for (const x of [w, s2.w]) {
      x.send({ type: 'close' })
      await x.until(() => x.closed !== null, 'closed')
    }
  })

  it('JumpServer\'s share address opens the web terminal\'s', async () => {
    const r = await f.admin.get('/koko/share/6a2b1c3d-0000-4000-8000-000000000001/')
    expect(r.statusCode).toBe(302)
    expect(r.headers.location).toBe('/luna/share/6a2b1c3d-0000-4000-8000-000000000001/')
  })

  it.each(['zh', 'ja'] as const)('its messages are translated to %s', (lang) => {
    for (const text of Object.keys(LIVE_MESSAGES)) expect(tr(lang, text), text).not.toBe(text)
  })
})
