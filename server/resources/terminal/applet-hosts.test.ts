/**
 * Applet hosts, their deployments and publications over HTTP, deployed for real over SSH to a throw-away OpenSSH
 * server on loopback (server/testing/sshd.ts): the host is created with its privileged account, a deployment
 * runs as a background task whose log records every step, the applet's files land in the SSH user's home and the
 * publication says success; a host whose account is refused ends failed. Bad input is 400 with nothing written.
 */
import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { withSsh } from '../../automation/ssh.ts'
import { ORG_IDS } from '../../rbac/catalog.ts'
import { startSshd, type Sshd, type SshdUser } from '../../testing/sshd.ts'
import { dbKind } from '../../testing.ts'
import { useTestServer } from '../../use-test-server.ts'

const HOSTS = '/api/v1/terminal/applet-hosts/'
const DEPLOYMENTS = '/api/v1/terminal/applet-host-deployments/'
const PUBLICATIONS = '/api/v1/terminal/applet-publications/'
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex')

describe(`applet hosts, deployments and publications against a real sshd (${dbKind()})`, () => {
  const s = useTestServer()
  let sshd: Sshd
  let user: SshdUser
  const appletId = randomUUID()

  beforeAll(async () => {
    sshd = await startSshd()
    user = await sshd.addUser()
    const manifest = { name: 'notepad', display_name: 'Notepad', version: '0.2', author: 'Test', type: 'general', protocols: ['rdp'], tags: [], comment: '' }
    await sql`insert into applets (id, name, display_name, version, author, manifest, icon) values
      (${appletId}, 'notepad', 'Notepad', '0.2', 'Test', ${JSON.stringify(manifest)}, ${PNG})`.execute(s.t.database.db)
  }, 60_000)
  afterAll(async () => { await sshd?.stop() })

  const db = () => s.t.database.db
  const count = async (table: string) => (await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(db())).rows[0]!.n
  const finished = async (task: string) => {
    const until = Date.now() + 90_000 // a cap for a loaded CI machine, not a speed assertion
    for (;;) {
      const state = (await sql<{ state: string }>`select state from task_executions where id = ${task}`.execute(db())).rows[0]?.state
      if (state === 'SUCCESS' || state === 'FAILURE') break
      if (Date.now() > until) throw new Error(`task still ${String(state)}; sshd log:\n${sshd.log().slice(-2000)}`)
      await new Promise((r) => setTimeout(r, 200))
    }
    const log = (await s.admin.get(`/api/v1/ops/celery/task/x/task-execution/${task}/log/`)).json().data as string
    const state = (await sql<{ state: string }>`select state from task_executions where id = ${task}`.execute(db())).rows[0]!.state
    return { state, log }
  }
  const createHost = async (name: string, password: string) => {
    const r = await s.admin.post(HOSTS, {
      name, address: '127.0.0.1', protocols: [{ name: 'rdp', port: 3389 }, { name: 'ssh', port: sshd.port }],
      deploy_options: { CORE_HOST: 'http://127.0.0.1:9', RDS_Licensing: true },
      accounts: [{ username: user.username, secret: password, privileged: true }],
    })
    expect(r.statusCode, r.body).toBe(201)
    return r.json() as Record<string, any>
  }

  let hostId = ''

  it('creates, reads, edits and refuses applet hosts (RemoteAppHost platform, SYSTEM organization, sealed accounts)', async () => {
    const options = (await s.admin.options(HOSTS)).json()
    const post = options.actions.POST
    expect(Object.keys(post.deploy_options.children)).toContain('RDS_LicensingMode')
    expect(post.accounts.write_only).toBe(true)
    expect(post.nodes).toBeUndefined()

    const host = await createHost('ah-one', user.password)
    hostId = host.id
    expect(host.platform.name).toBe('RemoteAppHost')
    expect(host.deploy_options).toMatchObject({ CORE_HOST: 'http://127.0.0.1:9', RDS_Licensing: true, RDS_LicensingMode: 2, IGNORE_VERIFY_CERTS: true })
    expect(host).toMatchObject({ auto_create_accounts: true, accounts_create_amount: 100, inited: false, load: { value: 'offline' } })
    expect(host.accounts).toBeUndefined()
    const row = (await sql<{ org_id: string }>`select org_id from assets where id = ${hostId}`.execute(db())).rows[0]!
    expect(row.org_id).toBe(ORG_IDS.SYSTEM)
    const account = (await sql<{ secret: string; privileged: boolean }>`select secret, privileged from accounts where asset_id = ${hostId}`.execute(db())).rows[0]!
    expect(account.privileged).toBe(true)
    expect(account.secret).not.toContain(user.password)

    // listed (whatever the organization of the request), searched, not among the organization's hosts
    expect((await s.admin.get(`${HOSTS}?search=ah-one`)).json().map((h: { id: string }) => h.id)).toEqual([hostId])
    expect((await s.admin.get(`/api/v1/assets/hosts/?search=ah-one`)).json()).toEqual([])
    const patched = await s.admin.patch(`${HOSTS}${hostId}/`, { deploy_options: { CORE_HOST: 'http://127.0.0.1:9', RDS_MaxDisconnectionTime: 1000 }, accounts_create_amount: 5 })
    expect(patched.statusCode, patched.body).toBe(200)
    expect(patched.json()).toMatchObject({ accounts_create_amount: 5, deploy_options: { RDS_MaxDisconnectionTime: 1000 } })

    // bad input: field errors, nothing written
    const before = await count('assets')
    const bad = await s.admin.post(HOSTS, { name: 'ah-bad', address: 'not an address!', accounts_create_amount: 5000, deploy_options: { RDS_LicensingMode: 3 }, accounts: [{ username: 'x' }] })
    expect(bad.statusCode).toBe(400)
    expect(Object.keys(bad.json()).sort()).toEqual(expect.arrayContaining(['accounts_create_amount', 'deploy_options']))
    expect(await count('assets')).toBe(before)
    const noSecret = await s.admin.post(HOSTS, { name: 'ah-bad', address: '127.0.0.1', accounts: [{ username: 'x' }] })
    expect(noSecret.statusCode).toBe(400)
    expect(noSecret.json().accounts).toBeTruthy()
    expect(await count('assets')).toBe(before)

    // permissions: a plain user sees nothing and cannot create
    await s.t.createUser({ username: 'ah-user' })
    const plain = await s.t.as('ah-user')
    expect((await plain.get(HOSTS)).statusCode).toBe(403)
    expect((await plain.post(DEPLOYMENTS, { host: hostId })).statusCode).toBe(403)
    expect((await plain.get(PUBLICATIONS)).statusCode).toBe(403)
  })

  it('deploys over SSH as a task with a step log, publishes the applet, and lists the deployment and the publication', async () => {
    expect((await s.admin.post(DEPLOYMENTS, {})).json()).toHaveProperty('host')
    expect((await s.admin.post(DEPLOYMENTS, { host: randomUUID() })).statusCode).toBe(400)
    const r = await s.admin.post(DEPLOYMENTS, { host: hostId })
    expect(r.statusCode, r.body).toBe(201)
    const { state, log } = await finished(r.json().task)
    expect(state, log).toBe('SUCCESS')
    expect(log).toContain('TASK [Connect]\r\nok: logged in')
    expect(log).toContain('TASK [Write the host configuration]\r\nok')
    expect(log).toMatch(/TASK \[Install Tinker[^\]]*\]\r\nskipped: Windows Server only/)
    expect(log).toContain('TASK [Publish applet notepad 0.2]\r\nok')
    expect(log).not.toContain(user.password)

    // the files are on the host
    const files = await withSsh({ host: '127.0.0.1', port: sshd.port, username: user.username, password: user.password }, {},
      (ssh) => ssh.exec('cat ~/.jumpserver/applets/notepad/manifest.yml; wc -c < ~/.jumpserver/applets/notepad/icon.png; grep HOST_ID ~/.jumpserver/applet-host/config.yml'))
    expect(files.stdout).toContain('version: "0.2"')
    expect(files.stdout).toContain(String(PNG.length))
    expect(files.stdout).toContain(hostId)

    const deployments = (await s.admin.get(`${DEPLOYMENTS}?host=${hostId}`)).json()
    expect(deployments).toHaveLength(1)
    expect(deployments[0]).toMatchObject({ host: { id: hostId }, status: { value: 'success' }, task: r.json().task, initial: true })
    expect((await s.admin.get(`${HOSTS}${hostId}/`)).json().inited).toBe(true)

    const byHost = (await s.admin.get(`${PUBLICATIONS}?host=${hostId}`)).json()
    expect(byHost).toMatchObject([{ applet: { id: appletId, name: 'notepad', version: '0.2' }, host: { id: hostId }, status: { value: 'success' } }])
    expect((await s.admin.get(`${PUBLICATIONS}?applet=${appletId}`)).json()).toHaveLength(1)
    expect((await s.admin.get(`${PUBLICATIONS}?applet=${randomUUID()}`)).json()).toHaveLength(0)
  })

  it('publishes one applet to several hosts; a refused login fails the deployment and the publication', async () => {
    expect((await s.admin.post(`${DEPLOYMENTS}applets/`, { hosts: [] })).statusCode).toBe(400)
    expect((await s.admin.post(`${DEPLOYMENTS}applets/`, { hosts: [hostId], applet_id: randomUUID() })).json()).toHaveProperty('applet_id')
    const wrong = await createHost('ah-wrong', 'not-the-password')
    const r = await s.admin.post(`${DEPLOYMENTS}applets/`, { hosts: [hostId, wrong.id], applet_id: appletId })
    expect(r.statusCode, r.body).toBe(201)
    const { state, log } = await finished(r.json().task)
    expect(state).toBe('FAILURE')
    expect(log).toContain('TASK [Publish applet notepad 0.2]\r\nok')
    expect(log).toMatch(/TASK \[Connect\]\r\nfailed: auth/)
    const statuses = (await s.admin.get(`${DEPLOYMENTS}?host=${wrong.id}`)).json().map((d: { status: { value: string } }) => d.status.value)
    expect(statuses).toEqual(['failed'])
    const pub = (await s.admin.get(`${PUBLICATIONS}?host=${wrong.id}`)).json()
    expect(pub).toMatchObject([{ status: { value: 'failed' } }])

    // deleting a host takes its deployments and publications with it
    expect((await s.admin.delete(`${HOSTS}${wrong.id}/`)).statusCode).toBe(204)
    expect((await s.admin.get(`${PUBLICATIONS}?host=${wrong.id}`)).json()).toEqual([])
  })
})
