import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { BUILTIN_NAME } from './builtin.ts'
import { terminalManager } from './index.ts'
import { TermClient, tokenFor, useTerminalFixture } from './test-support.ts'

describe('web terminal websocket (/ws/terminal/)', () => {
  const f = useTerminalFixture()

  it('connects on a connection token, runs commands, resizes, closes; the session is recorded as WT', async () => {
    const g = await f.grantedUser('wsuser')
    const token = await tokenFor(g)
    const w = new TermClient(f.address, g.c)
    await w.opened()
    w.send({ type: 'connect', token, cols: 100, rows: 30 })
    await w.until(() => !!w.frame('session-info') || !!w.frame('error'), 'session-info')
    const info = w.frame('session-info')!.session as Record<string, unknown>
    expect(info, JSON.stringify(w.frames)).toMatchObject({ protocol: 'ssh', asset: { id: g.assetId, name: g.assetName }, account: { username: f.host.username } })
    expect(typeof info.resume).toBe('string')
    // the banner and the prompt written before the socket was bound reach it too
    await w.until(() => w.output.includes('$ '), 'the first prompt')
    w.type('echo hello-$((6*7))\r')
    await w.until(() => w.output.includes('hello-42'), 'echo output')
    // the built-in component is a registered terminal (Settings → Terminal → Terminals) whose heartbeat carries its
    // load and this open session
    await terminalManager(f.t.app).component.heartbeat()
    const [terminal] = (await f.admin.get(`/api/v1/terminal/terminals/?name=${encodeURIComponent(BUILTIN_NAME)}`)).json() as Array<Record<string, unknown>>
    expect(terminal).toMatchObject({ name: BUILTIN_NAME, type: 'koko', is_alive: true, is_active: true, stat: { session_online: 1 } })
    expect(typeof (terminal!.stat as { cpu_load: unknown }).cpu_load).toBe('number')
    w.send({ type: 'resize', cols: 91, rows: 27 })
    w.type('stty size\r')
    await w.until(() => w.output.includes('27 91'), 'stty size after resize')
    w.send({ type: 'ping' })
    await w.until(() => !!w.frame('pong'), 'pong')
    w.send({ type: 'close' })
    await w.until(() => w.closed !== null, 'socket closed')
    expect(w.frame('close')).toMatchObject({ reason: 'closed' })
    const id = String(info.id)
    // the session row: written through the component API, finished
    const row = (await f.admin.get(`/api/v1/terminal/sessions/${id}/`)).json()
    expect(row).toMatchObject({ id, protocol: 'ssh', is_finished: true, login_from: { value: 'WT' } })
  })

  it('refuses a token of another user, and a first frame that is not connect', async () => {
    const a = await f.grantedUser('wsowner')
    const b = await f.grantedUser('wsother')
    const token = await tokenFor(a)
    const w = new TermClient(f.address, b.c)
    await w.opened()
    w.send({ type: 'connect', token, cols: 80, rows: 24 })
    await w.until(() => w.closed !== null, 'closed')
    expect(w.frame('error')).toMatchObject({ code: 'token_expired' })
  })

  it('re-attaches to a dropped session within 60 s and restores the screen', async () => {
    const g = await f.grantedUser('wsresume')
    const token = await tokenFor(g)
    const w = new TermClient(f.address, g.c)
    await w.opened()
    w.send({ type: 'connect', token, cols: 80, rows: 24 })
    await w.until(() => !!w.frame('session-info'), 'session-info')
    const info = w.frame('session-info')!.session as { id: string; resume: string }
    w.type('echo before-$((1+1))-drop\r')
    await w.until(() => w.output.includes('before-2-drop'), 'echo output')
    w.ws.terminate()
    await w.until(() => w.closed !== null, 'dropped')

    const wrong = new TermClient(f.address, g.c)
    await wrong.opened()
    wrong.send({ type: 'attach', session: info.id, resume: 'nope', cols: 80, rows: 24 })
    await wrong.until(() => wrong.closed !== null, 'refused attach')
    expect(wrong.frame('error')).toMatchObject({ code: 'session_not_found' })

    const again = new TermClient(f.address, g.c)
    await again.opened()
    again.send({ type: 'attach', session: info.id, resume: info.resume, cols: 80, rows: 24 })
    await again.until(() => again.output.includes('before-2-drop'), 'restored screen')
    expect(again.frame('session-info')).toBeTruthy()
    again.type('echo after-$((2+2))\r')
    await again.until(() => again.output.includes('after-4'), 'output after attach')
    again.send({ type: 'close' })
    await again.until(() => again.closed !== null, 'closed')
  })

  it('a token asked under a login review (?create_ticket=1) waits on its ticket: approved, the terminal opens; rejected, it says who; cancelled, the ticket closes', async () => {
    const g = await f.grantedUser('wsreview')
    const reviewerId = await f.t.createUser({ username: 'wsreviewer', password: 'Pw-wsreviewer-Aa1!x9' })
    await sql`update users set name = 'Rita Reviewer' where id = ${reviewerId}`.execute(f.t.database.db)
    const reviewer = await f.t.as('wsreviewer')
    const acl = await f.admin.post('/api/v1/acls/login-asset-acls/', {
      name: 'review wsreview', priority: 1, action: 'review', reviewers: [reviewerId],
      users: { username_group: ['wsreview'] }, assets: { name_group: [g.assetName], address_group: ['*'] }, accounts: { username_group: ['*'] },
    })
    expect(acl.statusCode, acl.body).toBe(201)
    const body = { asset: g.assetId, account: 'wsreview-acc', protocol: 'ssh', connect_method: 'web_cli' }
    const ask = async () => {
      expect((await g.c.post('/api/v1/authentication/connection-token/', body)).json().code).toBe('acl_review')
      const r = await g.c.post('/api/v1/authentication/connection-token/?create_ticket=1', body)
      expect(r.statusCode, r.body).toBe(201)
      return r.json().id as string
    }
    const waiting = async (token: string) => {
      const w = new TermClient(f.address, g.c)
      await w.opened()
      w.send({ type: 'connect', token, cols: 80, rows: 24 })
      await w.until(() => !!w.frame('wait') || !!w.frame('error'), 'wait frame')
      expect(w.frame('wait'), JSON.stringify(w.frames)).toMatchObject({ reason: 'approval', reviewers: ['Rita Reviewer'] })
      return { w, ticket: String(w.frame('wait')!.ticket) }
    }
    const tickets = '/api/v1/tickets/apply-login-asset-tickets/'
    // approved: wait-end, then the session as usual — the review is not asked again
    const a = await waiting(await ask())
    expect((await reviewer.put(`${tickets}${a.ticket}/approve/`)).statusCode).toBe(200)
    await a.w.until(() => !!a.w.frame('session-info') || !!a.w.frame('error'), 'session-info after approval')
    expect(a.w.frame('wait-end')).toBeTruthy()
    expect(a.w.frame('session-info'), JSON.stringify(a.w.frames)).toBeTruthy()
    a.w.type('echo approved-$((3*3))\r')
    await a.w.until(() => a.w.output.includes('approved-9'), 'echo after approval')
    a.w.send({ type: 'close' })
    await a.w.until(() => a.w.closed !== null, 'closed')
    // rejected: refused, naming the reviewer
    const b = await waiting(await ask())
    expect((await reviewer.put(`${tickets}${b.ticket}/reject/`)).statusCode).toBe(200)
    await b.w.until(() => b.w.closed !== null, 'refused after rejection')
    expect(b.w.frame('error')).toMatchObject({ code: 'acl_rejected', message: 'The login was rejected by Rita Reviewer.' })
    expect(b.w.frame('session-info')).toBeUndefined()
    // cancelled by the user: the ticket is closed
    const c = await waiting(await ask())
    c.w.send({ type: 'close' })
    await c.w.until(() => c.w.closed !== null, 'closed')
    await expect.poll(async () => (await reviewer.get(`${tickets}${c.ticket}/`)).json().status?.value).toBe('closed')
  })
})
