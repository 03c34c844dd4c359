/**
 * Job center benchmark (not a test; issue 33 "Scale"): `npm run bench:jobs`.
 * `uname -a` as a quick job on 100 and 500 asset entries of the loopback sshd (password accounts), timed from the
 * POST to the live log's end frame, with the default parallelism (JOB_PARALLELISM, 10); beside it, Ansible's
 * `ansible -m shell` over the same 100 hosts (forks 10), the anchor JumpServer uses. Budget: 100 assets ≤ 10 s.
 * BENCH_JOB_SIZES changes the volumes (comma-separated).
 */
import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { promisify } from 'node:util'
import WebSocket from 'ws'
import { startSshd } from '../server/testing/sshd.ts'
import { createTestServer } from '../server/testing.ts'
import { TASK_LOG_SOCKET_PATH } from '../server/tasks/socket.ts'
import { jobSettings } from '../server/jobs/run.ts'

const SIZES = (process.env.BENCH_JOB_SIZES ?? '100,500').split(',').map(Number).filter((n) => n > 0)
const BUDGET_S = 10
const run = promisify(execFile)

const sshd = await startSshd()
const host = await sshd.addUser()
const t = await createTestServer()
let ok = true
try {
  const url = `ws://${await t.listen()}${TASK_LOG_SOCKET_PATH}`
  const admin = await t.as('admin')
  const me = (await admin.get('/api/v1/users/profile/')).json().id as string
  const ids: string[] = []
  const ensure = async (n: number) => {
    while (ids.length < n) {
      const i = ids.length
      const a = await admin.post('/api/v1/assets/hosts/', { name: `bench-job-${i}`, address: sshd.host, platform: 1, protocols: [{ name: 'ssh', port: sshd.port }] })
      if (a.statusCode !== 201) throw new Error(a.body)
      await admin.post('/api/v1/accounts/accounts/', { asset: a.json().id, name: `bench-${i}`, username: host.username, secret_type: 'password', secret: host.password, privileged: true })
      ids.push(a.json().id as string)
    }
  }
  await ensure(Math.max(...SIZES))
  const perm = await admin.post('/api/v1/perms/asset-permissions/', { name: 'bench-jobs', users: [me], assets: ids, accounts: ['@ALL'] })
  if (perm.statusCode !== 201) throw new Error(perm.body)
  console.log(`parallelism ${jobSettings.parallelism}`)
  for (const n of SIZES) {
    const t0 = performance.now()
    const r = await admin.post('/api/v1/ops/jobs/', { instant: true, assets: ids.slice(0, n), args: 'uname -a', runas: 'root', runas_policy: 'privileged_first' })
    const taskId = r.json().task_id as string
    await new Promise<void>((resolve, reject) => {
      const ws = new WebSocket(url, { headers: { cookie: admin.cookieHeader() } })
      ws.on('open', () => ws.send(JSON.stringify({ task: taskId })))
      ws.on('message', (d) => { if ((JSON.parse(d.toString()) as { end?: boolean }).end) { ws.close(); resolve() } })
      ws.on('error', reject)
    })
    const s = (performance.now() - t0) / 1000
    const detail = (await admin.get(`/api/v1/ops/job-execution/task-detail/${taskId}/`)).json() as { summary: { ok: string[] } }
    console.log(`quick job, uname -a on ${n} assets: ${s.toFixed(2)} s (${detail.summary.ok.length} ok, ${(n / s).toFixed(1)} hosts/s)`)
    if (n === 100 && (s > BUDGET_S || detail.summary.ok.length !== 100)) ok = false
  }
  // A playbook job (shell: uname -a) on the same 100 assets: each host logged in to first, then one ansible-playbook.
  {
    const pb = (await admin.post('/api/v1/ops/playbooks/', { name: 'bench-uname' })).json() as { id: string }
    await admin.patch(`/api/v1/ops/playbook/${pb.id}/file/`, { key: 'main.yml', content: '- hosts: all\n  gather_facts: no\n  tasks:\n    - shell: uname -a\n' })
    const t0 = performance.now()
    const r = await admin.post('/api/v1/ops/jobs/', { instant: true, type: 'playbook', playbook: pb.id, assets: ids.slice(0, 100), runas: 'root', runas_policy: 'privileged_first' })
    const taskId = r.json().task_id as string
    await new Promise<void>((resolve, reject) => {
      const ws = new WebSocket(url, { headers: { cookie: admin.cookieHeader() } })
      ws.on('open', () => ws.send(JSON.stringify({ task: taskId })))
      ws.on('message', (d) => { if ((JSON.parse(d.toString()) as { end?: boolean }).end) { ws.close(); resolve() } })
      ws.on('error', reject)
    })
    const s = (performance.now() - t0) / 1000
    const detail = (await admin.get(`/api/v1/ops/job-execution/task-detail/${taskId}/`)).json() as { summary: { ok: string[] } }
    console.log(`playbook job (shell: uname -a, forks 10) on 100 assets: ${s.toFixed(2)} s (${detail.summary.ok.length} ok)`)
  }
  // Ansible over the same 100 hosts.
  const dir = await mkdtemp(join(tmpdir(), 'bench-jobs-'))
  try {
    const inv = join(dir, 'hosts.ini')
    const lines = Array.from({ length: 100 }, (_, i) => `h${i} ansible_host=${sshd.host} ansible_port=${sshd.port}`)
    await writeFile(inv, `[all]\n${lines.join('\n')}\n[all:vars]\nansible_user=${host.username}\nansible_password=${host.password}\n`, { mode: 0o600 })
    const t0 = performance.now()
    await run('ansible', ['all', '-i', inv, '-m', 'shell', '-a', 'uname -a', '-f', '10'], {
      env: { ...process.env, ANSIBLE_HOST_KEY_CHECKING: 'False', ANSIBLE_PYTHON_INTERPRETER: 'auto_silent' }, maxBuffer: 64 << 20,
    }).catch((e: { stdout?: string; message: string }) => { console.log(`ansible failed: ${e.message.slice(0, 300)}`) })
    console.log(`ansible -m shell -f 10, uname -a on 100 hosts: ${((performance.now() - t0) / 1000).toFixed(2)} s`)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
  console.log(`budget: 100 assets ≤ ${BUDGET_S} s ${ok ? 'met' : 'MISSED'}`)
} finally {
  await t.close()
  await sshd.stop()
}
process.exit(ok ? 0 : 1)
