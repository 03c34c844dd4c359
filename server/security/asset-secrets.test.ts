/**
 * Issue 36 point 6 and its class: an actor who cannot view a secret cannot make the server send it to a host of
 * their choosing. Changing where an asset with stored secrets is reached — its address, its ports (protocols), its
 * domain (and so its gateway) — needs what viewing a secret needs: the permission and a fresh MFA confirmation.
 * Generated over every asset kind that can be changed.
 */
import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { allResources } from '../engine/registry.ts'
import { allows } from '../engine/routes.ts'
import { setSettings } from '../settings/store.ts'
import { createTestServer, dbKind, type TestClient, type TestServer } from '../testing.ts'
import { Factory } from '../conformance/harness.ts'
import { makeWorld, type World } from './fixtures.ts'

const t: TestServer = await createTestServer()
afterAll(async () => { await t.close() })

const ASSET_FIELDS = ['address', 'protocols', 'domain']
const kinds = allResources().filter((d) => d.table === 'assets' && allows(d, 'create') && allows(d, 'update') && d.path !== '/api/v1/assets/assets/')

describe(`where an asset with secrets is reached (${dbKind()})`, () => {
  let w: World
  let admin: TestClient
  let changer: TestClient
  let confirmedAdmin: TestClient

  beforeAll(async () => {
    w = await makeWorld(t)
    admin = await w.as('admin')
    // A role with change-asset and verify-account, without view-secret (the attacker of the issue).
    const role = randomUUID()
    await sql`insert into roles (id, name, scope) values (${role}, 'asset changer', 'org')`.execute(t.database.db)
    for (const p of ['assets.view_asset', 'assets.change_asset', 'assets.view_host', 'assets.change_host', 'accounts.view_account', 'accounts.verify_account', 'assets.view_domain']) {
      await sql`insert into role_permissions (role_id, codename) values (${role}, ${p})`.execute(t.database.db)
    }
    await t.createUser({ username: 'changer', orgRoles: [role], orgId: w.acme })
    changer = await t.as('changer')
    changer.headers['accept-language'] = 'en'
    changer.headers['x-jms-org'] = w.acme
    confirmedAdmin = await w.as('admin')
    confirmedAdmin.headers['x-jms-org'] = w.acme
  })

  const hostWithSecret = async (org: string) => {
    const host = (await admin.post('/api/v1/assets/hosts/', { name: `h-${randomUUID().slice(0, 8)}`, address: '10.1.1.1', platform: 1 }, { 'x-jms-org': org })).json()
    expect(host.id).toBeTruthy()
    const acc = await admin.post('/api/v1/accounts/accounts/', { username: 'root', secret: 'Root-Secret-1!', secret_type: 'password', asset: host.id }, { 'x-jms-org': org })
    expect(acc.statusCode, acc.body).toBe(201)
    return host as { id: string; protocols: Array<{ name: string; port: number }> }
  }

  it('without view-secret, the address of a host with a stored secret cannot be changed (point 6)', async () => {
    const host = await hostWithSecret(w.acme)
    const r = await changer.patch(`/api/v1/assets/hosts/${host.id}/`, { address: '203.0.113.66' })
    expect(r.statusCode, r.body).toBe(403)
    const ports = await changer.patch(`/api/v1/assets/hosts/${host.id}/`, { protocols: [{ name: 'ssh', port: 2222 }] })
    expect(ports.statusCode).toBe(403)
    const stored = (await sql<{ address: string }>`select address from assets where id = ${host.id}`.execute(t.database.db)).rows[0]!
    expect(stored.address).toBe('10.1.1.1')
    // Other fields stay theirs to change.
    expect((await changer.patch(`/api/v1/assets/hosts/${host.id}/`, { comment: 'fine' })).statusCode).toBe(200)
  })

  it('with view-secret, the change needs a fresh MFA confirmation; without stored secrets, none (point 6)', async () => {
    const host = await hostWithSecret(w.acme)
    const r = await confirmedAdmin.patch(`/api/v1/assets/hosts/${host.id}/`, { address: '203.0.113.67' })
    expect(r.statusCode).toBe(400)
    expect(r.json().code).toBe('mfa')
    const bare = (await admin.post('/api/v1/assets/hosts/', { name: `bare-${randomUUID().slice(0, 8)}`, address: '10.1.1.2', platform: 1 }, { 'x-jms-org': w.acme })).json()
    expect((await changer.patch(`/api/v1/assets/hosts/${bare.id}/`, { address: '203.0.113.68' })).statusCode).toBe(200)
    await setSettings(t.database.db, { SECURITY_VIEW_AUTH_NEED_MFA: false })
    try {
      expect((await confirmedAdmin.patch(`/api/v1/assets/hosts/${host.id}/`, { address: '203.0.113.67' })).statusCode).toBe(200)
    } finally {
      await setSettings(t.database.db, { SECURITY_VIEW_AUTH_NEED_MFA: true })
    }
  })

  it('the generated cases cover every asset kind', () => {
    expect(kinds.length).toBeGreaterThanOrEqual(6)
  })

  it.each(kinds.map((d) => [d.path, d] as const))('%s: address, protocols and domain of an asset with a secret need the confirmation', async (path, def) => {
    const f = new Factory(admin)
    const obj = await f.create(def, w.acme)
    await sql`insert into accounts (id, org_id, asset_id, name, username, secret_type, secret) values (${randomUUID()}, ${w.acme}, ${obj.id}, 'a', 'a', 'password', 'sealed')`.execute(t.database.db)
    const c = await w.as('admin')
    c.headers['x-jms-org'] = w.acme
    const patchable = (await c.options(`${path}${obj.id}/`)).json().actions?.PATCH ?? {}
    const domain = await f.create(allResources().find((d) => d.name === 'assets.domain')!, w.acme)
    for (const field of ASSET_FIELDS.filter((x) => x in patchable)) {
      const value = field === 'address' ? (patchable.address.type === 'url' ? 'https://evil.example/' : 'evil.example') : field === 'domain' ? domain.id : [{ name: 'ssh', port: 2022 }]
      const r = await c.patch(`${path}${obj.id}/`, { [field]: value })
      expect([400, 403], `${field}: ${r.body}`).toContain(r.statusCode)
      if (r.statusCode === 400 && field !== 'domain') expect(r.json().code, `${field}: ${r.body}`).toBe('mfa')
    }
  })
})
