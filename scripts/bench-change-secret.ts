/**
 * Change-secret benchmark (issue 15; not a test): `node --import tsx scripts/bench-change-secret.ts` (root: it
 * creates OS users). A real OpenSSH server on loopback (server/testing/sshd.ts) stands for 50 hosts: 50 asset
 * records, each with the administrator's privileged account and its own OS user, whose password one change-secret
 * execution rotates with bounded concurrency (CONCURRENCY in server/resources/accounts/run.ts). Reports the wall
 * time of the execution and the per-host time of its records. BENCH_HOSTS changes the count.
 */
import { randomBytes } from 'node:crypto'
import { rm, writeFile } from 'node:fs/promises'
import { performance } from 'node:perf_hooks'
import { startSshd } from '../server/testing/sshd.ts'
import { createTestServer } from '../server/testing.ts'
import { CONCURRENCY } from '../server/resources/accounts/run.ts'
import { stats } from './bench-support.ts'

const HOSTS = Number(process.env.BENCH_HOSTS ?? 50)
const A = '/api/v1/accounts/'

const sshd = await startSshd()
const sudoers = `/etc/sudoers.d/bench-${randomBytes(4).toString('hex')}`
const t = await createTestServer()
try {
  const priv = await sshd.addUser()
  await writeFile(sudoers, `${priv.username} ALL=(ALL) NOPASSWD: ALL\n`, { mode: 0o440 })
  const admin = await t.as('admin')
  const usernames: string[] = []
  const assets: string[] = []
  for (let i = 0; i < HOSTS; i++) {
    const user = await sshd.addUser()
    const host = (await admin.post('/api/v1/assets/hosts/', { name: `bench-cs-${i}`, address: '127.0.0.1', platform: 1, protocols: [{ name: 'ssh', port: sshd.port }] })).json()
    for (const body of [{ username: priv.username, secret: priv.password, privileged: true }, { username: user.username, secret: user.password }]) {
      const r = await admin.post(`${A}accounts/`, { ...body, asset: host.id })
      if (r.statusCode !== 201) throw new Error(r.body)
    }
    usernames.push(user.username)
    assets.push(host.id)
  }
  const automation = (await admin.post(`${A}change-secret-automations/`, { name: 'bench', assets, accounts: usernames, secret_strategy: 'random', password_rules: { length: 20 } })).json()
  const t0 = performance.now()
  const { id } = (await admin.post(`${A}change-secret-executions/`, { automation: automation.id })).json()
  let e: Record<string, any>
  for (;;) {
    e = (await admin.get(`${A}change-secret-executions/${id}/`)).json()
    if (['success', 'failed', 'error', 'canceled'].includes(e.status.value)) break
    await new Promise((r) => setTimeout(r, 100))
  }
  const wall = performance.now() - t0
  const records = (await admin.get(`${A}change-secret-records/?execution=${id}`)).json() as Array<{ timedelta: number; is_success: boolean }>
  const per = stats(records.map((r) => r.timedelta * 1000))
  console.log(`change secret on ${HOSTS} hosts (one loopback sshd, ${CONCURRENCY} at a time): ${e.status.value}, ${records.filter((r) => r.is_success).length}/${records.length} ok;`
    + ` wall ${(wall / 1000).toFixed(1)} s; per host median ${per.median.toFixed(0)} ms, p95 ${per.p95.toFixed(0)} ms`)
} finally {
  await t.close()
  await rm(sudoers, { force: true })
  await sshd.stop()
}
