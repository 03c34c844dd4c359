import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { bindOtp, encryptFor } from '../../auth/test-support.ts'
import { totp } from '../../auth/totp.ts'
import { dbKind, type TestClient } from '../../testing.ts'
import { useTestServer } from '../../use-test-server.ts'

const ACCOUNTS = '/api/v1/accounts/accounts/'
const SECRETS = '/api/v1/accounts/account-secrets/'
const HOSTS = '/api/v1/assets/hosts/'

async function openConsole(c: TestClient): Promise<void> {
  await c.get('/ui/')
  if (!c.jar.get('jms_public_key')) throw new Error('no jms_public_key')
}

/** Every field of every answer: never a secret or passphrase, and never the plain text given. */
function expectNoSecret(body: string, ...plain: string[]) {
  for (const p of plain) expect(body).not.toContain(p)
  expect(body).not.toMatch(/"(secret|passphrase)"\s*:/)
}

describe(`accounts (${dbKind()})`, () => {
  const s = useTestServer()
  const host = async (name: string) => (await s.admin.post(HOSTS, { name, address: `10.9.0.${Math.floor(Math.random() * 200) + 1}`, platform: 1 })).json().id as string

  it('creates an account with a sealed secret that no list, detail, export, activity or operate log shows', async () => {
    const c = s.admin
    await openConsole(c)
    const asset = await host('acc-web1')
    const r = await c.post(ACCOUNTS, { username: 'root', secret_type: 'password', secret: encryptFor(c, 'R00t-Secret!'), asset, privileged: true })
    expect(r.statusCode).toBe(201)
    const id = r.json().id as string
    expect(r.json()).toMatchObject({ name: 'root', username: 'root', has_secret: true, privileged: true, version: 1, source: { value: 'local' }, asset: { id: asset, name: 'acc-web1' } })
    const bodies = [
      r.body, (await c.get(ACCOUNTS)).body, (await c.get(`${ACCOUNTS}?limit=10&asset=${asset}`)).body, (await c.get(`${ACCOUNTS}${id}/`)).body,
      (await c.get(`${ACCOUNTS}?format=csv`)).body, (await c.get(`${ACCOUNTS}?format=xlsx`)).rawPayload.toString('latin1'),
      (await c.get(`/api/v1/audits/activities/?resource_id=${id}`)).body,
      (await c.patch(`${ACCOUNTS}${id}/`, { secret: 'N3w-Secret!', comment: 'x' })).body,
      (await c.put(ACCOUNTS, [{ id, comment: 'y' }])).body,
    ]
    for (const b of bodies) expectNoSecret(b, 'R00t-Secret!', 'N3w-Secret!')
    const logs = await sql`select diff from operate_logs where resource_id = ${id}`.execute(s.t.database.db)
    expect(JSON.stringify(logs.rows)).not.toMatch(/R00t-Secret|N3w-Secret/)
    const row = (await sql<{ secret: string; version: number }>`select secret, version from accounts where id = ${id}`.execute(s.t.database.db)).rows[0]!
    expect(row.secret).toMatch(/^v1:/)
    expect(row.version).toBe(2)
  })

  it('refuses a duplicate username on an asset, an unknown asset and a bad key, writing nothing', async () => {
    const c = s.admin
    const asset = await host('acc-dup')
    expect((await c.post(ACCOUNTS, { username: 'dup', secret: 'a', asset })).statusCode).toBe(201)
    const dup = await c.post(ACCOUNTS, { username: 'dup', secret: 'b', asset })
    expect(dup.statusCode).toBe(400)
    expect(dup.json()).toEqual({ username: ['An account with this username already exists on the asset.'] })
    const unknown = await c.post(ACCOUNTS, { username: 'x', asset: '5c9e3f0e-0000-4000-8000-000000000000' })
    expect(unknown.json()).toEqual({ asset: ['Invalid pk "5c9e3f0e-0000-4000-8000-000000000000" - object does not exist.'] })
    const key = await c.post(ACCOUNTS, { username: 'k', asset, secret_type: 'ssh_key', secret: 'ssh-rsa AAAA' })
    expect(key.json()).toEqual({ secret: ['This is not a private key (PEM or OpenSSH), or the passphrase does not open it.'] })
    expect((await c.get(`${ACCOUNTS}?asset=${asset}`)).json()).toHaveLength(1)
  })

  it('creates from a template, names a taken name with a suffix, clones, and bulk-creates with skip | update | error', async () => {
    const c = s.admin
    const a1 = await host('acc-b1')
    const a2 = await host('acc-b2')
    const tpl = (await c.post('/api/v1/accounts/account-templates/', { name: 'deploy-tpl', username: 'deploy', secret: 'Tpl-Pass-1', privileged: true })).json().id
    expect((await c.post(ACCOUNTS, { template: tpl, asset: a1 })).json()).toEqual({ username: ['This field is required.'] })
    const fromTpl = await c.post(ACCOUNTS, { template: tpl, username: 'deploy', asset: a1 })
    expect(fromTpl.statusCode).toBe(201)
    expect(fromTpl.json()).toMatchObject({ username: 'deploy', privileged: true, has_secret: true, source: { value: 'template' }, source_id: tpl })
    const named = await c.post(ACCOUNTS, { username: 'other', name: 'deploy', asset: a1 })
    expect(named.json()).toEqual({ name: ['This field must be unique.'] })
    const bulk = await c.post(`${ACCOUNTS}bulk/`, { username: 'deploy', secret: 'Bulk-1', assets: [a1, a2, 'nope'], on_invalid: 'skip' })
    expect(bulk.statusCode).toBe(200)
    expect(bulk.json()).toEqual([
      { asset: expect.stringMatching(/^acc-b1\(/), state: 'skipped', error: '', changed: false },
      { asset: expect.stringMatching(/^acc-b2\(/), state: 'created', error: '', changed: true },
      { asset: 'nope', state: 'error', error: 'Invalid pk "nope" - object does not exist.', changed: false },
    ])
    const err = await c.post(`${ACCOUNTS}bulk/`, { username: 'deploy', secret: 'Bulk-2', assets: [a1], on_invalid: 'error' })
    expect(err.json()[0]).toMatchObject({ state: 'error', error: 'An account with this username already exists on the asset.' })
    const upd = await c.post(`${ACCOUNTS}bulk/`, { username: 'deploy', secret: 'Bulk-3', comment: 'bulk', assets: [a1, a2], on_invalid: 'update' })
    expect(upd.json().map((x: { state: string }) => x.state)).toEqual(['updated', 'updated'])
    expectNoSecret(upd.body, 'Bulk-3')
    expect((await c.post(`${ACCOUNTS}bulk/`, { username: 'z', assets: [] })).json()).toEqual({ assets: ['This field is required.'] })
    expect((await c.post(`${ACCOUNTS}bulk/`, { username: 'z', assets: [a1], on_invalid: 'maybe' })).json()).toEqual({ on_invalid: ['"maybe" is not a valid choice.'] })
  })

  it('shows a secret and its history after an MFA confirmation only, logging each view', async () => {
    const c = s.admin
    const asset = await host('acc-hist')
    const id = (await c.post(ACCOUNTS, { username: 'app', secret: 'First-1', asset })).json().id as string
    await c.patch(`${ACCOUNTS}${id}/`, { secret: 'Second-2' })
    expect((await c.get(`${SECRETS}${id}/`)).json()).toEqual({ code: 'mfa', detail: 'This action require confirm current user' })
    expect((await c.get(`${SECRETS}${id}/histories/`)).statusCode).toBe(400)
    const seed = await bindOtp(s.t, s.t.adminId)
    await openConsole(c)
    expect((await c.post('/api/v1/authentication/confirm/', { confirm_type: 'mfa', mfa_type: 'otp', secret_key: encryptFor(c, totp(seed)) })).json()).toBe('ok')
    expect((await c.get(`${SECRETS}${id}/`)).json()).toMatchObject({ id, username: 'app', secret: 'Second-2', version: 2 })
    const h = (await c.get(`${SECRETS}${id}/histories/`)).json()
    expect(h.map((x: { secret: string; version: number }) => [x.version, x.secret])).toEqual([[2, 'Second-2'], [1, 'First-1']])
    const views = await sql<{ resource: string }>`select resource from operate_logs where resource_id = ${id} and action = 'view' order by datetime`.execute(s.t.database.db)
    expect(views.rows.map((r) => r.resource)).toEqual(['secret: app', 'secret histories: app'])
  })
})
