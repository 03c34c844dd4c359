/**
 * Accounts given with a new asset (issue 35): typed rows and template rows created in the asset's transaction,
 * secrets sealed and never answered, bad rows answered per row with nothing written, and the asset kinds' OPTIONS
 * describing the rows (create only).
 */
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { encryptFor } from '../../auth/test-support.ts'
import { PERMISSION_BY_CODENAME, ROLE_IDS } from '../../rbac/catalog.ts'
import type { TestClient } from '../../testing.ts'
import { dbKind } from '../../testing.ts'
import { useTestServer } from '../../use-test-server.ts'
import { openSecret } from './secrets.ts'

const HOSTS = '/api/v1/assets/hosts/'
const DATABASES = '/api/v1/assets/databases/'
const ACCOUNTS = '/api/v1/accounts/accounts/'
const TEMPLATES = '/api/v1/accounts/account-templates/'

async function openConsole(c: TestClient): Promise<void> {
  await c.get('/ui/')
  if (!c.jar.get('jms_public_key')) throw new Error('no jms_public_key')
}

describe(`accounts given with a new asset (${dbKind()})`, () => {
  const s = useTestServer()
  const count = async (table: 'assets' | 'accounts', name: string) =>
    (await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)} where name = ${name}`.execute(s.t.database.db)).rows[0]!.n

  it('describes the rows on create only: typed children, the template picker, no asset', async () => {
    const post = (await s.admin.options(HOSTS)).json().actions.POST
    expect(post.accounts).toMatchObject({ type: 'field', write_only: true, required: false, label: 'Accounts' })
    const children = post.accounts.child.children
    expect(Object.keys(children)).toEqual(['template', 'name', 'username', 'secret_type', 'secret', 'passphrase', 'privileged', 'push_now'])
    expect(children.template.related).toMatchObject({ url: TEMPLATES })
    expect(children.secret).toMatchObject({ write_only: true })
    expect((await s.admin.options(DATABASES)).json().actions.POST.accounts).toBeDefined()
    const host = (await s.admin.post(HOSTS, { name: 'opts-host', address: '10.9.0.1', platform: 1 })).json()
    expect((await s.admin.options(`${HOSTS}${host.id}/`)).json().actions.PUT.accounts).toBeUndefined()
  })

  it('creates the asset with a typed account and one from a template in one write, secrets sealed and never answered', async () => {
    const c = s.admin
    await openConsole(c)
    const tpl = (await c.post(TEMPLATES, { name: 'ops-tpl', username: 'ops', secret_type: 'password', secret: encryptFor(c, 'Tpl-S3cret!'), privileged: true })).json()
    const r = await c.post(HOSTS, {
      name: 'with-accounts', address: '10.9.0.2', platform: 1,
      accounts: [
        { name: 'root', username: 'root', secret_type: 'password', secret: encryptFor(c, 'R00t-S3cret!'), privileged: true },
        { template: tpl.id },
      ],
    })
    expect(r.statusCode).toBe(201)
    expect(r.body).not.toContain('S3cret')
    expect(r.json().accounts).toBeUndefined()
    const list = (await c.get(`${ACCOUNTS}?asset=${r.json().id}`)).json() as Array<Record<string, unknown>>
    expect(list.map((a) => [a.name, a.username, a.privileged, a.has_secret, (a.source as { value: string }).value]).sort())
      .toEqual([['ops-tpl', 'ops', true, true, 'template'], ['root', 'root', true, true, 'local']])
    expect(JSON.stringify(list)).not.toContain('S3cret')
    const stored = (await sql<{ id: string; username: string; secret: string; version: number }>`select id, username, secret, version from accounts where asset_id = ${r.json().id} order by username`.execute(s.t.database.db)).rows
    expect(stored.every((a) => a.secret.startsWith('v1:') && a.version === 1)).toBe(true)
    expect(stored.map((a) => openSecret(s.t.database, 'accounts', a.id, 'secret', a.secret))).toEqual(['Tpl-S3cret!', 'R00t-S3cret!'])
    const logs = await sql<{ resource_type: string; diff: unknown }>`select resource_type, diff from operate_logs where resource_id = any(${stored.map((a) => a.id)}::text[])`.execute(s.t.database.db)
    expect(logs.rows.map((l) => l.resource_type)).toEqual(['Account', 'Account'])
    expect(JSON.stringify(logs.rows)).not.toContain('S3cret')
  })

  it('answers a bad row at its place and writes nothing: not the asset, not the good rows', async () => {
    const c = s.admin
    const r = await c.post(HOSTS, {
      name: 'half-written', address: '10.9.0.3', platform: 1,
      accounts: [
        { username: 'good', secret: 'x' },
        { username: 'keyed', secret_type: 'ssh_key', secret: 'not a key' },
        { username: 'good', secret: 'y' },
        { name: 'no-user' },
        { template: '00000000-0000-4000-8000-000000000000' },
      ],
    })
    expect(r.statusCode).toBe(400)
    const rows = r.json().accounts as Array<Record<string, string[]>>
    expect(rows).toHaveLength(5)
    expect(rows[0]).toEqual({})
    expect(rows[1]).toEqual({ secret: ['This is not a private key (PEM or OpenSSH), or the passphrase does not open it.'] })
    expect(rows[2]).toEqual({ username: ['An account with this username already exists on the asset.'] })
    expect(rows[3]).toEqual({ username: ['This field is required.'] })
    expect(rows[4]!.template).toEqual(['Invalid pk "00000000-0000-4000-8000-000000000000" - object does not exist.'])
    expect(await count('assets', 'half-written')).toBe(0)
    expect((await sql<{ n: number }>`select count(*)::int as n from accounts where username = 'good'`.execute(s.t.database.db)).rows[0]!.n).toBe(0)
    // a parse error of a row (too long) is answered the same way
    const long = await c.post(HOSTS, { name: 'half-written', address: '10.9.0.3', platform: 1, accounts: [{ username: 'u'.repeat(129) }] })
    expect(long.statusCode).toBe(400)
    expect(long.json().accounts[0].username[0]).toMatch(/no more than 128/)
    expect(await count('assets', 'half-written')).toBe(0)
  })

  it('queues the push of the rows marked "push now" once the asset is committed, and only those', async () => {
    const r = await s.admin.post(HOSTS, { name: 'push-now', address: '10.9.0.6', platform: 1, accounts: [{ username: 'pushed', secret: 'p', push_now: true }, { username: 'kept', secret: 'k' }] })
    expect(r.statusCode).toBe(201)
    const made = (await s.admin.get(`${ACCOUNTS}?asset=${r.json().id}`)).json() as Array<{ id: string; username: string }>
    const pushed = made.find((a) => a.username === 'pushed')!.id
    const tasks = (await sql<{ kwargs: { action?: string; accounts?: string[] } }>`select kwargs from task_executions where task_name = 'accounts.tasks.verify_or_push_accounts'`.execute(s.t.database.db)).rows
    const mine = tasks.filter((t) => t.kwargs.accounts?.some((id) => made.some((a) => a.id === id)))
    expect(mine).toEqual([{ kwargs: { action: 'push', accounts: [pushed] } }])
  })

  it('takes accounts only from those who may add accounts, and template rows only from those who may see templates', async () => {
    const role = (perms: string[]) => s.admin.post('/api/v1/rbac/org-roles/', { name: `r-${perms.join('-')}`, permissions: perms.map((p) => PERMISSION_BY_CODENAME.get(p)!.id) }).then((r) => r.json().id as string)
    const assetsOnly = await role(['assets.add_asset', 'assets.view_asset', 'assets.view_platform', 'assets.view_node'])
    const noTemplates = await role(['assets.add_asset', 'assets.view_asset', 'assets.view_platform', 'assets.view_node', 'accounts.add_account', 'accounts.view_account'])
    await s.t.createUser({ username: 'assets-only', systemRoles: [ROLE_IDS.User], orgRoles: [assetsOnly] })
    await s.t.createUser({ username: 'no-templates', systemRoles: [ROLE_IDS.User], orgRoles: [noTemplates] })
    const a = await s.t.as('assets-only')
    expect((await a.options(HOSTS)).json().actions.POST.accounts).toBeUndefined()
    const made = await a.post(HOSTS, { name: 'no-account-perm', address: '10.9.0.7', platform: 1, accounts: [{ username: 'sneaky', secret: 'x' }] })
    expect(made.statusCode).toBe(201)
    expect((await s.admin.get(`${ACCOUNTS}?asset=${made.json().id}`)).json()).toEqual([])
    const tpl = (await s.admin.post(TEMPLATES, { name: 'hidden-tpl', username: 'hidden', secret: 'T' })).json()
    const b = await s.t.as('no-templates')
    expect((await b.options(HOSTS)).json().actions.POST.accounts).toBeDefined()
    const refused = await b.post(HOSTS, { name: 'no-template-perm', address: '10.9.0.8', platform: 1, accounts: [{ username: 'ok', secret: 'x' }, { template: tpl.id }] })
    expect(refused.statusCode).toBe(400)
    // (a new user reads the server in its default language, Chinese)
    expect(refused.json()).toEqual({ accounts: [{}, { template: ['您没有执行该操作的权限。'] }] })
    expect(await count('assets', 'no-template-perm')).toBe(0)
  })

  it('puts the accounts of an asset created in the root organization where the asset goes', async () => {
    const root = { 'x-jms-org': '00000000-0000-0000-0000-000000000000' }
    const org = (await s.admin.get('/api/v1/orgs/orgs/current/')).json().id as string
    const r = await s.admin.request({ method: 'POST', url: HOSTS, headers: root, json: { name: 'from-root', address: '10.9.0.9', platform: 1, org_id: org, accounts: [{ username: 'rooted', secret: 'r' }] } })
    expect(r.statusCode).toBe(201)
    const row = (await sql<{ org_id: string }>`select org_id from accounts where username = 'rooted'`.execute(s.t.database.db)).rows
    expect(row).toEqual([{ org_id: org }])
  })

  it('keeps names unique on the new asset and works for every kind', async () => {
    const r = await s.admin.post(HOSTS, { name: 'same-names', address: '10.9.0.4', platform: 1, accounts: [{ name: 'admin', username: 'a1' }, { name: 'admin', username: 'a2' }] })
    expect(r.statusCode).toBe(201)
    const names = ((await s.admin.get(`${ACCOUNTS}?asset=${r.json().id}`)).json() as Array<{ name: string }>).map((a) => a.name).sort()
    expect(names).toEqual(['a2-1', 'admin'])
    const mysql = (await s.admin.get('/api/v1/assets/platforms/?name=MySQL')).json()[0]
    const d = await s.admin.post(DATABASES, { name: 'db-with-account', address: '10.9.0.5', platform: mysql.id, accounts: [{ username: 'dba', secret: 'p' }] })
    expect(d.statusCode).toBe(201)
    expect((await s.admin.get(`${ACCOUNTS}?asset=${d.json().id}`)).json()).toHaveLength(1)
  })
})
