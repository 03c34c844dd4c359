import { generateKeyPairSync } from 'node:crypto'
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { bindOtp, encryptFor } from '../../auth/test-support.ts'
import type { TestClient } from '../../testing.ts'
import { totp } from '../../auth/totp.ts'
import { dbKind } from '../../testing.ts'
import { useTestServer } from '../../use-test-server.ts'

const TEMPLATES = '/api/v1/accounts/account-templates/'
const SECRETS = '/api/v1/accounts/account-template-secrets/'
const CONFIRM = '/api/v1/authentication/confirm/'
/** A console page gives the session its RSA key pair (jms_public_key), as in the browser. */
async function openConsole(c: TestClient): Promise<void> {
  await c.get('/ui/')
  if (!c.jar.get('jms_public_key')) throw new Error('no jms_public_key')
}
const PEM = generateKeyPairSync('rsa', { modulusLength: 1024, privateKeyEncoding: { type: 'pkcs1', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } }).privateKey

describe(`account templates (${dbKind()})`, () => {
  const s = useTestServer()

  it('takes an encrypted secret, seals it at rest and never returns it (list, detail, export, operate log)', async () => {
    const c = s.admin
    await openConsole(c)
    const r = await c.post(TEMPLATES, { name: 'root-tpl', username: 'root', secret_type: 'password', secret: encryptFor(c, 'Tpl-S3cret!') })
    expect(r.statusCode).toBe(201)
    const id = r.json().id as string
    expect(r.json()).toMatchObject({ name: 'root-tpl', username: 'root', has_secret: true, secret_type: { value: 'password' } })
    for (const body of [r.body, (await c.get(TEMPLATES)).body, (await c.get(`${TEMPLATES}${id}/`)).body,
      (await c.get(`${TEMPLATES}?format=csv`)).body, (await c.get(`${TEMPLATES}?format=csv&template=update`)).body]) {
      expect(body).not.toContain('Tpl-S3cret!')
      expect(body).not.toMatch(/"secret"\s*:/)
    }
    const stored = (await sql<{ secret: string }>`select secret from account_templates where id = ${id}`.execute(s.t.database.db)).rows[0]!
    expect(stored.secret).toMatch(/^v1:/)
    expect(stored.secret).not.toContain('Tpl-S3cret!')
    const logs = await sql<{ diff: unknown }>`select diff from operate_logs where resource_id = ${id}`.execute(s.t.database.db)
    expect(JSON.stringify(logs.rows)).not.toContain('Tpl-S3cret!')
    expect(JSON.stringify(logs.rows)).toContain('******')
  })

  it('refuses a key that is not a key and a passphrase for a password, writing nothing', async () => {
    const c = s.admin
    const bad = await c.post(TEMPLATES, { name: 'k1', username: 'u', secret_type: 'ssh_key', secret: 'not a key' })
    expect(bad.statusCode).toBe(400)
    expect(bad.json()).toEqual({ secret: ['This is not a private key (PEM or OpenSSH), or the passphrase does not open it.'] })
    const pp = await c.post(TEMPLATES, { name: 'k2', username: 'u', secret_type: 'password', secret: 'x', passphrase: 'y' })
    expect(pp.json()).toEqual({ passphrase: ['A passphrase only goes with an SSH key.'] })
    expect((await c.get(`${TEMPLATES}?name=k1`)).json()).toEqual([])
    const ok = await c.post(TEMPLATES, { name: 'k3', username: 'u', secret_type: 'ssh_key', secret: PEM })
    expect(ok.statusCode).toBe(201)
  })

  it('shows the secret only after an MFA confirmation, and logs every view', async () => {
    const c = s.admin
    const id = (await c.post(TEMPLATES, { name: 'view-me', username: 'web', secret: 'Vi3w-Me!' })).json().id as string
    const refused = await c.get(`${SECRETS}${id}/`)
    expect(refused.statusCode).toBe(400)
    expect(refused.json()).toEqual({ code: 'mfa', detail: 'This action require confirm current user' })
    const seed = await bindOtp(s.t, s.t.adminId)
    await openConsole(c)
    expect((await c.post(CONFIRM, { confirm_type: 'mfa', mfa_type: 'otp', secret_key: encryptFor(c, totp(seed)) })).json()).toBe('ok')
    const shown = await c.get(`${SECRETS}${id}/`)
    expect(shown.statusCode).toBe(200)
    expect(shown.json()).toMatchObject({ id, name: 'view-me', username: 'web', secret: 'Vi3w-Me!', passphrase: '' })
    const views = await sql<{ action: string; resource: string }>`select action, resource from operate_logs where resource_id = ${id} and action = 'view'`.execute(s.t.database.db)
    expect(views.rows).toEqual([{ action: 'view', resource: 'secret: view-me' }])
    expect(JSON.stringify(views.rows)).not.toContain('Vi3w-Me!')
    // without the permission: 403 even when confirmed
    await s.t.createUser({ username: 'auditor1', systemRoles: ['00000000-0000-0000-0000-000000000003'], orgRoles: ['00000000-0000-0000-0000-000000000007'] })
    const user = await s.t.as('auditor1')
    expect((await user.get(`${SECRETS}${id}/`)).statusCode).toBe(403)
  })
})
