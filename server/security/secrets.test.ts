/**
 * Issue 36 point 5 and its class: whatever moves secrets out (an account backup's plan — its password and
 * recipients —, running it, downloading its archive) needs what viewing a secret needs: the permission and a
 * fresh MFA confirmation of the person asking. A bearer token has no confirmation, so it gets none of them.
 * The class is generated from every registered resource that declares `secretGuard`.
 */
import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bindOtp, encryptFor, openLoginPage, TEST_SECRET_KEY } from '../auth/test-support.ts'
import { totp } from '../auth/totp.ts'
import { allResources } from '../engine/registry.ts'
import { createTestServer, dbKind, type TestClient, type TestServer } from '../testing.ts'
import { makeWorld, type World } from './fixtures.ts'

const A = '/api/v1/accounts/'
const PW = 'Str0ng-Passw0rd!'

const t: TestServer = await createTestServer({ secretKey: TEST_SECRET_KEY })
afterAll(async () => { await t.close() })

describe(`secrets leave only with MFA (${dbKind()})`, () => {
  let w: World
  let bearer: Record<string, string>
  let plan: string
  let execution: string
  let confirmed: TestClient

  beforeAll(async () => {
    w = await makeWorld(t)
    const r = await t.app.inject({ method: 'POST', url: '/api/v1/authentication/auth/', payload: { username: 'acme_admin', password: PW } })
    expect(r.statusCode).toBe(201)
    bearer = { authorization: `Bearer ${r.json().token}`, 'x-jms-org': w.acme, 'accept-language': 'en' }
    plan = randomUUID()
    await sql`insert into account_automations (id, org_id, type, name) values (${plan}, ${w.acme}, 'backup_account', 'existing')`.execute(t.database.db)
    execution = randomUUID()
    await sql`insert into account_automation_executions (id, org_id, automation_id, type, status, artifact, artifact_name)
      values (${execution}, ${w.acme}, ${plan}, 'backup_account', 'success', ${Buffer.from('PK-archive')}, 'backup.zip')`.execute(t.database.db)
    // The org admin in a browser session with MFA, confirmed.
    const seed = await bindOtp(t, w.ids.acmeAdmin)
    confirmed = t.client()
    await openLoginPage(confirmed)
    confirmed.headers['accept-language'] = 'en'
    expect((await confirmed.post('/api/v1/authentication/login/', { username: 'acme_admin', password: encryptFor(confirmed, PW) })).json().mfa_required).toBe(true)
    expect((await confirmed.post('/api/v1/authentication/login/mfa/', { code: totp(seed) })).statusCode).toBe(200)
    confirmed.headers['x-jms-org'] = w.acme
    await sql`update users set otp_last_counter = 0 where id = ${w.ids.acmeAdmin}`.execute(t.database.db)
    expect((await confirmed.post('/api/v1/authentication/confirm/', { confirm_type: 'mfa', mfa_type: 'otp', secret_key: encryptFor(confirmed, totp(seed)) })).json()).toBe('ok')
  })

  const inject = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) => t.app.inject({ method, url, headers: bearer, ...(payload ? { payload: payload as object } : {}) })

  it('a bearer token cannot create a backup plan, run one or download its archive (point 5)', async () => {
    const create = await inject('POST', `${A}account-backup-plans/`, { name: 'mine', zip_encrypt_password: 'Chosen-Password-1' })
    expect(create.statusCode, create.body).toBe(400)
    expect(create.json().code).toBe('mfa')
    const change = await inject('PATCH', `${A}account-backup-plans/${plan}/`, { zip_encrypt_password: 'Chosen-Password-1' })
    expect(change.json().code).toBe('mfa')
    const run = await inject('POST', `${A}account-backup-plan-executions/`, { automation: plan })
    expect(run.json().code).toBe('mfa')
    const dl = await inject('GET', `${A}account-backup-plan-executions/${execution}/download/`)
    expect(dl.statusCode).toBe(400)
    expect(dl.json().code).toBe('mfa')
    expect(dl.body).not.toContain('PK-archive')
    const plans = (await sql<{ n: number }>`select count(*)::int as n from account_automations where type = 'backup_account'`.execute(t.database.db)).rows[0]!.n
    expect(plans).toBe(1)
  })

  it('the same person after an MFA confirmation may (point 5)', async () => {
    const create = await confirmed.post(`${A}account-backup-plans/`, { name: 'mine', zip_encrypt_password: 'Chosen-Password-1' })
    expect(create.statusCode, create.body).toBe(201)
    const dl = await confirmed.get(`${A}account-backup-plan-executions/${execution}/download/`)
    expect(dl.statusCode).toBe(200)
    expect(dl.body).toBe('PK-archive')
  })

  const guarded = allResources().filter((d) => d.secretGuard)
  it('the generated cases cover the backup plans and their executions', () => {
    expect(guarded.map((d) => d.path).sort()).toEqual([`${A}account-backup-plan-executions/`, `${A}account-backup-plans/`])
  })
  it.each(guarded.map((d) => [d.path, d] as const))('%s: every write without a confirmation is refused before it is read', async (path) => {
    for (const method of ['POST', 'PATCH', 'PUT'] as const) {
      const url = method === 'POST' ? path : `${path}${randomUUID()}/`
      const r = await t.app.inject({ method, url, headers: bearer, payload: {} })
      expect(r.statusCode, `${method} ${url} ${r.body}`).not.toBe(201)
      expect([400, 403, 404, 405]).toContain(r.statusCode)
      if (r.statusCode === 400) expect(r.json().code, `${method} ${url}`).toBe('mfa')
    }
  })
})
