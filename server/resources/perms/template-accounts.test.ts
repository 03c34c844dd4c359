/**
 * `%<template id>` in a permission's accounts (contract §5.4): saving the permission creates the template's account
 * on every asset it reaches (directly and under its nodes, not twice), queues their push, and the push really runs
 * against a real OpenSSH server on a loopback port (server/testing/sshd.ts): afterwards the template's password
 * logs in there. The granted user then sees the account among the asset's permed accounts.
 */
import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { rm, writeFile } from 'node:fs/promises'
import { promisify } from 'node:util'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sshLogin } from '../../automation/ssh.ts'
import { startSshd, type Sshd, type SshdUser } from '../../testing/sshd.ts'
import { dbKind } from '../../testing.ts'
import { useTestServer } from '../../use-test-server.ts'
import { ACCOUNT_TASK } from '../accounts/run.ts'

const run = promisify(execFile)
const PERMS = '/api/v1/perms/asset-permissions/'

describe(`asset permission %<template> accounts, pushed to a real sshd (${dbKind()})`, () => {
  const s = useTestServer()
  let sshd: Sshd
  let priv: SshdUser
  const username = `tpl${randomBytes(3).toString('hex')}`
  const sudoers = `/etc/sudoers.d/test-${randomBytes(4).toString('hex')}`

  beforeAll(async () => {
    sshd = await startSshd()
    priv = await sshd.addUser()
    // the host lets its administrator use sudo without a password; the push goes through it
    await writeFile(sudoers, `${priv.username} ALL=(ALL) NOPASSWD: ALL\n`, { mode: 0o440 })
  }, 60_000)

  afterAll(async () => {
    await run('userdel', ['-r', '-f', username]).catch(() => undefined)
    await rm(sudoers, { force: true })
    await sshd?.stop()
  })

  const logsIn = (password: string) => sshLogin({ host: '127.0.0.1', port: sshd.port, username, password }, { timeoutMs: 15_000 }).then(() => true, () => false)

  it('creates the template\'s account on each granted asset once, queues the push, and the push makes it log in', async () => {
    const c = s.admin
    const root = ((await c.get('/api/v1/assets/nodes/?limit=1&order=key')).json() as { results: { id: string }[] }).results[0]!.id
    const node = (await c.post(`/api/v1/assets/nodes/${root}/children/`, { value: 'tpl-node' })).json().id as string
    const host = async (name: string, port: number, nodes: string[]) => {
      const r = await c.post('/api/v1/assets/hosts/', { name, address: '127.0.0.1', platform: 1, nodes, protocols: [{ name: 'ssh', port }] })
      expect(r.statusCode, r.body).toBe(201)
      const id = r.json().id as string
      expect((await c.post('/api/v1/accounts/accounts/', { username: priv.username, secret: priv.password, asset: id, privileged: true })).statusCode).toBe(201)
      return id
    }
    const real = await host('tpl-real', sshd.port, [node])
    const other = await host('tpl-other', sshd.port, [root])
    const tpl = (await c.post('/api/v1/accounts/account-templates/', { name: 'tpl', username, secret_type: 'password', secret: 'Tpl-Pass-123' })).json()
    expect(tpl.id).toBeTruthy()
    const u = await s.t.createUser({ username: 'tpl-user' })
    expect(await logsIn('Tpl-Pass-123')).toBe(false)

    // the node and, directly, the asset under it: one account, not two; the asset outside gets none
    const p = await c.post(PERMS, { name: 'tpl-p', users: [u], nodes: [node], assets: [real], accounts: [`%${tpl.id}`], actions: ['connect'] })
    expect(p.statusCode, p.body).toBe(201)
    const made = (await sql<{ asset_id: string; source: string; source_id: string }>`select asset_id, source, source_id from accounts where username = ${username}`.execute(s.t.database.db)).rows
    expect(made).toEqual([{ asset_id: real, source: 'template', source_id: tpl.id }])
    expect(made.some((a) => a.asset_id === other)).toBe(false)

    // the push was queued for exactly that account, and it runs to the end
    const task = (await sql<{ id: string; kwargs: { action: string; accounts: string[] } }>`select id, kwargs from task_executions where task_name = ${ACCOUNT_TASK} order by date_published desc limit 1`.execute(s.t.database.db)).rows[0]
    expect(task?.kwargs.action).toBe('push')
    const account = (await sql<{ id: string }>`select id from accounts where username = ${username}`.execute(s.t.database.db)).rows[0]!.id
    expect(task?.kwargs.accounts).toEqual([account])
    const until = Date.now() + 90_000 // a cap for a loaded CI machine, not a speed assertion
    let state = ''
    while (!['SUCCESS', 'FAILURE'].includes(state)) {
      if (Date.now() > until) throw new Error(`push still ${state}; sshd log:\n${sshd.log().slice(-2000)}`)
      await new Promise((r) => setTimeout(r, 200))
      state = (await sql<{ state: string }>`select state from task_executions where id = ${task!.id}`.execute(s.t.database.db)).rows[0]!.state
    }
    const log = (await c.get(`/api/v1/ops/celery/task/x/task-execution/${task!.id}/log/`)).json().data as string
    expect(log).toContain(`${username}: pushed`)
    expect(log).not.toContain('Tpl-Pass-123')
    expect(await logsIn('Tpl-Pass-123')).toBe(true)

    // saving again creates nothing new; the granted user sees the account with the permission's actions
    expect((await c.patch(`${PERMS}${p.json().id}/`, { comment: 'again' })).statusCode).toBe(200)
    expect((await sql<{ n: number }>`select count(*)::int as n from accounts where username = ${username}`.execute(s.t.database.db)).rows[0]!.n).toBe(1)
    const me = await s.t.as('tpl-user')
    const detail = (await me.get(`/api/v1/perms/users/self/assets/${real}/`)).json()
    expect(detail.permed_accounts.map((a: { username: string }) => a.username)).toEqual([username])
  })
})
