/**
 * Playbooks, templates and saved jobs against a real sshd and Debian's real `ansible-playbook` (issue 33): a
 * playbook that writes a file on the host (checked on disk), a forbidden playbook refused before anything runs,
 * an asset that lost its grant never touched, a stopped playbook, zip uploads (zip-slip, bombs, too many entries,
 * plugin folders refused; nothing written), the file browser, a review ACL opening a command-confirm ticket, saved
 * jobs' versions, stale executions, and lina 3.2.2's job center calls answering with their shapes.
 */
import { execFileSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { ORG_IDS } from '../rbac/catalog.ts'
import { multipart } from '../resources/terminal/test-support.ts'
import { taskRunner } from '../tasks/service.ts'
import { TASK_LOG_SOCKET_PATH } from '../tasks/socket.ts'
import { startSshd, type Sshd, type SshdUser } from '../testing/sshd.ts'
import { createTestServer, type TestClient, type TestServer } from '../testing.ts'
import { followTaskLog } from '../testing/task-log.ts'
import { playbookDir } from './playbooks.ts'
import { ORPHAN_RUN_AGE_MS, removeEndedRuns, runsDir } from './ansible.ts'

const follow = async (url: string, c: TestClient, task: string, onText?: (sofar: string) => void) => (await followTaskLog(url, c, task, onText)).text

/** A zip made by Python's zipfile (names written as given, `../` included). */
function zip(files: Record<string, string>, compress = true): Buffer {
  const script = `import sys, json, zipfile, io, base64
files = json.loads(sys.stdin.read()); b = io.BytesIO()
with zipfile.ZipFile(b, 'w', zipfile.ZIP_DEFLATED if sys.argv[1] == '1' else zipfile.ZIP_STORED) as z:
    for n, c in files.items(): z.writestr(n, c)
sys.stdout.write(base64.b64encode(b.getvalue()).decode())`
  return Buffer.from(execFileSync('python3', ['-c', script, compress ? '1' : '0'], { input: JSON.stringify(files), maxBuffer: 64 * 1024 * 1024 }).toString(), 'base64')
}

describe('playbooks and saved jobs', () => {
  let t: TestServer
  let admin: TestClient
  let op: TestClient
  let sshd: Sshd
  let host: SshdUser
  let wsUrl: string
  let dir: string
  let opId: string
  let permId: string
  const ids: Record<string, string> = {}

  const asset = async (name: string, user: SshdUser) => {
    const r = await admin.post('/api/v1/assets/hosts/', { name, address: sshd.host, platform: 1, protocols: [{ name: 'ssh', port: sshd.port }] })
    expect(r.statusCode, r.body).toBe(201)
    const id = r.json().id as string
    const acc = await admin.post('/api/v1/accounts/accounts/', { asset: id, name: `${name}-acc`, username: user.username, secret_type: 'password', secret: user.password, privileged: true })
    expect(acc.statusCode, acc.body).toBe(201)
    ids[name] = id
  }
  const upload = (c: TestClient, data: Buffer, name = 'site.zip') => {
    const m = multipart('path', name, data)
    return c.request({ method: 'POST', url: '/api/v1/ops/playbooks/', payload: m.payload, headers: { 'content-type': m.contentType, 'accept-language': 'en' } })
  }
  const playbook = async (name: string, main: string) => {
    const r = await op.post('/api/v1/ops/playbooks/', { name })
    expect(r.statusCode, r.body).toBe(201)
    const id = r.json().id as string
    const w = await op.patch(`/api/v1/ops/playbook/${id}/file/`, { key: 'main.yml', content: main })
    expect(w.statusCode, w.body).toBe(200)
    return id
  }
  const runJob = async (body: Record<string, unknown>) => {
    const r = await op.post('/api/v1/ops/jobs/', { type: 'playbook', runas: 'root', runas_policy: 'privileged_first', instant: true, ...body })
    expect(r.statusCode, r.body).toBe(201)
    return r.json().task_id as string
  }
  const detail = async (taskId: string) => (await op.get(`/api/v1/ops/job-execution/task-detail/${taskId}/`)).json() as { status: string; summary: { ok: string[]; dark: Record<string, string>; failures: Record<string, string>; excludes: Record<string, string>; error: string } }

  beforeAll(async () => {
    sshd = await startSshd()
    host = await sshd.addUser()
    t = await createTestServer()
    wsUrl = `ws://${await t.listen()}${TASK_LOG_SOCKET_PATH}`
    admin = await t.as('admin')
    admin.headers['accept-language'] = 'en'
    opId = await t.createUser({ username: 'operator' })
    op = await t.as('operator')
    op.headers['accept-language'] = 'en'
    await asset('pb-1', host)
    await asset('pb-2', host)
    const perm = await admin.post('/api/v1/perms/asset-permissions/', { name: 'op-perm', users: [opId], assets: [ids['pb-1'], ids['pb-2']], accounts: ['@ALL'] })
    expect(perm.statusCode, perm.body).toBe(201)
    permId = perm.json().id as string
    dir = mkdtempSync(join(tmpdir(), 'pb-marker-'))
    chmodSync(dir, 0o777)
  }, 180_000)
  afterAll(async () => {
    await t?.close()
    await sshd?.stop()
  })

  it('runs a playbook edited in place with ansible-playbook: it writes a file on each host, output streams live, results per asset', async () => {
    const id = await playbook('write-file', `- hosts: all\n  gather_facts: no\n  tasks:\n    - name: write the marker\n      shell: echo "hello {{ jms_asset.name }} as $(whoami)" > ${dir}/written-{{ inventory_hostname }}\n`)
    const taskId = await runJob({ playbook: id, assets: [ids['pb-1'], ids['pb-2']] })
    const log = await follow(wsUrl, op, taskId)
    // (the whole log in the message: one loaded full run had no TASK line, and only its start was shown)
    expect(log, log).toContain('TASK [write the marker]')
    expect(log).toMatch(/changed: \[pb-1\]/)
    expect(log).toContain('PLAY RECAP')
    expect(readFileSync(join(dir, 'written-pb-1'), 'utf8')).toBe(`hello pb-1 as ${host.username}\n`)
    expect(readFileSync(join(dir, 'written-pb-2'), 'utf8')).toBe(`hello pb-2 as ${host.username}\n`)
    const d = await detail(taskId)
    expect(d.status).toBe('success')
    expect([...d.summary.ok].sort()).toEqual(['pb-1', 'pb-2'])
    // The password went through the environment: no run folder is left, and no secret was in the log.
    expect(log).not.toContain(host.password)
    const execs = (await op.get('/api/v1/ops/job-executions/')).json() as Array<{ id: string; task_id: string; material: string; job_type: string }>
    const ex = execs.find((e) => e.task_id === taskId)!
    // (its own folder: other test servers may be running playbooks over the same data folder)
    expect(existsSync(join(runsDir(), ex.id))).toBe(false)
    expect(ex).toMatchObject({ material: 'write-file:main.yml', job_type: 'playbook' })
    const per = (await op.get(`/api/v1/ops/job-execution/asset-detail/?execution_id=${ex.id}`)).json() as Array<{ name: string; status: string; tasks: Array<{ output: string }> }>
    expect(per.map((p) => [p.name, p.status]).sort()).toEqual([['pb-1', 'ok'], ['pb-2', 'ok']])
    expect(per.find((p) => p.name === 'pb-1')!.tasks[0]!.output).toContain('changed: [pb-1]')
  }, 120_000)

  it('refuses a playbook with a forbidden keyword before anything runs', async () => {
    const id = await playbook('forbidden', `- hosts: all\n  gather_facts: no\n  tasks:\n    - shell: touch ${dir}/forbidden-ran\n    - shell: id\n      delegate_to : "localhost"\n`)
    const taskId = await runJob({ playbook: id, assets: [ids['pb-1']] })
    const log = await follow(wsUrl, op, taskId)
    expect(log).toContain('The playbook uses forbidden keywords: main.yml:6: delegate_to:localhost')
    const d = await detail(taskId)
    expect(d.status).toBe('failed')
    expect(d.summary.error).toContain('delegate_to:localhost')
    expect(existsSync(join(dir, 'forbidden-ran'))).toBe(false)
    // local_action and connection: local too.
    for (const [n, line] of [['la', '    - local_action: command id'], ['cl', '  connection: local']]) {
      const pid = await playbook(`forbidden-${n}`, `- hosts: all\n${line}\n  tasks: []\n`)
      const tid = await runJob({ playbook: pid, assets: [ids['pb-1']] })
      await follow(wsUrl, op, tid)
      expect((await detail(tid)).summary.error).toMatch(/local_action|connection:local/)
    }
  }, 180_000)

  it('never touches an asset that lost its grant between saving and running', async () => {
    const id = await playbook('grant-check', `- hosts: all\n  gather_facts: no\n  tasks:\n    - shell: touch ${dir}/grant-{{ inventory_hostname }}\n`)
    const saved = await op.post('/api/v1/ops/jobs/', { name: 'grant check', type: 'playbook', playbook: id, assets: [ids['pb-1'], ids['pb-2']], runas: 'root', runas_policy: 'privileged_first' })
    expect(saved.statusCode, saved.body).toBe(201)
    // pb-2 leaves the operator's permission.
    expect((await admin.patch(`/api/v1/perms/asset-permissions/${permId}/`, { assets: [ids['pb-1']] })).statusCode).toBe(200)
    try {
      const run = await op.post('/api/v1/ops/job-executions/', { job: saved.json().id })
      expect(run.statusCode, run.body).toBe(201)
      await follow(wsUrl, op, run.json().task_id as string)
      const d = await detail(run.json().task_id as string)
      expect(d.summary.ok).toEqual(['pb-1'])
      expect(Object.keys(d.summary.excludes)).toEqual([ids['pb-2']])
      expect(existsSync(join(dir, 'grant-pb-1'))).toBe(true)
      expect(existsSync(join(dir, 'grant-pb-2'))).toBe(false)
      // Creating a job naming it now is refused.
      const refused = await op.post('/api/v1/ops/jobs/', { name: 'grant check 2', type: 'playbook', playbook: id, assets: [ids['pb-2']] })
      expect(refused.json()).toEqual({ assets: ['These assets are not granted to you: pb-2'] })
    } finally {
      await admin.patch(`/api/v1/perms/asset-permissions/${permId}/`, { assets: [ids['pb-1'], ids['pb-2']] })
    }
  }, 180_000)

  it('stops a running playbook: ansible-playbook is killed, its next task never runs', async () => {
    const id = await playbook('slow', `- hosts: all\n  gather_facts: no\n  tasks:\n    - name: wait a minute\n      shell: sleep 60\n    - shell: touch ${dir}/after-stop\n`)
    const taskId = await runJob({ playbook: id, assets: [ids['pb-1']] })
    let stopped: Promise<{ statusCode: number }> | undefined
    const log = await follow(wsUrl, op, taskId, (sofar) => {
      if (!stopped && sofar.includes('TASK [wait a minute]')) stopped = op.post(`/api/v1/ops/job-executions/${taskId}/stop/`, {})
    })
    // (the whole log in the message: one loaded CI run never showed the task starting)
    expect(stopped, log).toBeDefined()
    expect((await stopped)!.statusCode).toBe(200)
    expect(log).toContain('The job was stopped')
    expect((await detail(taskId)).status).toBe('canceled')
    expect(existsSync(join(dir, 'after-stop'))).toBe(false)
  }, 180_000)

  it('start-up removes the run folders of ended executions only: another server\'s run in progress over the same data folder is left alone', async () => {
    // (several test servers share one data folder: removing a folder this database does not know made another
    // server's ansible-playbook fail at start, its cwd gone: the stopped-playbook test above never saw its task start)
    const db = t.database.db
    const ended = (await db.selectFrom('ops_job_executions').select('id').where('status', 'in', ['success', 'failed', 'canceled']).executeTakeFirstOrThrow()).id
    const foreign = randomUUID()
    for (const id of [ended, foreign]) mkdirSync(join(runsDir(), id, 'tmp'), { recursive: true })
    try {
      expect(await removeEndedRuns(db)).toBe(1)
      expect(existsSync(join(runsDir(), ended))).toBe(false)
      expect(existsSync(join(runsDir(), foreign, 'tmp'))).toBe(true)
      // A day later it is nobody's run any more.
      expect(await removeEndedRuns(db, Date.now() + ORPHAN_RUN_AGE_MS + 60_000)).toBe(1)
      expect(existsSync(join(runsDir(), foreign))).toBe(false)
    } finally {
      for (const id of [ended, foreign]) rmSync(join(runsDir(), id), { recursive: true, force: true })
    }
  })

  it('uploads a zip: its top folder taken off, zip-slip, bombs, too many files, plugins and a missing main.yml refused with nothing written', async () => {
    const ok = await upload(op, zip({ 'site/main.yml': '- hosts: all\n  tasks: []\n', 'site/roles/web/tasks/main.yml': '- debug: msg=hi\n' }))
    expect(ok.statusCode, ok.body).toBe(201)
    expect(ok.json()).toMatchObject({ name: 'site', create_method: 'upload' })
    const tree = (await op.get(`/api/v1/ops/playbook/${ok.json().id}/file/`)).json() as Array<{ id: string; pId: string; isParent: boolean }>
    expect(tree.map((n) => n.id)).toEqual(['root', 'roles', 'roles/web', 'roles/web/tasks', 'roles/web/tasks/main.yml', 'main.yml'])
    expect(tree.find((n) => n.id === 'roles/web/tasks/main.yml')).toMatchObject({ pId: 'roles/web/tasks', isParent: false })

    const before = readdirSync(join(playbookDir('x'), '..')).length
    const refused: Array<[Buffer, string]> = [
      [zip({ 'main.yml': 'x', '../evil.yml': 'x' }), 'The path "../evil.yml" is not allowed in a playbook.'],
      [zip({ 'main.yml': 'x', 'a/../../evil.yml': 'x' }), 'The path "a/../../evil.yml" is not allowed in a playbook.'],
      [zip({ 'main.yml': 'x', '/etc/evil.yml': 'x' }), 'The path "/etc/evil.yml" is not allowed in a playbook.'],
      [zip({ 'main.yml': 'x', 'callback_plugins/x.py': 'import os' }), 'The path "callback_plugins/x.py" is not allowed in a playbook.'],
      [zip({ 'main.yml': 'x', 'ansible.cfg': '[defaults]' }), 'The path "ansible.cfg" is not allowed in a playbook.'],
      [zip({ 'site.yml': 'x' }), 'The playbook has no main.yml at its top.'],
      [zip({ 'main.yml': 'x', 'big': 'a'.repeat(21 * 1024 * 1024) }), 'The file is too large once decompressed (more than 20971520 bytes)'],
      [zip(Object.fromEntries(Array.from({ length: 501 }, (_, i) => [`f${i}.yml`, 'x']).concat([['main.yml', 'x']])), false), 'The archive has more than 500 files.'],
      [Buffer.from('not a zip at all'), 'Invalid zip file'],
    ]
    for (const [data, message] of refused) {
      const r = await upload(op, data)
      expect(r.statusCode, message).toBe(400)
      expect(r.json(), message).toEqual({ path: [message] })
    }
    expect(readdirSync(join(playbookDir('x'), '..')).length).toBe(before)
    expect(existsSync(join(playbookDir('x'), '..', '..', 'evil.yml'))).toBe(false)
    // Translated.
    const zh = multipart('path', 'x.zip', zip({ 'site.yml': 'x' }))
    const r = await op.request({ method: 'POST', url: '/api/v1/ops/playbooks/', payload: zh.payload, headers: { 'content-type': zh.contentType, 'accept-language': 'zh' } })
    expect(r.json()).toEqual({ path: ['Playbook 顶层没有 main.yml。'] })
  }, 180_000)

  it('browses and edits files: create, rename, save, delete; main.yml protected; paths outside refused; another user 404', async () => {
    const id = (await op.post('/api/v1/ops/playbooks/', { name: 'edit-me' })).json().id as string
    const base = `/api/v1/ops/playbook/${id}/file/`
    expect((await op.get(`${base}?key=main.yml`)).json()).toEqual({ content: '## write your playbook here\n' })
    const d = await op.post(base, { key: 'root', is_directory: true, name: 'vars' })
    expect(d.json()).toMatchObject({ id: 'vars', pId: 'root', isParent: true })
    const f = await op.post(base, { key: 'vars', is_directory: false, name: 'main.yml', content: 'a: 1\n' })
    expect(f.json()).toMatchObject({ id: 'vars/main.yml', pId: 'vars', isParent: false })
    expect((await op.post(base, { key: 'vars', name: 'main.yml' })).json()).toMatchObject({ id: 'vars/main.yml(1)' })
    expect((await op.patch(base, { key: 'vars/main.yml', content: 'a: 2\n' })).statusCode).toBe(200)
    expect((await op.get(`${base}?key=vars/main.yml`)).json()).toEqual({ content: 'a: 2\n' })
    expect((await op.patch(base, { key: 'vars/main.yml(1)', new_name: 'other.yml' })).statusCode).toBe(200)
    expect((await op.patch(base, { key: 'vars/other.yml', new_name: 'main.yml' })).json()).toEqual({ new_name: ['main.yml already exists.'] })
    expect((await op.patch(base, { key: 'main.yml', new_name: 'x.yml' })).statusCode).toBe(400)
    expect((await op.delete(`${base}?key=main.yml`)).statusCode).toBe(400)
    expect((await op.delete(`${base}?key=vars`)).statusCode).toBe(200)
    for (const key of ['../../../etc/passwd', '/etc/passwd', 'a/../../x', '.ssh/x', 'ansible.cfg']) {
      expect((await op.get(`${base}?key=${encodeURIComponent(key)}`)).statusCode, key).toBe(400)
      expect((await op.patch(base, { key, content: 'x' })).statusCode, key).toBe(400)
      expect((await op.post(base, { key: 'root', name: key })).statusCode, key).toBe(400)
    }
    expect(readdirSync(playbookDir(id))).toEqual(['main.yml'])
    expect((await admin.get(base)).statusCode).toBe(404)
    expect((await admin.get(`/api/v1/ops/playbooks/${id}/`)).statusCode).toBe(404)
    // A playbook used by a job cannot be deleted; its folder goes with it otherwise.
    const job = await op.post('/api/v1/ops/jobs/', { name: 'uses edit-me', type: 'playbook', playbook: id, assets: [ids['pb-1']] })
    expect(job.statusCode, job.body).toBe(201)
    expect((await op.delete(`/api/v1/ops/playbooks/${id}/`)).statusCode).toBe(400)
    expect((await op.delete(`/api/v1/ops/jobs/${job.json().id}/`)).statusCode).toBe(204)
    expect((await op.delete(`/api/v1/ops/playbooks/${id}/`)).statusCode).toBe(204)
    expect(existsSync(playbookDir(id))).toBe(false)
  })

  it('a review command ACL opens a command-confirm ticket: approved, the command runs; rejected, refused with the rule\'s name', async () => {
    const group = await admin.post('/api/v1/acls/command-groups/', { name: 'review-touch', content: 'touch' })
    expect(group.statusCode, group.body).toBe(201)
    const me = (await admin.get('/api/v1/users/profile/')).json() as { id: string }
    const acl = await admin.post('/api/v1/acls/command-filter-acls/', {
      name: 'review touch', users: { username_group: ['operator'] }, assets: {}, accounts: {}, command_groups: [group.json().id], action: 'review', priority: 1, reviewers: [me.id],
    })
    expect(acl.statusCode, acl.body).toBe(201)
    try {
      for (const verdict of ['approve', 'reject'] as const) {
        const marker = join(dir, `review-${verdict}`)
        const r = await op.post('/api/v1/ops/jobs/', { instant: true, assets: [ids['pb-1'], ids['pb-2']], args: `touch ${marker}`, runas: 'root', runas_policy: 'privileged_first' })
        expect(r.statusCode, r.body).toBe(201)
        const taskId = r.json().task_id as string
        let decided: Promise<{ statusCode: number; body: string }> | undefined
        const log = await follow(wsUrl, op, taskId, (sofar) => {
          const m = /ticket ([0-9a-f-]{36}) opened/.exec(sofar)
          if (m && !decided) decided = admin.put(`/api/v1/tickets/apply-command-tickets/${m[1]}/${verdict}/`)
        })
        const answer = await decided!
        expect(answer.statusCode, answer.body).toBe(200)
        // One ticket for the rule, whatever the number of assets.
        expect(log.match(/ticket [0-9a-f-]{36} opened/g)).toHaveLength(1)
        const d = await detail(taskId)
        if (verdict === 'approve') {
          expect(d.status).toBe('success')
          expect(existsSync(marker)).toBe(true)
        } else {
          expect(d.status).toBe('failed')
          expect(d.summary.error).toBe('Command rejected by ACL: review touch (review: rejected)')
          expect(existsSync(marker)).toBe(false)
        }
      }
    } finally {
      await admin.delete(`/api/v1/acls/command-filter-acls/${acl.json().id}/`)
    }
  }, 180_000)

  it('saved jobs: edited with versions, templates own-only, stale executions failed after the lease', async () => {
    const saved = await op.post('/api/v1/ops/jobs/', { name: 'versioned', assets: [ids['pb-1']], args: 'id', runas_policy: 'privileged_first' })
    expect(saved.statusCode, saved.body).toBe(201)
    const id = saved.json().id as string
    expect(saved.json().version).toBe(1)
    expect((await op.patch(`/api/v1/ops/jobs/${id}/`, { comment: 'only a comment' })).json()).toMatchObject({ version: 1, comment: 'only a comment' })
    expect((await op.patch(`/api/v1/ops/jobs/${id}/`, { args: 'uname -a' })).json()).toMatchObject({ version: 2, args: 'uname -a' })
    expect((await op.put(`/api/v1/ops/jobs/${id}/`, { name: 'versioned', args: 'reboot' })).json()).toEqual({ args: ['The command "reboot" is not allowed in a job.'] })
    const versions = (await op.get(`/api/v1/ops/jobs/${id}/versions/`)).json() as Array<{ version: number; data: { args: string } }>
    expect(versions.map((v) => [v.version, v.data.args])).toEqual([[2, 'uname -a'], [1, 'id']])
    expect((await op.post('/api/v1/ops/jobs/', { name: 'versioned', assets: [ids['pb-1']], args: 'id' })).json()).toEqual({ name: ['A job with this name already exists.'] })
    expect((await admin.patch(`/api/v1/ops/jobs/${id}/`, { args: 'id' })).statusCode).toBe(404)

    const tpl = await op.post('/api/v1/ops/adhocs/', { name: 'uptime', args: 'uptime' })
    expect(tpl.statusCode, tpl.body).toBe(201)
    expect(((await op.get('/api/v1/ops/adhocs/')).json() as Array<{ name: string }>).map((a) => a.name)).toEqual(['uptime'])
    expect(((await admin.get('/api/v1/ops/adhocs/')).json() as unknown[])).toEqual([])
    expect((await admin.get(`/api/v1/ops/adhocs/${tpl.json().id}/`)).statusCode).toBe(404)

    // Runs whose process died (rows as it left them: the task RUNNING on a dead worker, its lease run out): the
    // runner fails the task after the lease; the execution follows.
    const db = t.database.db
    const opUser = await db.selectFrom('users').select('id').where('username', '=', 'operator').executeTakeFirstOrThrow()
    const orphan = async () => {
      const exec = { id: randomUUID(), task_id: randomUUID() }
      await sql`insert into task_executions (id, task_name, args, kwargs, state, date_published, date_start, worker, lease_until, creator_id, creator)
        values (${exec.task_id}, 'ops.tasks.run_ops_job_execution', '[]'::jsonb, ${JSON.stringify({ execution_id: exec.id })}::jsonb, 'RUNNING', now(), now(),
          'dead-worker', ${new Date(Date.now() - 1000)}, ${opUser.id}, 'operator(operator)')`.execute(db)
      await db.insertInto('ops_job_executions').values({ id: exec.id, job_id: id, task_id: exec.task_id, status: 'running', material: 'shell:id', org_id: ORG_IDS.DEFAULT,
        creator_id: opUser.id, created_by: 'operator(operator)', date_start: new Date() }).execute()
      expect(await taskRunner(t.app)!.reapExpired()).toContain(exec.task_id)
      return exec
    }
    const exec = await orphan()
    const e = (await op.get(`/api/v1/ops/job-executions/${exec.id}/`)).json() as { status: string; summary: { error: string }; is_finished: boolean }
    expect(e).toMatchObject({ status: 'failed', is_finished: true })
    expect(e.summary.error).toMatch(/^This task has been marked as a zombie task because it has not updated its status for too long: The process running this task \(dead-worker\) stopped responding/)
    // Read first by an auditor in Job logs: failed there too.
    const exec2 = await orphan()
    const logs = (await admin.get(`/api/v1/audits/job-logs/?task_id=${exec2.task_id}`)).json() as Array<{ status: string; is_finished: boolean }>
    expect(logs).toEqual([expect.objectContaining({ status: 'failed', is_finished: true })])
  }, 180_000)

  it('answers every call lina 3.2.2\'s job center makes, with its shape', async () => {
    const job = (await op.post('/api/v1/ops/jobs/', { name: 'lina', assets: [ids['pb-1']], args: 'id', runas_policy: 'privileged_first' })).json() as { id: string }
    const run = (await op.post('/api/v1/ops/job-executions/', { job: job.id })).json() as { id: string; task_id: string }
    await follow(wsUrl, op, run.task_id)
    const pb = (await op.post('/api/v1/ops/playbooks/', { name: 'lina-pb' })).json() as { id: string }
    const adhoc = (await op.post('/api/v1/ops/adhocs/', { name: 'lina-adhoc', args: 'id' })).json() as { id: string }
    const calls: Array<[string, string, (b: any) => void]> = [
      ['GET', `/api/v1/ops/adhocs/?limit=10`, (b) => expect(b).toMatchObject({ count: expect.any(Number), results: expect.arrayContaining([expect.objectContaining({ id: adhoc.id, name: 'lina-adhoc', module: 'shell', args: 'id' })]) })],
      ['GET', `/api/v1/ops/adhocs/${adhoc.id}/`, (b) => expect(b).toMatchObject({ id: adhoc.id, args: 'id' })],
      ['GET', '/api/v1/ops/frequent-username/', (b) => expect(b).toEqual(expect.arrayContaining([host.username]))],
      ['GET', `/api/v1/ops/jobs/?type=adhoc&limit=10`, (b) => expect(b.results).toEqual(expect.arrayContaining([expect.objectContaining({ id: job.id, name: 'lina', type: 'adhoc' })]))],
      ['GET', `/api/v1/ops/jobs/${job.id}/`, (b) => expect(b).toMatchObject({ id: job.id, assets: [ids['pb-1']], runas: 'root', is_periodic: false, version: 1, use_parameter_define: false, parameters_define: '{}' })],
      ['GET', `/api/v1/ops/job-executions/?job_id=${job.id}&limit=10`, (b) => expect(b.results[0]).toMatchObject({ id: run.id, task_id: run.task_id, status: 'success', is_finished: true, time_cost: expect.any(Number) })],
      ['GET', `/api/v1/ops/job-executions/${run.id}/`, (b) => expect(b).toMatchObject({ id: run.id, job: { id: job.id, name: 'lina' }, is_success: true })],
      ['GET', `/api/v1/ops/job-execution/task-detail/${run.task_id}/`, (b) => expect(b).toMatchObject({ status: 'success', is_finished: true, is_success: true, job_id: job.id, summary: expect.any(Object) })],
      ['GET', `/api/v1/ops/playbooks/?limit=10`, (b) => expect(b.results).toEqual(expect.arrayContaining([expect.objectContaining({ id: pb.id, name: 'lina-pb' })]))],
      ['GET', `/api/v1/ops/playbooks/${pb.id}/`, (b) => expect(b).toMatchObject({ id: pb.id, create_method: 'blank' })],
      ['GET', `/api/v1/ops/playbook/${pb.id}/file/`, (b) => expect(b[0]).toMatchObject({ id: 'root', name: 'lina-pb', isParent: true })],
      ['GET', `/api/v1/ops/playbook/${pb.id}/file/?key=main.yml`, (b) => expect(b).toEqual({ content: expect.any(String) })],
      ['POST', `/api/v1/ops/playbook/${pb.id}/file/`, (b) => expect(b).toMatchObject({ id: 'new_file.yml', pId: 'root' })],
      ['PATCH', `/api/v1/ops/playbook/${pb.id}/file/`, (b) => expect(b).toEqual({})],
      ['DELETE', `/api/v1/ops/playbook/${pb.id}/file/?key=new_file.yml`, (b) => expect(b).toEqual({ msg: 'ok' })],
      ['GET', '/api/v1/ops/variables/help/', (b) => expect(b.jms_asset).toContain('jms_asset.address')],
      ['GET', '/api/v1/perms/users/self/assets/?limit=10', (b) => expect(b.results.map((a: { id: string }) => a.id)).toContain(ids['pb-1'])],
      ['GET', '/api/v1/perms/users/self/nodes/', (b) => expect(Array.isArray(b)).toBe(true)],
      ['GET', '/api/v1/perms/users/self/nodes/children-with-assets/tree/', (b) => expect(b).toEqual(expect.arrayContaining([expect.objectContaining({ id: ids['pb-1'], isParent: false, meta: expect.objectContaining({ type: 'asset' }) })]))],
    ]
    const bodies: Record<string, unknown> = { POST: { key: 'root', is_directory: false }, PATCH: { key: 'main.yml', content: '- hosts: all\n' } }
    for (const [method, url, check] of calls) {
      const r = await op.request({ method: method as 'GET', url, ...(bodies[method] ? { json: bodies[method] } : {}) })
      expect(r.statusCode, `${method} ${url}: ${r.body}`).toBeLessThan(300)
      check(r.json())
    }
    // The job center follows the public setting.
    expect((await admin.patch('/api/v1/settings/setting/?category=security', { SECURITY_COMMAND_EXECUTION: false })).statusCode).toBe(200)
    try {
      expect((await op.get('/api/v1/settings/public/')).json()).toMatchObject({ SECURITY_COMMAND_EXECUTION: false })
      expect((await op.get('/api/v1/ops/jobs/')).statusCode).toBe(403)
    } finally {
      await admin.patch('/api/v1/settings/setting/?category=security', { SECURITY_COMMAND_EXECUTION: true })
    }
  }, 180_000)
})
