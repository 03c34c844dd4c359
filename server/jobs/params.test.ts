/**
 * Job parameters and a saved job's nodes, against a real sshd and Debian's real `ansible-playbook` (issue 33):
 * parameter definitions checked (400 field errors), values asked for each run and checked (400 field errors under
 * `parameters`), recorded on the execution, substituted quoted into an adhoc command (a value never runs as shell:
 * checked on disk), handed to a playbook as extra variables Ansible does not template; a job's nodes limited to the
 * creator's granted tree, expanded at run time to the granted assets under them only, named on the job's detail.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { taskRunner } from '../tasks/service.ts'
import { TASK_LOG_SOCKET_PATH } from '../tasks/socket.ts'
import { startSshd, type Sshd, type SshdUser } from '../testing/sshd.ts'
import { createTestServer, type TestClient, type TestServer } from '../testing.ts'
import { followTaskLog } from '../testing/task-log.ts'

const follow = async (url: string, c: TestClient, task: string, onText?: (sofar: string) => void) => (await followTaskLog(url, c, task, onText)).text

describe('job parameters and nodes', () => {
  let t: TestServer
  let admin: TestClient
  let op: TestClient
  let sshd: Sshd
  let host: SshdUser
  let wsUrl: string
  let dir: string
  let opId: string
  const ids: Record<string, string> = {}
  const nodes: Record<string, string> = {}

  const asset = async (name: string, node: string) => {
    const r = await admin.post('/api/v1/assets/hosts/', { name, address: sshd.host, platform: 1, nodes: [node], protocols: [{ name: 'ssh', port: sshd.port }] })
    expect(r.statusCode, r.body).toBe(201)
    ids[name] = r.json().id as string
    const acc = await admin.post('/api/v1/accounts/accounts/', { asset: ids[name], name: `${name}-acc`, username: host.username, secret_type: 'password', secret: host.password, privileged: true })
    expect(acc.statusCode, acc.body).toBe(201)
  }
  const detail = async (taskId: string) => (await op.get(`/api/v1/ops/job-execution/task-detail/${taskId}/`)).json() as { status: string; summary: { ok: string[]; error: string; excludes: Record<string, string> } }
  const execution = async (taskId: string) => (await op.get(`/api/v1/ops/job-executions/${taskId}/`)).json() as { id: string; parameters: Record<string, string>; status: string }

  beforeAll(async () => {
    sshd = await startSshd()
    host = await sshd.addUser()
    t = await createTestServer()
    wsUrl = `ws://${await t.listen()}${TASK_LOG_SOCKET_PATH}`
    admin = await t.as('admin')
    admin.headers['accept-language'] = 'en'
    opId = await t.createUser({ username: 'param-op' })
    op = await t.as('param-op')
    op.headers['accept-language'] = 'en'
    const root = ((await admin.get('/api/v1/assets/nodes/?limit=1')).json() as { results: Array<{ id: string }> }).results[0]!.id
    for (const n of ['apps', 'hidden']) {
      const r = await admin.post(`/api/v1/assets/nodes/${root}/children/`, { value: n })
      expect(r.statusCode, r.body).toBe(201)
      nodes[n] = r.json().id as string
    }
    const sub = await admin.post(`/api/v1/assets/nodes/${nodes.apps}/children/`, { value: 'apps-web' })
    nodes['apps-web'] = sub.json().id as string
    await asset('app-1', nodes.apps!)
    await asset('app-2', nodes['apps-web']!)
    await asset('app-ungranted', nodes['apps-web']!)
    await asset('hidden-1', nodes.hidden!)
    const perm = await admin.post('/api/v1/perms/asset-permissions/', { name: 'param-perm', users: [opId], assets: [ids['app-1'], ids['app-2']], accounts: ['@ALL'] })
    expect(perm.statusCode, perm.body).toBe(201)
    dir = mkdtempSync(join(tmpdir(), 'job-params-'))
    chmodSync(dir, 0o777)
  }, 180_000)
  afterAll(async () => {
    await t?.close()
    await sshd?.stop()
  })

  it('checks parameter definitions with field errors and answers them as JSON text (lina parses it)', async () => {
    const base = { name: 'defs', assets: [ids['app-1']], args: 'id', use_parameter_define: true }
    const refused: Array<[unknown, string]> = [
      ['not json', 'Expected a JSON object of parameters.'],
      [{ '1x': { type: 'text' } }, 'Parameter "1x": the name must be letters, digits and _, not starting with a digit.'],
      [{ jms_asset: { type: 'text' } }, 'Parameter "jms_asset": names starting with jms_ or ansible_ are reserved.'],
      [{ x: { type: 'file' } }, 'Parameter "x": "file" is not a valid type.'],
      [{ x: { type: 'select', options: [] } }, 'Parameter "x": a choice needs between 1 and 50 options.'],
      [{ x: { type: 'select', options: ['a', 'b'], default: 'c' } }, 'Parameter "x": the default must be one of its options.'],
      [{ x: { type: 'text', default: 'a'.repeat(1025) } }, 'Parameter "x": the label, default and options must be text of at most 1024 characters.'],
    ]
    for (const [define, message] of refused) {
      const r = await op.post('/api/v1/ops/jobs/', { ...base, parameters_define: define })
      expect(r.statusCode, message).toBe(400)
      expect(r.json(), message).toEqual({ parameters_define: [message] })
    }
    expect((await op.get('/api/v1/ops/jobs/?search=defs')).json()).toEqual([])
    // lina 3.2.2 sends the definitions as JSON text; they come back as JSON text, cleaned.
    const r = await op.post('/api/v1/ops/jobs/', { ...base, parameters_define: JSON.stringify({ msg: { label: 'Message', type: 'text', default: 'hi' }, mode: { type: 'select', options: [{ label: 'Fast', value: 'fast' }, 'slow'] } }) })
    expect(r.statusCode, r.body).toBe(201)
    expect(JSON.parse(r.json().parameters_define as string)).toEqual({
      msg: { label: 'Message', type: 'text', default: 'hi' },
      mode: { label: 'mode', type: 'select', default: '', options: [{ label: 'Fast', value: 'fast' }, { label: 'slow', value: 'slow' }] },
    })
    expect(r.json()).toMatchObject({ use_parameter_define: true, version: 1 })
    // The order their author gave them is kept (the run dialog asks them in that order).
    const ordered = await op.post('/api/v1/ops/jobs/', { ...base, name: 'ordered', parameters_define: { zz_last_long: {}, b: {}, a_mid: {} } })
    expect(Object.keys(JSON.parse((await op.get(`/api/v1/ops/jobs/${ordered.json().id}/`)).json().parameters_define as string))).toEqual(['zz_last_long', 'b', 'a_mid'])
    // A change of the definitions is a new version; translated errors.
    const id = r.json().id as string
    expect((await op.patch(`/api/v1/ops/jobs/${id}/`, { comment: 'same definitions' })).json()).toMatchObject({ version: 1 })
    expect((await op.patch(`/api/v1/ops/jobs/${id}/`, { parameters_define: { msg: { type: 'text' } } })).json()).toMatchObject({ version: 2 })
    expect((await op.patch(`/api/v1/ops/jobs/${id}/`, { parameters_define: { msg: { default: '', type: 'text', label: 'msg' } } })).json()).toMatchObject({ version: 2 })
    const zh = await op.request({ method: 'PATCH', url: `/api/v1/ops/jobs/${id}/`, json: { parameters_define: { ansible_x: {} } }, headers: { 'accept-language': 'zh' } })
    expect(zh.json()).toEqual({ parameters_define: ['参数“ansible_x”：以 jms_ 或 ansible_ 开头的名称为保留名称。'] })
  })

  it('asks a value for each parameter of a run, checks it, records it, and substitutes it into the command as one quoted shell word', async () => {
    const out = join(dir, 'adhoc-out')
    const injected = join(dir, 'injected')
    const job = await op.post('/api/v1/ops/jobs/', {
      name: 'greet', assets: [ids['app-1']], runas: 'root', runas_policy: 'privileged_first', use_parameter_define: true,
      args: `printf '%s|%s' {{ msg }} {{mode}} > ${out}-$(whoami); echo "{{ unknown }}"`,
      parameters_define: { msg: { label: 'Message', type: 'text' }, mode: { type: 'select', options: ['fast', 'slow'], default: 'fast' } },
    })
    expect(job.statusCode, job.body).toBe(201)
    const jobId = job.json().id as string
    const run = (parameters: unknown) => op.post('/api/v1/ops/job-executions/', { job: jobId, parameters })
    // Refused with field errors, nothing started.
    const before = ((await op.get(`/api/v1/ops/job-executions/?job_id=${jobId}`)).json() as unknown[]).length
    expect((await run({})).json()).toEqual({ parameters: { msg: ['This field may not be blank.'] } })
    expect((await run({ msg: '  ' })).json()).toEqual({ parameters: { msg: ['This field may not be blank.'] } })
    expect((await run({ msg: 'x', mode: 'turbo' })).json()).toEqual({ parameters: { mode: ['"turbo" is not a valid choice.'] } })
    expect((await run({ msg: 'x', other: '1' })).json()).toEqual({ parameters: { other: ['Unknown parameter.'] } })
    expect((await run({ msg: 'a'.repeat(1025) })).json()).toEqual({ parameters: { msg: ['Ensure this field has no more than 1024 characters.'] } })
    expect((await run({ msg: ['a'] })).json()).toEqual({ parameters: { msg: ['Not a valid string.'] } })
    expect((await run('[1]')).json()).toEqual({ parameters: ['Expected an object of parameter values.'] })
    expect(((await op.get(`/api/v1/ops/job-executions/?job_id=${jobId}`)).json() as unknown[]).length).toBe(before)
    // Save-and-run of a job whose parameter has no default: refused before anything is stored.
    const saveRun = await op.post('/api/v1/ops/jobs/', { name: 'no default', assets: [ids['app-1']], args: 'echo {{ x }}', use_parameter_define: true, parameters_define: { x: {} }, run_after_save: true })
    expect(saveRun.json()).toEqual({ parameters: { x: ['This field may not be blank.'] } })
    expect((await op.get('/api/v1/ops/jobs/?search=no%20default')).json()).toEqual([])

    // A value made to break out of the command: it stays one word (lina's JSON text form accepted).
    const evil = `it's "$(touch ${injected})"; touch ${injected} \`touch ${injected}\` {{ mode }}`
    const r = await run(JSON.stringify({ msg: evil }))
    expect(r.statusCode, r.body).toBe(201)
    const taskId = r.json().task_id as string
    const log = await follow(wsUrl, op, taskId)
    expect((await detail(taskId)).status, log).toBe('success')
    expect(readFileSync(`${out}-${host.username}`, 'utf8')).toBe(`${evil}|fast`)
    expect(existsSync(injected)).toBe(false)
    // An unknown reference is left as written; the execution records the values (defaults filled in).
    expect(log).toContain('{{ unknown }}')
    expect((await execution(r.json().id as string)).parameters).toEqual({ msg: evil, mode: 'fast' })
    // A blacklisted word given as a value is refused at run time, quoted or not.
    const danger = await op.post('/api/v1/ops/jobs/', { name: 'first word', assets: [ids['app-1']], args: '{{ cmd }} now', use_parameter_define: true, parameters_define: { cmd: { default: 'echo' } } })
    const bad = await op.post('/api/v1/ops/job-executions/', { job: danger.json().id, parameters: { cmd: 'reboot' } })
    expect(bad.statusCode, bad.body).toBe(201)
    await follow(wsUrl, op, bad.json().task_id as string)
    expect((await detail(bad.json().task_id as string)).summary.error).toBe('The command "reboot" is not allowed')
  }, 120_000)

  it('command ACLs read a parameter value as if written in the command: a value does not slip past a rule by being quoted', async () => {
    const group = await admin.post('/api/v1/acls/command-groups/', { name: 'no-rm-rf', content: 'rm -rf' })
    expect(group.statusCode, group.body).toBe(201)
    const acl = await admin.post('/api/v1/acls/command-filter-acls/', {
      name: 'block rm -rf', users: { username_group: ['param-op'] }, assets: {}, accounts: {}, command_groups: [group.json().id], action: 'reject', priority: 1,
    })
    expect(acl.statusCode, acl.body).toBe(201)
    const target = join(dir, 'keep-me')
    mkdirSync(join(target, 'inside'), { recursive: true })
    chmodSync(target, 0o777)
    try {
      const job = await op.post('/api/v1/ops/jobs/', { name: 'flags', assets: [ids['app-1']], args: `rm {{ flags }} ${target}`, runas_policy: 'privileged_first',
        use_parameter_define: true, parameters_define: { flags: { default: '-i' } } })
      expect(job.statusCode, job.body).toBe(201)
      const r = await op.post('/api/v1/ops/job-executions/', { job: job.json().id, parameters: { flags: '-rf' } })
      expect(r.statusCode, r.body).toBe(201)
      const log = await follow(wsUrl, op, r.json().task_id as string)
      expect((await detail(r.json().task_id as string)).summary.error, log).toBe('Command rejected by ACL: block rm -rf (reject)')
      expect(existsSync(join(target, 'inside'))).toBe(true)
    } finally {
      await admin.delete(`/api/v1/acls/command-filter-acls/${acl.json().id}/`)
    }
  }, 120_000)

  it('a scheduled run takes the defaults (recorded on its execution); a parameter without one fails the run with the reason', async () => {
    const job = await op.post('/api/v1/ops/jobs/', { name: 'nightly params', assets: [ids['app-1']], args: 'echo "night:" {{ who }}', runas_policy: 'privileged_first', is_periodic: true, interval: 1,
      use_parameter_define: true, parameters_define: { who: { default: 'the night shift' } } })
    expect(job.statusCode, job.body).toBe(201)
    const fire = async (jobId: string) => {
      await t.database.db.updateTable('celery_tasks').set({ next_run_at: new Date(Date.now() - 1000) }).where('name', '=', `ops.tasks.run_ops_job:${jobId}`).execute()
      const fired = await taskRunner(t.app)!.fireDue()
      expect(fired).toHaveLength(1)
      const log = await follow(wsUrl, admin, fired[0]!)
      return { taskId: fired[0]!, log }
    }
    const first = await fire(job.json().id as string)
    expect(first.log).toContain('night: the night shift')
    expect((await execution(first.taskId)).parameters).toEqual({ who: 'the night shift' })
    expect((await op.patch(`/api/v1/ops/jobs/${job.json().id}/`, { parameters_define: { who: {} } })).statusCode).toBe(200)
    const second = await fire(job.json().id as string)
    expect((await detail(second.taskId)).summary.error).toBe('The parameter values do not fit the job: who: This field may not be blank.')
    expect(second.log).not.toContain('| CHANGED')
  }, 120_000)

  it('hands parameter values to a playbook as extra variables that Ansible never templates', async () => {
    const pb = (await op.post('/api/v1/ops/playbooks/', { name: 'params-pb' })).json().id as string
    const main = `- hosts: all\n  gather_facts: no\n  tasks:\n    - name: write the value\n      copy:\n        dest: "${dir}/pb-{{ inventory_hostname }}"\n        content: "{{ greeting }}|{{ size }}"\n`
    expect((await op.patch(`/api/v1/ops/playbook/${pb}/file/`, { key: 'main.yml', content: main })).statusCode).toBe(200)
    const job = await op.post('/api/v1/ops/jobs/', {
      name: 'pb params', type: 'playbook', playbook: pb, assets: [ids['app-1']], runas_policy: 'privileged_first', use_parameter_define: true,
      parameters_define: { greeting: { type: 'text' }, size: { type: 'select', options: ['s', 'm'], default: 'm' } },
    })
    expect(job.statusCode, job.body).toBe(201)
    const greeting = `{{ lookup('pipe', 'touch ${dir}/templated') }} "quoted" \\ it's`
    const r = await op.post('/api/v1/ops/job-executions/', { job: job.json().id, parameters: { greeting } })
    expect(r.statusCode, r.body).toBe(201)
    const log = await follow(wsUrl, op, r.json().task_id as string)
    expect((await detail(r.json().task_id as string)).status, log).toBe('success')
    expect(readFileSync(join(dir, 'pb-app-1'), 'utf8')).toBe(`${greeting}|m`)
    expect(existsSync(join(dir, 'templated'))).toBe(false)
  }, 120_000)

  it('a job\'s nodes: only the granted tree\'s, expanded at run time to the granted assets under them, named on the detail', async () => {
    // A node outside the operator's granted tree is refused; the granted ones are kept.
    const refused = await op.post('/api/v1/ops/jobs/', { name: 'hidden', nodes: [nodes.hidden], args: 'id' })
    expect(refused.json()).toEqual({ nodes: ['These nodes are not granted to you: hidden'] })
    const job = await op.post('/api/v1/ops/jobs/', { name: 'by node', nodes: [nodes.apps], assets: [], args: 'echo {{ host }}', runas_policy: 'privileged_first',
      use_parameter_define: true, parameters_define: { host: { default: 'a' } } })
    expect(job.statusCode, job.body).toBe(201)
    const jobId = job.json().id as string
    const d = (await op.get(`/api/v1/ops/jobs/${jobId}/`)).json() as { nodes: string[]; nodes_display: Array<{ id: string; name: string; full_value: string }>; assets_display: unknown[] }
    expect(d.nodes).toEqual([nodes.apps])
    expect(d.nodes_display).toEqual([{ id: nodes.apps, name: 'apps', full_value: expect.stringMatching(/\/apps$/) }])
    expect(d.assets_display).toEqual([])
    // app-1 (in the node) and app-2 (in its child) run; app-ungranted (in the child, not granted) is never touched.
    const r = await op.post('/api/v1/ops/job-executions/', { job: jobId })
    const taskId = r.json().task_id as string
    await follow(wsUrl, op, taskId)
    const res = await detail(taskId)
    expect(res.status).toBe('success')
    expect([...res.summary.ok].sort()).toEqual(['app-1', 'app-2'])
    expect(res.summary.excludes).toEqual({})
    // Granted later, it runs next time (expanded at run time, not when saved).
    const perm2 = await admin.post('/api/v1/perms/asset-permissions/', { name: 'param-perm-2', users: [opId], assets: [ids['app-ungranted']], accounts: ['@ALL'] })
    expect(perm2.statusCode, perm2.body).toBe(201)
    const again = await op.post('/api/v1/ops/job-executions/', { job: jobId })
    await follow(wsUrl, op, again.json().task_id as string)
    expect([...(await detail(again.json().task_id as string)).summary.ok].sort()).toEqual(['app-1', 'app-2', 'app-ungranted'])
    expect((await admin.delete(`/api/v1/perms/asset-permissions/${perm2.json().id}/`)).statusCode).toBe(204)
    const third = await op.post('/api/v1/ops/job-executions/', { job: jobId })
    await follow(wsUrl, op, third.json().task_id as string)
    expect([...(await detail(third.json().task_id as string)).summary.ok].sort()).toEqual(['app-1', 'app-2'])
    // With an asset too: both named on the detail.
    const both = await op.patch(`/api/v1/ops/jobs/${jobId}/`, { assets: [ids['app-1']] })
    expect(both.statusCode, both.body).toBe(200)
    expect(((await op.get(`/api/v1/ops/jobs/${jobId}/`)).json() as { assets_display: unknown[] }).assets_display).toEqual([{ id: ids['app-1'], name: 'app-1', address: sshd.host }])
  }, 180_000)
})
