/**
 * The job center against a real sshd (issue 33): a quick job on three granted assets (one unreachable → dark), a
 * command refused by a command filter ACL, assets outside the creator's grants never touched, a stopped run, the
 * first-word blacklist, the live log's end frame, and Audit → Job logs.
 */
import { chmodSync, existsSync, mkdtempSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { taskRunner } from '../tasks/service.ts'
import { TASK_LOG_SOCKET_PATH } from '../tasks/socket.ts'
import { freePort, startSshd, type Sshd, type SshdUser } from '../testing/sshd.ts'
import { createTestServer, type TestClient, type TestServer } from '../testing.ts'
import { followTaskLog } from '../testing/task-log.ts'

/** Follows a task's live log until its end frame. */
const follow = async (url: string, c: TestClient, task: string, onText?: (sofar: string) => void) => (await followTaskLog(url, c, task, onText)).frames

describe('job center', () => {
  let t: TestServer
  let admin: TestClient
  let op: TestClient
  let sshd: Sshd
  let hostA: SshdUser
  let hostB: SshdUser
  let wsUrl: string
  let dir: string
  const ids: Record<string, string> = {}

  const asset = async (name: string, port: number, user: SshdUser, privileged = false) => {
    const r = await admin.post('/api/v1/assets/hosts/', { name, address: sshd.host, platform: 1, protocols: [{ name: 'ssh', port }] })
    expect(r.statusCode, r.body).toBe(201)
    const id = r.json().id as string
    const acc = await admin.post('/api/v1/accounts/accounts/', { asset: id, name: `${name}-acc`, username: user.username, secret_type: 'password', secret: user.password, privileged })
    expect(acc.statusCode, acc.body).toBe(201)
    ids[name] = id
    return id
  }
  const quick = (body: Record<string, unknown>) => op.post('/api/v1/ops/jobs/', { instant: true, is_periodic: false, module: 'shell', runas: 'root', runas_policy: 'privileged_first', ...body })

  beforeAll(async () => {
    sshd = await startSshd()
    hostA = await sshd.addUser()
    hostB = await sshd.addUser()
    t = await createTestServer()
    wsUrl = `ws://${await t.listen()}${TASK_LOG_SOCKET_PATH}`
    admin = await t.as('admin')
    admin.headers['accept-language'] = 'en'
    const opId = await t.createUser({ username: 'operator' })
    op = await t.as('operator')
    op.headers['accept-language'] = 'en'
    const closed = await freePort()
    await asset('web-1', sshd.port, hostA, true)
    await asset('web-2', sshd.port, hostA, true)
    await asset('gone', closed, hostA, true)
    await asset('secret-db', sshd.port, hostB, true)
    const perm = await admin.post('/api/v1/perms/asset-permissions/', { name: 'op-perm', users: [opId], assets: [ids['web-1'], ids['web-2'], ids.gone], accounts: ['@ALL'] })
    expect(perm.statusCode, perm.body).toBe(201)
    // A folder both host users may write to: markers show which host user ran a command.
    dir = mkdtempSync(join(tmpdir(), 'jobs-marker-'))
    chmodSync(dir, 0o777)
  }, 180_000)
  afterAll(async () => {
    await t?.close()
    await sshd?.stop()
  })

  it('runs a quick job on three assets: two ok, the unreachable one dark, output per asset, live log to its end', async () => {
    const r = await quick({ assets: [ids['web-1'], ids['web-2'], ids.gone], args: 'echo "hello from $(whoami)"' })
    expect(r.statusCode, r.body).toBe(201)
    const { task_id: taskId, name } = r.json() as { task_id: string; name: string }
    expect(name).toMatch(/^job-[0-9a-f]{12}$/)
    const frames = await follow(wsUrl, op, taskId)
    expect(frames.at(-1)).toMatchObject({ event: 'end', task: taskId, message: '' })
    const log = frames.map((f) => f.message).join('')
    expect(log).toContain(`web-1 | CHANGED | rc=0 >>\r\nhello from ${hostA.username}`)
    expect(log).toContain('gone | UNREACHABLE!')

    const detail = await op.get(`/api/v1/ops/job-execution/task-detail/${taskId}/`)
    expect(detail.statusCode, detail.body).toBe(200)
    const d = detail.json() as { status: string; is_finished: boolean; is_success: boolean; result: any; summary: any }
    expect(d).toMatchObject({ status: 'failed', is_finished: true, is_success: false })
    expect([...d.summary.ok].sort()).toEqual(['web-1', 'web-2'])
    expect(Object.keys(d.summary.dark)).toEqual(['gone'])
    expect(d.summary).toMatchObject({ failures: {}, skipped: [], excludes: {} })

    const execs = (await op.get('/api/v1/ops/job-executions/')).json() as Array<{ id: string; task_id: string; material: string }>
    const ex = execs.find((e) => e.task_id === taskId)!
    expect(ex.material).toBe('shell:echo "hello from $(whoami)"')
    const perAsset = (await op.get(`/api/v1/ops/job-execution/asset-detail/?execution_id=${ex.id}`)).json() as Array<{ name: string; status: string; tasks: Array<{ output: string }> }>
    expect(perAsset.map((a) => [a.name, a.status]).sort()).toEqual([['gone', 'dark'], ['web-1', 'ok'], ['web-2', 'ok']])
    expect(perAsset.find((a) => a.name === 'web-2')!.tasks[0]!.output).toBe(`hello from ${hostA.username}\n`)

    const tail = (await op.get(`/api/v1/ops/ansible/job-execution/${ex.id}/log/?mark=`)).json() as { data: string; end: boolean }
    expect(tail.data).toContain('web-2 | CHANGED')
    // The job logs (auditors) list it; the operator cannot read them, nor can another user read the execution.
    const logs = (await admin.get('/api/v1/audits/job-logs/?limit=10')).json() as { count: number; results: Array<{ task_id: string; created_by: string; is_finished: boolean }> }
    expect(logs.results.find((l) => l.task_id === taskId)).toMatchObject({ created_by: 'operator(operator)', is_finished: true })
    expect((await op.get('/api/v1/audits/job-logs/')).statusCode).toBe(403)
    expect((await admin.get(`/api/v1/ops/job-execution/task-detail/${taskId}/`)).statusCode).toBe(404)
    // Instant jobs are hidden from the job list.
    expect((await op.get('/api/v1/ops/jobs/')).json()).toEqual([])
  })

  it('chooses the account by runas and runas_policy, as JumpServer: skip, privileged first, privileged only', async () => {
    // one asset, two accounts: hostA privileged, hostB not; and an asset with only hostB
    const both = await asset('two-accounts', sshd.port, hostA, true)
    const acc = await admin.post('/api/v1/accounts/accounts/', { asset: both, name: 'two-accounts-b', username: hostB.username, secret_type: 'password', secret: hostB.password, privileged: false })
    expect(acc.statusCode, acc.body).toBe(201)
    const plain = await asset('plain-only', sshd.port, hostB, false)
    const perm = await admin.post('/api/v1/perms/asset-permissions/', { name: 'op-runas', users: [(await op.get('/api/v1/users/profile/')).json().id], assets: [both, plain], accounts: ['@ALL'] })
    expect(perm.statusCode, perm.body).toBe(201)
    const run = async (runas: string, policy: string) => {
      const r = await quick({ assets: [both, plain], args: 'whoami', runas, runas_policy: policy })
      expect(r.statusCode, r.body).toBe(201)
      const taskId = r.json().task_id as string
      const log = (await follow(wsUrl, op, taskId)).map((f) => f.message).join('')
      const d = (await op.get(`/api/v1/ops/job-execution/task-detail/${taskId}/`)).json() as { summary: { ok: string[]; skipped: string[] } }
      const ran = (name: string) => (new RegExp(`${name} \\| CHANGED \\| rc=0 >>\\r\\n(\\S+)`).exec(log)?.[1])
      return { twoAccounts: ran('two-accounts'), plainOnly: ran('plain-only'), skipped: [...d.summary.skipped].sort() }
    }
    // skip: the account named runas, privileged or not; none named so: skipped
    expect(await run(hostB.username, 'skip')).toEqual({ twoAccounts: hostB.username, plainOnly: hostB.username, skipped: [] })
    expect(await run('nobody-here', 'skip')).toEqual({ twoAccounts: undefined, plainOnly: undefined, skipped: ['plain-only', 'two-accounts'] })
    // privileged first: a privileged account named runas, else the first privileged, else the one named runas
    expect(await run(hostB.username, 'privileged_first')).toEqual({ twoAccounts: hostA.username, plainOnly: hostB.username, skipped: [] })
    // privileged only: never a plain account
    expect(await run(hostB.username, 'privileged_only')).toEqual({ twoAccounts: hostA.username, plainOnly: undefined, skipped: ['plain-only'] })
    await admin.delete(`/api/v1/perms/asset-permissions/${perm.json().id}/`)
  })

  it('never touches an asset outside the creator\'s grants', async () => {
    const marker = join(dir, 'ungranted')
    const named = await quick({ assets: [ids['web-1'], ids['secret-db']], args: `touch ${marker}-$(whoami)` })
    expect(named.statusCode).toBe(400)
    expect(named.json()).toEqual({ assets: ['These assets are not granted to you: secret-db'] })
    // Through a node holding both: only the granted ones run.
    const node = ((await admin.get(`/api/v1/assets/assets/${ids['secret-db']}/`)).json() as { nodes: Array<{ id: string }> }).nodes[0]!.id
    const r = await quick({ nodes: [node], args: `touch ${marker}-$(whoami)` })
    expect(r.statusCode, r.body).toBe(201)
    await follow(wsUrl, op, r.json().task_id as string)
    const d = (await op.get(`/api/v1/ops/job-execution/task-detail/${r.json().task_id}/`)).json() as { summary: { ok: string[]; dark: object } }
    expect([...d.summary.ok].sort()).toEqual(['web-1', 'web-2'])
    expect(existsSync(`${marker}-${hostA.username}`)).toBe(true)
    expect(existsSync(`${marker}-${hostB.username}`)).toBe(false)
  })

  it('refuses a command a command filter ACL rejects, naming the rule, before any host runs it', async () => {
    const group = await admin.post('/api/v1/acls/command-groups/', { name: 'no-touch', content: 'touch' })
    expect(group.statusCode, group.body).toBe(201)
    const acl = await admin.post('/api/v1/acls/command-filter-acls/', {
      name: 'block touch', users: { username_group: ['operator'] }, assets: {}, accounts: {}, command_groups: [group.json().id], action: 'reject', priority: 1,
    })
    expect(acl.statusCode, acl.body).toBe(201)
    try {
      const marker = join(dir, 'acl')
      const r = await quick({ assets: [ids['web-1']], args: `touch ${marker}` })
      expect(r.statusCode, r.body).toBe(201)
      const log = (await follow(wsUrl, op, r.json().task_id as string)).map((f) => f.message).join('')
      expect(log).toContain('Command rejected by ACL: block touch (reject)')
      const d = (await op.get(`/api/v1/ops/job-execution/task-detail/${r.json().task_id}/`)).json() as { status: string; summary: { error: string; ok: string[] } }
      expect(d.status).toBe('failed')
      expect(d.summary.error).toBe('Command rejected by ACL: block touch (reject)')
      expect(d.summary.ok).toEqual([])
      expect(existsSync(marker)).toBe(false)
    } finally {
      await admin.delete(`/api/v1/acls/command-filter-acls/${acl.json().id}/`)
    }
  })

  it('stops a running job', async () => {
    const marker = join(dir, 'after-stop')
    const r = await quick({ assets: [ids['web-1']], args: `sleep 60; touch ${marker}` })
    expect(r.statusCode, r.body).toBe(201)
    const taskId = r.json().task_id as string
    let stopped: Promise<unknown> | undefined
    const frames = await follow(wsUrl, op, taskId, (sofar) => {
      if (!stopped && sofar.includes('>>> Job')) stopped = op.post(`/api/v1/ops/job-executions/${taskId}/stop/`, {})
    })
    expect(((await stopped) as { statusCode: number }).statusCode).toBe(200)
    expect(frames.map((f) => f.message).join('')).toContain('The job was stopped')
    const d = (await op.get(`/api/v1/ops/job-execution/task-detail/${taskId}/`)).json() as { status: string; is_finished: boolean }
    expect(d).toMatchObject({ status: 'canceled', is_finished: true })
    expect(existsSync(marker)).toBe(false)
    // A finished run cannot be stopped again.
    expect((await op.post(`/api/v1/ops/job-executions/${taskId}/stop/`, {})).statusCode).toBe(400)
  })

  it('refuses blacklisted first words and bad input with field errors', async () => {
    for (const cmd of ['reboot', 'echo hi; shutdown -h now', '/sbin/poweroff', 'halt', 'dd if=/dev/zero of=/x', 'top -b']) {
      const r = await quick({ assets: [ids['web-1']], args: cmd })
      expect(r.statusCode, cmd).toBe(400)
      expect(Object.keys(r.json())).toEqual(['args'])
    }
    expect((await quick({ assets: [ids['web-1']], args: 'echo reboot' })).statusCode).toBe(201)
    const bad = await quick({ assets: ['nope'], args: '', runas_policy: 'any', timeout: 'x' })
    expect(bad.statusCode).toBe(400)
    expect(Object.keys(bad.json()).sort()).toEqual(['args', 'assets', 'runas_policy', 'timeout'])
    expect((await quick({ assets: [], args: 'id' })).json()).toEqual({ assets: ['Select at least one asset or node.'] })
    // Nothing is left over in the marker folder from refused runs.
    expect(readdirSync(dir).filter((f) => f.startsWith('acl') || f.startsWith('after-stop'))).toEqual([])
  })

  it('runs a saved job on its schedule; its execution is listed for the creator and in Job logs; deleting it ends the schedule', async () => {
    const bad = await op.post('/api/v1/ops/jobs/', { name: 'nightly', assets: [ids['web-2']], args: 'id', is_periodic: true, crontab: 'not cron', runas_policy: 'privileged_first' })
    expect(bad.statusCode).toBe(400)
    expect(Object.keys(bad.json())).toEqual(['crontab'])
    const saved = await op.post('/api/v1/ops/jobs/', { name: 'nightly', assets: [ids['web-2']], args: 'echo scheduled-$((20+1))', is_periodic: true, interval: 1, runas_policy: 'privileged_first' })
    expect(saved.statusCode, saved.body).toBe(201)
    const job = saved.json() as { id: string; task_id?: string; is_periodic: boolean; interval: number }
    expect(job).toMatchObject({ is_periodic: true, interval: 1 })
    expect(job.task_id).toBeUndefined()
    expect(((await op.get('/api/v1/ops/jobs/')).json() as Array<{ name: string }>).map((j) => j.name)).toEqual(['nightly'])
    const schedule = `ops.tasks.run_ops_job:${job.id}`
    // Make it due now and let the runner fire it, as the schedule would in an hour.
    await t.database.db.updateTable('celery_tasks').set({ next_run_at: new Date(Date.now() - 1000) }).where('name', '=', schedule).execute()
    const fired = await taskRunner(t.app)!.fireDue()
    expect(fired).toHaveLength(1)
    // Fired by the system: the administrator follows it from the start (the creator may once it has begun).
    const log = (await follow(wsUrl, admin, fired[0]!)).map((f) => f.message).join('')
    expect(log).toContain('web-2 | CHANGED | rc=0 >>\r\nscheduled-21')
    const execs = (await op.get(`/api/v1/ops/job-executions/?job_id=${job.id}`)).json() as Array<{ task_id: string; status: string; job: { name: string } }>
    expect(execs).toEqual([expect.objectContaining({ task_id: fired[0], status: 'success', job: expect.objectContaining({ name: 'nightly' }) })])
    expect((await op.get(`/api/v1/ops/ansible/job-execution/${fired[0]}/log/`)).json()).toMatchObject({ end: true })
    const logs = (await admin.get('/api/v1/audits/job-logs/?material=scheduled&limit=5')).json() as { results: Array<{ task_id: string; is_success: boolean }> }
    expect(logs.results).toEqual([expect.objectContaining({ task_id: fired[0], is_success: true })])
    // Another user never sees the job; its creator deletes it and the schedule goes with it.
    expect((await admin.get(`/api/v1/ops/jobs/${job.id}/`)).statusCode).toBe(404)
    expect((await op.delete(`/api/v1/ops/jobs/${job.id}/`)).statusCode).toBe(204)
    expect(await t.database.db.selectFrom('celery_tasks').select('id').where('name', '=', schedule).executeTakeFirst()).toBeUndefined()
  })
})
