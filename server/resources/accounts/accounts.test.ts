import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { bindOtp, encryptFor } from '../../auth/test-support.ts'
import { totp } from '../../auth/totp.ts'
import { ORG_IDS, ROLE_IDS } from '../../rbac/catalog.ts'
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
  // lina 3.2.2's account form and detail (JumpServer's AccountViewSet.su_from_accounts)
  it('lists the accounts an account may switch from, or an asset\'s accounts, as a plain array without secrets', async () => {
    const c = s.admin
    const asset = await host('su-host')
    const other = await host('su-other')
    const mk = async (username: string, extra: Record<string, unknown> = {}) => {
      const r = await c.post(ACCOUNTS, { username, secret: `Su-${username}-1`, asset, ...extra })
      expect(r.statusCode, r.body).toBe(201)
      return r.json().id as string
    }
    const root = await mk('root')
    const app = await mk('app', { su_from: root })
    const ops = await mk('ops')
    await c.post(ACCOUNTS, { username: 'root', secret: 'x', asset: other })
    const names = (r: { json(): unknown }) => (r.json() as Array<{ username: string }>).map((x) => x.username)
    const SU = `${ACCOUNTS}su-from-accounts/`
    // not itself, not the accounts that switch from it (app su-from root), only its asset's
    const ofRoot = await c.get(`${SU}?account=${root}`)
    expect(ofRoot.statusCode).toBe(200)
    expect(names(ofRoot)).toEqual(['ops'])
    expect(names(await c.get(`${SU}?account=${app}`))).toEqual(['ops', 'root'])
    expect(names(await c.get(`${SU}?account=${ops}&order=-username`))).toEqual(['root', 'app'])
    // lina's form sends both (an empty account: the asset's accounts); the list's parameters apply
    const ofAsset = await c.get(`${SU}?account=&asset=${asset}`)
    expect(names(ofAsset)).toEqual(['app', 'ops', 'root'])
    expect(ofAsset.json()[0]).toMatchObject({ id: app, name: 'app', asset: { id: asset }, su_from: { id: root }, has_secret: true })
    expect((await c.get(`${SU}?account=${app}&fields_size=mini`)).json()).toEqual([{ id: ops, name: 'ops', username: 'ops' }, { id: root, name: 'root', username: 'root' }])
    expect(names(await c.get(`${SU}?asset=${asset}&search=op`))).toEqual(['ops'])
    expect((await c.get(`${SU}?asset=${asset}&limit=1`)).json()).toHaveLength(3)
    expect((await c.get(SU)).json()).toEqual([])
    for (const r of [ofRoot, ofAsset]) expectNoSecret(r.body, 'Su-root-1', 'Su-app-1', 'Su-ops-1')
    // unknown or another organization's account or asset: 404
    const foreign = (await c.post('/api/v1/orgs/orgs/', { name: 'su-foreign' })).json().id as string
    expect((await c.get(`${SU}?account=${root}`, { 'x-jms-org': foreign })).statusCode).toBe(404)
    expect((await c.get(`${SU}?asset=${asset}`, { 'x-jms-org': foreign })).statusCode).toBe(404)
    expect((await c.get(`${SU}?account=5c9e3f0e-0000-4000-8000-000000000000`)).statusCode).toBe(404)
    expect((await c.get(`${SU}?account=garbage`)).statusCode).toBe(404)
    expect(names(await c.get(`${SU}?account=${root}`, { 'x-jms-org': ORG_IDS.ROOT }))).toEqual(['ops'])
    // accounts.view_account
    await s.t.createUser({ username: 'su-orguser', systemRoles: [ROLE_IDS.User], orgRoles: [ROLE_IDS.OrgUser] })
    const plain = await s.t.as('su-orguser')
    expect((await plain.get(`${SU}?account=${root}`)).statusCode).toBe(403)
    await s.t.createUser({ username: 'su-auditor', systemRoles: [ROLE_IDS.User], orgRoles: [ROLE_IDS.OrgAuditor] })
    expect((await (await s.t.as('su-auditor')).get(`${SU}?asset=${asset}`)).statusCode).toBe(403)
  })

  it('suggests up to ten usernames of the organization\'s accounts, root/admin/administrator first, to any user', async () => {
    const c = s.admin
    const node = (await c.post('/api/v1/assets/nodes/', { full_value: '/DEFAULT/Sugg/Deep' })).json()
    const parent = (await c.get('/api/v1/assets/nodes/?value=Sugg')).json()[0]
    const inNode = (await c.post(HOSTS, { name: 'sugg-n', address: '10.8.0.1', platform: 1, nodes: [node.id] })).json().id as string
    const plainHost = await host('sugg-p')
    for (const u of ['zed', 'Administrator', 'bob', 'root', 'sugg-1', 'sugg-2']) await c.post(ACCOUNTS, { username: u, asset: plainHost })
    for (const u of ['admin', 'deploy', 'bob']) await c.post(ACCOUNTS, { username: u, asset: inNode })
    const foreign = (await c.post('/api/v1/orgs/orgs/', { name: 'sugg-foreign' })).json().id as string
    const fh = (await c.post(HOSTS, { name: 'sugg-f', address: '10.8.0.9', platform: 1 }, { 'x-jms-org': foreign })).json().id as string
    expect((await c.post(ACCOUNTS, { username: 'foreigner', asset: fh }, { 'x-jms-org': foreign })).statusCode).toBe(201)
    const URL = `${ACCOUNTS}username-suggestions/`
    await s.t.createUser({ username: 'sugg-user', systemRoles: [ROLE_IDS.User], orgRoles: [ROLE_IDS.OrgUser] })
    const u = await s.t.as('sugg-user')
    u.headers['accept-language'] = 'en'
    const both = await u.get(`${URL}?assets=${plainHost},${inNode}`)
    expect(both.statusCode).toBe(200)
    expect(both.json()).toEqual(['Administrator', 'admin', 'root', 'bob', 'deploy', 'sugg-1', 'sugg-2', 'zed'])
    expect((await u.get(`${URL}?assets=${plainHost}&username=SUGG`)).json()).toEqual(['sugg-1', 'sugg-2'])
    // node keys select their subtrees' assets
    expect((await u.get(`${URL}?keys=${parent.key}`)).json()).toEqual(['admin', 'bob', 'deploy'])
    expect((await u.get(`${URL}?keys=${node.key}&username=dep`)).json()).toEqual(['deploy'])
    expect((await u.get(`${URL}?keys=nope`)).json()).toEqual([])
    // the current organization only; at most ten
    const all = (await c.get(URL)).json() as string[]
    expect(all.length).toBeLessThanOrEqual(10)
    expect(all).not.toContain('foreigner')
    expect((await c.get(URL, { 'x-jms-org': foreign })).json()).toEqual(['foreigner'])
    for (let i = 0; i < 12; i++) await c.post(ACCOUNTS, { username: `many-${String(i).padStart(2, '0')}`, asset: plainHost })
    expect((await c.get(`${URL}?username=many-`)).json()).toEqual(Array.from({ length: 10 }, (_, i) => `many-${String(i).padStart(2, '0')}`))
    // bad ids are field errors; anonymous callers are refused
    expect((await u.get(`${URL}?assets=${plainHost},nope`)).json()).toEqual({ assets: ['"nope" is not a valid UUID.'] })
    expect((await s.t.client().get(URL)).statusCode).toBe(401)
  })

  it('clears the secrets of the given accounts of the organization (accounts.change_account), never answering one', async () => {
    const c = s.admin
    const asset = await host('clear-host')
    const mk = async (username: string) => (await c.post(ACCOUNTS, { username, secret: `Clear-${username}-9`, asset })).json().id as string
    const a = await mk('ca')
    const b = await mk('cb')
    const keep = await mk('ckeep')
    const foreign = (await c.post('/api/v1/orgs/orgs/', { name: 'clear-foreign' })).json().id as string
    const fh = (await c.post(HOSTS, { name: 'clear-f', address: '10.7.0.9', platform: 1 }, { 'x-jms-org': foreign })).json().id as string
    const far = (await c.post(ACCOUNTS, { username: 'cfar', secret: 'Far-1', asset: fh }, { 'x-jms-org': foreign })).json().id as string
    const URL = `${ACCOUNTS}clear-secret/`
    // accounts.change_account: an org auditor (view only) is refused, nothing changes
    await s.t.createUser({ username: 'clear-auditor', systemRoles: [ROLE_IDS.User], orgRoles: [ROLE_IDS.OrgAuditor] })
    expect((await (await s.t.as('clear-auditor')).patch(URL, { account_ids: [a] })).statusCode).toBe(403)
    const hasSecret = async (id: string, org: string = ORG_IDS.DEFAULT) => (await c.get(`${ACCOUNTS}${id}/`, { 'x-jms-org': org })).json().has_secret as boolean
    expect(await hasSecret(a)).toBe(true)
    const r = await c.patch(URL, { account_ids: [a, b, far, '5c9e3f0e-0000-4000-8000-000000000000'] })
    expect(r.statusCode).toBe(200)
    expect(r.body).toBe('')
    expect([await hasSecret(a), await hasSecret(b), await hasSecret(keep), await hasSecret(far, foreign)]).toEqual([false, false, true, true])
    const rows = (await sql<{ id: string; secret: string; version: number }>`select id, secret, version from accounts where id in (${a}, ${b})`.execute(s.t.database.db)).rows
    expect(rows.map((x) => [x.secret, x.version])).toEqual([['', 1], ['', 1]])
    const logs = await sql<{ diff: unknown }>`select diff from operate_logs where resource_id = ${a} and action = 'update'`.execute(s.t.database.db)
    expect(logs.rows).toHaveLength(1)
    expect(JSON.stringify(logs.rows)).not.toContain('Clear-ca-9')
    expect(JSON.stringify(logs.rows[0]!.diff)).toContain('******')
    // the history keeps the versions that were set
    expect((await sql`select 1 from account_secret_histories where account_id = ${a}`.execute(s.t.database.db)).rows).toHaveLength(1)
    // bad bodies are field errors; no ids, nothing to do
    expect((await c.patch(URL, { account_ids: 'abc' })).json()).toEqual({ account_ids: ['Expected a list of items but got type "str".'] })
    expect((await c.patch(URL, { account_ids: ['nope'] })).json()).toEqual({ account_ids: ['"nope" is not a valid UUID.'] })
    expect((await c.patch(URL, [a])).statusCode).toBe(400)
    expect((await c.patch(URL, {})).statusCode).toBe(200)
    expect(await hasSecret(keep)).toBe(true)
  })
})
