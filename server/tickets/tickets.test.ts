import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ORG_IDS, ROLE_IDS } from '../rbac/catalog.ts'
import { dbKind, type TestClient } from '../testing.ts'
import { startSmtp, type TestSmtp } from '../testing/smtp.ts'
import { useTestServer } from '../use-test-server.ts'
import { openDatabase } from '../db/connection.ts'
import { applyAction } from './core.ts'
import { createTicketApprovalGate, openSystemTicket } from './gate.ts'
import { afterTransition } from './notify.ts'

const T = '/api/v1/tickets/'
const TYPED: Record<string, string> = {
  apply_asset: `${T}apply-asset-tickets/`, login_confirm: `${T}apply-login-tickets/`,
  login_asset_confirm: `${T}apply-login-asset-tickets/`, command_confirm: `${T}apply-command-tickets/`,
}
const FAR = { apply_date_start: '2026-01-01T00:00:00Z', apply_date_expired: '2099-01-01T00:00:00Z' }

describe(`tickets (${dbKind()})`, () => {
  const s = useTestServer()
  let smtp: TestSmtp
  const ORG2 = randomUUID()
  const u: Record<string, { id: string; c: TestClient }> = {}
  let host = ''
  let node = ''

  async function user(name: string, opts: { systemRoles?: string[]; orgRoles?: string[]; orgId?: string; email?: string } = {}) {
    const id = await s.t.createUser({ username: name, ...opts })
    await sql`update users set email = ${opts.email ?? `${name}@example.org`} where id = ${id}`.execute(s.t.database.db)
    const c = await s.t.as(name)
    c.headers['accept-language'] = 'en'
    u[name] = { id, c }
    return u[name]
  }

  beforeAll(async () => {
    smtp = await startSmtp()
    const r = await s.admin.patch('/api/v1/settings/setting/?category=email', { EMAIL_HOST: smtp.host, EMAIL_PORT: String(smtp.port), EMAIL_USE_SSL: false, EMAIL_USE_TLS: false })
    expect(r.statusCode, r.body).toBe(200)
    await sql`insert into organizations (id, name) values (${ORG2}, 'Tickets other org')`.execute(s.t.database.db)
    await user('applicant')
    await user('boss1', { orgRoles: [ROLE_IDS.OrgAdmin] })
    await user('boss2')
    await user('other')
    await user('foreignadmin', { orgRoles: [ROLE_IDS.OrgAdmin], orgId: ORG2 })
    await user('auditor', { systemRoles: [ROLE_IDS.SystemAuditor] })
    const root = ((await s.admin.get('/api/v1/assets/nodes/?limit=1&order=key')).json() as { results: { id: string }[] }).results[0]!.id
    node = (await s.admin.post(`/api/v1/assets/nodes/${root}/children/`, { value: 'ticket-node' })).json().id
    const h = await s.admin.post('/api/v1/assets/hosts/', { name: 'ticket-host', address: '10.8.0.1', platform: 1, nodes: [node], protocols: [{ name: 'ssh', port: 22 }] })
    expect(h.statusCode, h.body).toBe(201)
    host = h.json().id
    expect((await s.admin.post('/api/v1/accounts/accounts/', { asset: host, username: 'root', secret_type: 'password', secret: 'pw' })).statusCode).toBe(201)
  })
  afterAll(async () => { await smtp?.stop() })

  /** DEFAULT's asset-request flow: two levels, the org admins then boss2 (a copy of the root flow). */
  async function twoLevelFlow() {
    const flows = (await s.admin.get(`${T}flows/?effective=1`)).json() as { id: string; org_id: string }[]
    const rootFlow = flows[0]!
    const r = await s.admin.put(`${T}flows/${rootFlow.id}/`, { approval_level: 2, rules: [{ strategy: 'org_admin' }, { strategy: 'custom_user', assignees: [u.boss2!.id] }] })
    expect(r.statusCode, r.body).toBe(200)
    return r.json()
  }

  /** The mail to `to` about a ticket title (earlier mails to them are passed over). */
  async function mailAbout(to: string, title: string) {
    for (;;) {
      const m = await smtp.next(to, 10_000)
      if (m.text.includes(title)) return m
    }
  }

  async function openAsset(c = u.applicant!.c, extra: Record<string, unknown> = {}) {
    const r = await c.post(`${TYPED.apply_asset}open/`, { title: `req ${randomUUID().slice(0, 6)}`, org_id: ORG_IDS.DEFAULT, apply_assets: [host], apply_accounts: ['root'], apply_actions: ['connect'], ...FAR, ...extra })
    expect(r.statusCode, r.body).toBe(201)
    return r.json() as { id: string; title: string; serial_num: string; process_map: unknown[] }
  }

  it('TICKETS_ENABLED is on by default', async () => {
    expect((await s.admin.get('/api/v1/settings/public/')).json().TICKETS_ENABLED).toBe(true)
  })

  it('the root flow is a migration\'s (one level, super admin); editing it from an org makes the org\'s copy; no delete', async () => {
    const rootFlows = (await s.admin.get(`${T}flows/`, { 'x-jms-org': ORG_IDS.ROOT })).json() as { id: string; org_id: string; rules: { strategy: { value: string } }[] }[]
    const rootFlow = rootFlows.find((f) => f.org_id === ORG_IDS.ROOT)!
    expect(rootFlow.rules.map((r) => r.strategy.value)).toEqual(['super_admin'])
    const copy = await twoLevelFlow()
    expect(copy.id).not.toBe(rootFlow.id)
    expect(copy.org_id).toBe(ORG_IDS.DEFAULT)
    expect(copy.rules.map((r: { level: number }) => r.level)).toEqual([1, 2])
    expect(copy.rules[1].assignees_read_only).toEqual([u.boss2!.id])
    // the root flow is unchanged, and DEFAULT now sees only its own
    const again = (await s.admin.get(`${T}flows/${rootFlow.id}/`, { 'x-jms-org': ORG_IDS.ROOT })).json()
    expect(again.approval_level).toBe(1)
    expect(((await s.admin.get(`${T}flows/?effective=1`)).json() as { id: string }[]).map((f) => f.id)).toEqual([copy.id])
    expect(((await s.admin.get(`${T}flows/`)).json() as { id: string }[]).map((f) => f.id).sort()).toEqual([copy.id, rootFlow.id].sort())
    expect((await s.admin.delete(`${T}flows/${copy.id}/`)).statusCode).toBe(405)
    const bad = await s.admin.patch(`${T}flows/${copy.id}/`, { rules: [{ strategy: 'custom_user', assignees: [] }] })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().rules[0]).toHaveProperty('assignees')
  })

  it('an asset request goes through two levels; the approver edits; the permission appears in My assets at once', async () => {
    const before = (await u.applicant!.c.get('/api/v1/perms/users/self/assets/?limit=100')).json().results as unknown[]
    expect(before).toEqual([])
    const t = await openAsset()
    expect(t.serial_num).toMatch(/^\d{12}$/)
    // wrong approver order: level-2 assignee may not approve level 1
    expect((await u.boss2!.c.put(`${TYPED.apply_asset}${t.id}/approve/`)).statusCode).toBe(403)
    // assignees are mailed a direct approve link and get a site message
    const mail = await mailAbout('boss1@example.org', t.title)
    expect(mail.text).toMatch(/\/tickets\/direct-approve\/[A-Za-z0-9_-]+\//)
    // the badge: boss1 has it open
    const badge = (await u.boss1!.c.get(`${T}tickets/?assignees__id=${u.boss1!.id}&status=open&limit=15&offset=0`)).json()
    expect(badge.count).toBe(1)
    // …as the console's header asks it (src/api/tickets.ts): the count and one row of its id only; level 2's not yet
    const header = (await u.boss1!.c.get(`${T}tickets/?assignees__id=${u.boss1!.id}&status=open&offset=0&limit=1&fields=id`)).json()
    expect(header).toMatchObject({ count: 1, results: [{ id: t.id }] })
    expect(Object.keys(header.results[0])).toEqual(['id'])
    expect((await u.boss2!.c.get(`${T}tickets/?assignees__id=${u.boss2!.id}&status=open&offset=0&limit=1&fields=id`)).json().count).toBe(0)
    expect((await u.boss1!.c.put(`${TYPED.apply_asset}${t.id}/approve/`)).body).toBe('"ok"')
    const mid = (await u.applicant!.c.get(`${TYPED.apply_asset}${t.id}/`)).json()
    expect(mid.approval_step).toEqual({ value: 2, label: 'Two level' })
    expect(mid.state.value).toBe('pending')
    expect(mid.process_map[0].state).toBe('approved')
    expect(mid.process_map[0].processor).toBe(u.boss1!.id)
    // boss2 edits the actions and approves: the last step creates the permission
    const r = await u.boss2!.c.patch(`${TYPED.apply_asset}${t.id}/approve/`, { apply_actions: ['connect', 'upload'], apply_nodes: [node] })
    expect(r.statusCode, r.body).toBe(200)
    const done = (await u.applicant!.c.get(`${TYPED.apply_asset}${t.id}/`)).json()
    expect(done.state.value).toBe('approved')
    expect(done.status.value).toBe('closed')
    expect(done.apply_nodes.map((n: { id: string }) => n.id)).toEqual([node])
    const perm = (await s.admin.get(`/api/v1/perms/asset-permissions/${t.id}/`)).json()
    expect(perm.from_ticket).toBe(true)
    expect(perm.users.map((x: { id: string }) => x.id)).toEqual([u.applicant!.id])
    expect(perm.actions.map((a: { value: string }) => a.value).sort()).toEqual(['connect', 'upload'])
    const mine = (await u.applicant!.c.get('/api/v1/perms/users/self/assets/?limit=100')).json().results as { id: string }[]
    expect(mine.map((a) => a.id)).toEqual([host])
    // the applicant is told
    const told = await mailAbout('applicant@example.org', t.title)
    expect(told.subject).toContain('Approved')
    // comments: state comments by each transition
    const comments = (await u.applicant!.c.get(`${T}comments/?ticket_id=${t.id}`)).json() as { type: string; body: string }[]
    expect(comments.filter((c) => c.type === 'state').length).toBe(2)
    expect(comments[1]!.body).toContain('apply_nodes')
    // nothing acts on a closed ticket
    expect((await u.boss2!.c.put(`${TYPED.apply_asset}${t.id}/close/`)).statusCode).toBe(400)
    expect((await u.applicant!.c.post(`${T}comments/?ticket_id=${t.id}`, { body: 'late', ticket: t.id })).statusCode).toBe(400)
  })

  it('refuses bad requests with field errors', async () => {
    const c = u.applicant!.c
    const r1 = await c.post(`${TYPED.apply_asset}open/`, { title: '', org_id: ORG_IDS.DEFAULT })
    expect(r1.statusCode).toBe(400)
    expect(r1.json()).toHaveProperty('title')
    const r2 = await c.post(`${TYPED.apply_asset}open/`, { title: 'x', org_id: ORG_IDS.DEFAULT, apply_assets: ['nope'], ...FAR })
    expect(Object.keys(r2.json())).toEqual(['apply_assets'])
    const r3 = await c.post(`${TYPED.apply_asset}open/`, { title: 'x', org_id: ORG_IDS.DEFAULT, apply_assets: [host], apply_date_start: '2030-01-01T00:00:00Z', apply_date_expired: '2029-01-01T00:00:00Z' })
    expect(Object.keys(r3.json())).toEqual(['apply_date_expired'])
    // an org the applicant does not belong to
    const r4 = await c.post(`${TYPED.apply_asset}open/`, { title: 'x', org_id: ORG2, apply_assets: [host], ...FAR })
    expect(Object.keys(r4.json())).toEqual(['org_id'])
    expect((await c.post(`${T}tickets/`, { title: 'x' })).statusCode).toBe(405)
    expect((await c.delete(`${T}tickets/${randomUUID()}/`)).statusCode).toBe(405)
  })

  // ── The matrix: four types × actors × actions ──
  type Actor = 'applicant' | 'current' | 'later' | 'other' | 'foreignadmin' | 'auditor'
  const ACTIONS = ['view', 'comment', 'approve', 'reject', 'close'] as const
  /** Exactly these succeed. A later-step assignee sees the ticket and may comment and close (JumpServer: any assignee). */
  const ALLOWED: Record<Actor, readonly string[]> = {
    applicant: ['view', 'comment', 'close'],
    current: ['view', 'comment', 'approve', 'reject', 'close'],
    later: ['view', 'comment', 'close'],
    other: [], foreignadmin: [], auditor: [],
  }

  async function ticketOf(type: string): Promise<string> {
    if (type === 'apply_asset') return (await openAsset()).id
    // two levels for system tickets too, so "later" exists: boss1 then boss2
    const cols: Record<string, Record<string, unknown>> = {
      login_confirm: { apply_login_ip: '10.0.0.1' },
      login_asset_confirm: { apply_login_user_id: u.applicant!.id, apply_login_asset_id: host, apply_login_account: 'root' },
      command_confirm: { apply_run_user_id: u.applicant!.id, apply_run_asset: 'ticket-host', apply_run_command: 'rm -rf /', apply_run_account: 'root' },
    }
    const id = await openSystemTicket({ database: s.t.database, config: s.t.config }, {
      type: type as 'login_confirm', orgId: type === 'login_confirm' ? ORG_IDS.ROOT : ORG_IDS.DEFAULT, userId: u.applicant!.id,
      reviewerIds: [u.boss1!.id], columns: cols[type]!,
    }, { warn: () => undefined })
    // add a second level by hand (system tickets have one): boss2
    const step = randomUUID()
    await sql`insert into ticket_steps (id, ticket_id, level) values (${step}, ${id}, 2)`.execute(s.t.database.db)
    await sql`insert into ticket_assignees (id, step_id, ticket_id, level, user_id) values (${randomUUID()}, ${step}, ${id}, 2, ${u.boss2!.id})`.execute(s.t.database.db)
    await sql`update tickets set participants = participants || ${[u.boss2!.id]}::uuid[] where id = ${id}`.execute(s.t.database.db)
    return id
  }

  const clientOf = (a: Actor) => ({ applicant: u.applicant, current: u.boss1, later: u.boss2, other: u.other, foreignadmin: u.foreignadmin, auditor: u.auditor })[a]!.c

  for (const type of Object.keys(TYPED)) {
    it(`${type}: exactly the allowed actors act; others see nothing`, async () => {
      const actors: Actor[] = ['applicant', 'current', 'later', 'other', 'foreignadmin', 'auditor']
      for (const actor of actors) {
        for (const action of ACTIONS) {
          const id = await ticketOf(type)
          const c = clientOf(actor)
          let r
          if (action === 'view') r = await c.get(`${TYPED[type]}${id}/`)
          else if (action === 'comment') r = await c.post(`${T}comments/?ticket_id=${id}`, { body: 'hello', ticket: id })
          else r = await c.put(`${TYPED[type]}${id}/${action}/`)
          const ok = r.statusCode < 300
          expect(ok, `${type} ${actor} ${action} → ${r.statusCode} ${r.body}`).toBe(ALLOWED[actor].includes(action))
          if (!ALLOWED[actor].includes('view')) {
            // nothing leaks: not in lists, comments 404, the generic list
            expect([403, 404], `${actor} ${action}`).toContain(r.statusCode)
            const list = (await c.get(`${T}tickets/?limit=100`)).json()
            expect((list.results ?? list).some((x: { id: string }) => x.id === id)).toBe(false)
            expect((await c.get(`${T}comments/?ticket_id=${id}`)).statusCode).toBe(404)
          }
        }
      }
    })
  }

  it('the applicant never approves their own ticket, even as an assignee', async () => {
    const id = await openSystemTicket({ database: s.t.database, config: s.t.config }, {
      type: 'login_asset_confirm', orgId: ORG_IDS.DEFAULT, userId: u.boss1!.id, reviewerIds: [u.boss1!.id],
      columns: { apply_login_user_id: u.boss1!.id, apply_login_asset_id: host, apply_login_account: 'root' },
    }, { warn: () => undefined })
    expect((await u.boss1!.c.put(`${TYPED.login_asset_confirm}${id}/approve/`)).statusCode).toBe(403)
    expect((await u.boss1!.c.put(`${TYPED.login_asset_confirm}${id}/close/`)).statusCode).toBe(200)
  })

  it('a direct-approve link approves once, as its assignee; reused, expired or foreign tokens do nothing', async () => {
    // a one-level flow in DEFAULT again: the org admins
    const flow = ((await s.admin.get(`${T}flows/?effective=1`)).json() as { id: string }[])[0]!
    expect((await s.admin.put(`${T}flows/${flow.id}/`, { approval_level: 1, rules: [{ strategy: 'org_admin' }] })).statusCode).toBe(200)
    const t = await openAsset()
    const mail = await mailAbout('boss1@example.org', t.title)
    const path = /\/tickets\/direct-approve\/[A-Za-z0-9_-]+\//.exec(mail.text)![0]
    const anon = s.t.client()
    const page = await anon.get(path)
    expect(page.statusCode).toBe(200)
    expect(page.body).toContain('<form method="post">')
    const r = await anon.post(path, {})
    expect(r.statusCode, r.body).toBe(200)
    expect((await u.applicant!.c.get(`${TYPED.apply_asset}${t.id}/`)).json().state.value).toBe('approved')
    expect((await anon.post(path, {})).statusCode).toBe(404)
    expect((await anon.get(path)).statusCode).toBe(404)
    // expired
    const t2 = await openAsset()
    const mail2 = await mailAbout('boss1@example.org', t2.title)
    const path2 = /\/tickets\/direct-approve\/[A-Za-z0-9_-]+\//.exec(mail2.text)![0]
    await sql`update ticket_approve_tokens set date_expired = now() - interval '1 second' where ticket_id = ${t2.id}`.execute(s.t.database.db)
    expect((await anon.post(path2, {})).statusCode).toBe(404)
    expect((await u.applicant!.c.get(`${TYPED.apply_asset}${t2.id}/`)).json().state.value).toBe('pending')
    // garbage
    expect((await anon.post('/tickets/direct-approve/not-a-token-at-all-xxxxx/', {})).statusCode).toBe(404)
  })

  it('the gate: a login-asset and a command decision resolve from the API; cancel closes', async () => {
    const gate = createTicketApprovalGate({ database: s.t.database, config: s.t.config, log: { warn: () => undefined }, pollMs: 60_000 })
    const base = { orgId: ORG_IDS.DEFAULT, userId: u.applicant!.id, assetId: host, accountId: null, accountName: 'root', aclId: randomUUID(), aclName: 'acl', reviewerIds: [u.boss1!.id], loginFrom: 'WT' as const }
    const h1 = await gate({ ...base, kind: 'login_asset' })
    expect((await u.boss1!.c.put(`${TYPED.login_asset_confirm}${h1.ticketId}/approve/`)).statusCode).toBe(200)
    expect(await h1.decision).toBe('approved')
    const h2 = await gate({ ...base, kind: 'command', command: 'reboot' })
    const detail = (await u.boss1!.c.get(`${TYPED.command_confirm}${h2.ticketId}/`)).json()
    expect(detail.apply_run_command).toBe('reboot')
    expect((await u.boss1!.c.put(`${TYPED.command_confirm}${h2.ticketId}/reject/`)).statusCode).toBe(200)
    expect(await h2.decision).toBe('rejected')
    const h3 = await gate({ ...base, kind: 'command', command: 'ls' })
    await h3.cancel()
    expect(await h3.decision).toBe('closed')
    expect((await u.boss1!.c.get(`${TYPED.command_confirm}${h3.ticketId}/`)).json().status.value).toBe('closed')
  })

  it(`the gate hears a decision made by another server process (${dbKind() === 'pglite' ? 'PGlite: one process, the in-process channel' : 'a second PostgreSQL connection pool'})`, async () => {
    // A long poll: only the notification can wake the waiter within the test.
    const gate = createTicketApprovalGate({ database: s.t.database, config: s.t.config, log: { warn: () => undefined }, pollMs: 3_600_000 })
    const h = await gate({ kind: 'command', orgId: ORG_IDS.DEFAULT, userId: u.applicant!.id, assetId: host, accountId: null, accountName: 'root', aclId: randomUUID(), aclName: 'acl', reviewerIds: [u.boss1!.id], loginFrom: 'ST', command: 'shutdown' })
    const other = s.t.databaseUrl ? await openDatabase({ databaseUrl: s.t.databaseUrl }) : s.t.database
    try {
      const tr = await other.db.transaction().execute((tx) => applyAction(tx, h.ticketId, u.boss1!.id, 'boss1(boss1)', 'approve'))
      await afterTransition({ database: other, config: s.t.config }, tr, { warn: () => undefined })
      expect(await h.decision).toBe('approved')
    } finally {
      if (other !== s.t.database) await other.close()
    }
  })

  it('components: login-asset check, super-ticket status and close, command review, connection tokens wait for approval', async () => {
    const acl = await s.admin.post('/api/v1/acls/login-asset-acls/', {
      name: 'review root', priority: 1, action: 'review', reviewers: [u.boss1!.id],
      users: { username_group: [u.applicant!.c === undefined ? '' : 'applicant'] }, assets: { name_group: ['ticket-host'], address_group: ['*'] }, accounts: { username_group: ['*'] },
    })
    expect(acl.statusCode, acl.body).toBe(201)
    const check = await s.admin.post('/api/v1/acls/login-asset/check/', { user_id: u.applicant!.id, asset_id: host, account_username: 'root' })
    expect(check.statusCode, check.body).toBe(200)
    const c = check.json()
    expect(c.need_review).toBe(true)
    expect(c.reviewers).toEqual(['boss1'])
    const st = await s.admin.get(c.check_review_status.url)
    expect(st.json().state.value).toBe('pending')
    expect((await s.admin.delete(c.close_review.url)).statusCode).toBe(204)
    expect((await s.admin.get(c.check_review_status.url)).json().state.value).toBe('closed')
    // an ordinary user may not read super tickets
    expect((await u.applicant!.c.get(c.check_review_status.url)).statusCode).toBe(403)
    // a connection token: refused without create_ticket, inactive with it until approved
    const perm = await s.admin.post('/api/v1/perms/asset-permissions/', { name: 'tok', users: [u.applicant!.id], assets: [host], accounts: ['@ALL'], actions: ['connect'] })
    expect(perm.statusCode, perm.body).toBe(201)
    const body = { asset: host, account: 'root', protocol: 'ssh', connect_method: 'web_cli' }
    const refused = await u.applicant!.c.post('/api/v1/authentication/connection-token/', body)
    expect(refused.statusCode).toBe(400)
    expect(refused.json().code).toBe('acl_review')
    const tok = await u.applicant!.c.post('/api/v1/authentication/connection-token/?create_ticket=1', body)
    expect(tok.statusCode, tok.body).toBe(201)
    expect(tok.json().is_active).toBe(false)
    expect(tok.json().from_ticket).toBe(true)
    const ticketId = /super-tickets\/([0-9a-f-]+)\//.exec(tok.json().from_ticket_info.check_ticket_api.url)![1]!
    expect((await u.boss1!.c.put(`${TYPED.login_asset_confirm}${ticketId}/approve/`)).statusCode).toBe(200)
    expect((await u.applicant!.c.get(`/api/v1/authentication/connection-token/${tok.json().id}/`)).json().is_active).toBe(true)
    // command review opens a command_confirm ticket linked to the session
    const sessionId = randomUUID()
    await sql`insert into terminal_sessions (id, "user", asset, account, user_id, asset_id, org_id) values (${sessionId}, 'applicant', 'ticket-host', 'root', ${u.applicant!.id}, ${host}, ${ORG_IDS.DEFAULT})`.execute(s.t.database.db)
    const cmdAcl = await s.admin.post('/api/v1/acls/command-filter-acls/', {
      name: 'review rm', priority: 1, action: 'review', reviewers: [u.boss1!.id],
      users: { username_group: ['*'] }, assets: { name_group: ['*'], address_group: ['*'] }, accounts: { username_group: ['*'] },
    })
    expect(cmdAcl.statusCode, cmdAcl.body).toBe(201)
    const rev = await s.admin.post('/api/v1/acls/command-filter-acls/command-review/', { session_id: sessionId, cmd_filter_acl_id: cmdAcl.json().id, run_command: 'rm -rf /tmp/x' })
    expect(rev.statusCode, rev.body).toBe(200)
    expect(rev.json().assignees).toEqual(['boss1'])
    const cid = /super-tickets\/([0-9a-f-]+)\//.exec(rev.json().check_ticket_api.url)![1]!
    const sess = await u.boss1!.c.get(`${T}tickets/${cid}/session/`)
    expect(sess.statusCode, sess.body).toBe(200)
    expect(sess.json().id).toBe(sessionId)
    expect((await u.other!.c.get(`${T}tickets/${cid}/session/`)).statusCode).toBe(404)
    const bad = await s.admin.post('/api/v1/acls/command-filter-acls/command-review/', { session_id: 'x', run_command: '' })
    expect(Object.keys(bad.json()).sort()).toEqual(['cmd_filter_acl_id', 'run_command', 'session_id'])
  })
})
