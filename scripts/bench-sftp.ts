/**
 * SFTP benchmark (not a test; issue 31 "Scale"): `npm run bench:sftp`. Upload and download of a BENCH_MB (200) MB
 * file with Debian's OpenSSH `sftp` (sshpass for the password), directly to a real sshd on loopback and through the
 * built-in SSH gateway (server in this process → the same sshd), in the same run, BENCH_ROUNDS (2) rounds each,
 * best round kept; the gateway's figure as a share of the direct one (target ≥ 50%). Also the server process's
 * peak resident memory growth during the gateway transfers (the relay holds no file: it should stay small).
 * Needs root (sshd's throw-away users), sftp and sshpass. BENCH_PROFILE=<path>: a CPU profile of the gateway transfers.
 */
import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { chownSync, createWriteStream, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { Session } from 'node:inspector/promises'
import { startGateway } from '../server/terminal/index.ts'
import { startSshd } from '../server/testing/sshd.ts'
import { createTestServer } from '../server/testing.ts'

const MB = Number(process.env.BENCH_MB ?? 200)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2)
/** BENCH_PROFILE=/tmp/x: a CPU profile of the server process during each round's gateway transfers (x.<round>.cpuprofile). */
const PROFILE = process.env.BENCH_PROFILE

function sftp(port: number, login: string, password: string, commands: string[], cwd: string): Promise<void> {
  const batch = join(cwd, 'batch')
  writeFileSync(batch, `${commands.join('\n')}\n`)
  return new Promise((resolve, reject) => {
    execFile('sshpass', ['-p', password, 'sftp', '-o', 'BatchMode=no', '-o', 'StrictHostKeyChecking=no', '-o', 'UserKnownHostsFile=/dev/null',
      '-o', 'LogLevel=ERROR', '-P', String(port), '-b', batch, `${login}@127.0.0.1`], { cwd, timeout: 600_000 },
    (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stdout}${stderr}`)) : resolve()))
  })
}

async function main() {
  console.log(`bench:sftp — ${MB} MB, load average ${loadavg().map((x) => x.toFixed(2)).join(' ')} (2-core machine, shared)`)
  const sshd = await startSshd()
  const host = await sshd.addUser()
  const t = await createTestServer()
  const port = await startGateway(t.app, 0, '127.0.0.1')
  const admin = await t.as('admin')
  const password = 'Bench-Pw-123!'
  const userId = await t.createUser({ username: 'bench', password })
  const asset = (await admin.post('/api/v1/assets/hosts/', { name: 'bench-host', address: sshd.host, platform: 1, protocols: [{ name: 'ssh', port: sshd.port }] })).json() as { id: string }
  await admin.post('/api/v1/accounts/accounts/', { asset: asset.id, name: 'bench-acc', username: host.username, secret_type: 'password', secret: host.password })
  await admin.post('/api/v1/perms/asset-permissions/', { name: 'bench', users: [userId], assets: [asset.id], accounts: ['@ALL'], actions: ['all'] })

  const local = mkdtempSync(join(tmpdir(), 'bench-sftp-local-'))
  const remote = mkdtempSync(join(tmpdir(), 'bench-sftp-host-'))
  const uid = Number(readFileSync('/etc/passwd', 'utf8').split('\n').find((l) => l.startsWith(`${host.username}:`))!.split(':')[2])
  chownSync(remote, uid, uid)
  // incompressible data (ssh does not compress by default; random bytes keep it honest anyway)
  await new Promise<void>((resolve, reject) => {
    const out = createWriteStream(join(local, 'big.bin'))
    let left = MB
    const more = () => {
      while (left > 0) {
        left--
        if (!out.write(randomBytes(1024 * 1024))) return void out.once('drain', more)
      }
      out.end(resolve)
    }
    out.on('error', reject)
    more()
  })
  const size = statSync(join(local, 'big.bin')).size

  let peak = 0
  const base = process.memoryUsage().rss
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss() - base)), 50)
  let profiler: Session | undefined
  if (PROFILE) {
    profiler = new Session()
    profiler.connect()
    await profiler.post('Profiler.enable')
  }
  /** The server process's CPU time per MB during each round's gateway upload and download, and over wall time. */
  const cpu: Array<{ put: number; get: number; share: number }> = []
  const best = { direct: { put: Infinity, get: Infinity }, gateway: { put: Infinity, get: Infinity } }
  const treePath = `/DEFAULT/bench-host/bench-acc${remote}`
  for (let round = 0; round < ROUNDS; round++) {
    for (const via of ['direct', 'gateway'] as const) {
      const [p, login, pw, dir] = via === 'direct' ? [sshd.port, host.username, host.password, remote] : [port, 'bench', password, treePath]
      if (profiler && via === 'gateway') await profiler.post('Profiler.start')
      const c0 = process.cpuUsage()
      const t0 = performance.now()
      await sftp(p, login, pw, [`put big.bin ${dir}/up-${via}.bin`], local)
      const t1 = performance.now()
      const c1 = process.cpuUsage()
      await sftp(p, login, pw, [`get ${dir}/up-${via}.bin down-${via}.bin`], local)
      const t2 = performance.now()
      if (via === 'gateway') {
        const up = process.cpuUsage(c0)
        const down = process.cpuUsage(c1)
        const ms = (c: NodeJS.CpuUsage) => (c.user + c.system) / 1000
        cpu.push({ put: (ms(up) - ms(down)) / (size / 1048576), get: ms(down) / (size / 1048576), share: ms(up) / (t2 - t0) })
      }
      if (profiler && via === 'gateway') {
        const { profile } = await profiler.post('Profiler.stop')
        writeFileSync(`${PROFILE}.${round}.cpuprofile`, JSON.stringify(profile))
      }
      if (statSync(join(remote, `up-${via}.bin`)).size !== size || statSync(join(local, `down-${via}.bin`)).size !== size) throw new Error(`${via}: sizes differ`)
      best[via].put = Math.min(best[via].put, t1 - t0)
      best[via].get = Math.min(best[via].get, t2 - t1)
      rmSync(join(local, `down-${via}.bin`))
      rmSync(join(remote, `up-${via}.bin`))
    }
  }
  clearInterval(sampler)
  const rate = (msTaken: number) => (size / 1048576) / (msTaken / 1000)
  for (const op of ['put', 'get'] as const) {
    const d = rate(best.direct[op])
    const g = rate(best.gateway[op])
    console.log(`${op === 'put' ? 'upload  ' : 'download'}: direct ${d.toFixed(1)} MB/s (${(best.direct[op] / 1000).toFixed(2)} s), gateway ${g.toFixed(1)} MB/s (${(best.gateway[op] / 1000).toFixed(2)} s): ${((g / d) * 100).toFixed(0)}% of direct (target ≥ 50%)`)
  }
  console.log(`server process CPU during the gateway transfers: ${cpu.map((x) => `upload ${x.put.toFixed(1)} ms/MB, download ${x.get.toFixed(1)} ms/MB, ${(x.share * 100).toFixed(0)}% of one core`).join('; ')}`)
  console.log(`server resident memory growth during the transfers (peak): ${(peak / 1048576).toFixed(1)} MB`)
  const logs = (await admin.get('/api/v1/audits/ftp-logs/?user=bench(bench)')).json() as unknown[]
  console.log(`FTP logs written for the gateway transfers: ${Array.isArray(logs) ? logs.length : JSON.stringify(logs).slice(0, 80)} (${ROUNDS * 2} expected)`)
  const sessions = (await admin.get(`/api/v1/terminal/sessions/?user_id=${userId}&protocol=sftp`)).json() as Array<{ is_finished: boolean }>
  console.log(`audit sessions of the gateway transfers: ${sessions.length} (${ROUNDS * 2} expected), finished: ${sessions.filter((x) => x.is_finished).length}`)
  rmSync(local, { recursive: true, force: true })
  rmSync(remote, { recursive: true, force: true })
  await t.close()
  await sshd.stop()
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})
