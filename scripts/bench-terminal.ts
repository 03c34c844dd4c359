/**
 * Built-in terminal benchmark (not a test; issue 30 "Scale"): `npm run bench:terminal`. Against a real sshd on
 * loopback (server/testing/sshd.ts), each figure beside the same measure made directly against sshd in the same
 * run:
 * 1. keystroke round trip (a byte typed to its echo), median and p99: direct (ssh2 client → sshd), through the SSH
 *    gateway (ssh2 client → gateway → sshd), through the websocket (ws client → server → sshd); the added time;
 * 2. output throughput of `cat` of BENCH_MB (200) MB of text, discarded by the client, recording on: Debian's
 *    OpenSSH client directly and through the gateway (separate processes), and the websocket;
 * 3. the recorder alone (asciicast + gzip to a file);
 * 4. BENCH_SESSIONS (200) concurrent websocket sessions held by the server, each typing a byte once a second:
 *    p50/p99 of the echo and the added p99 over the direct p99; resident memory growth per session (after GC).
 * The server runs in this process (as `npm start` runs it); the ws and ssh2 clients of 1 and 4 too, so their
 * work is counted in the figures. Needs root (sshd's throw-away users), ssh and sshpass.
 */
import { spawn } from 'node:child_process'
import { Session as InspectorSession } from 'node:inspector/promises'
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm, writeFile, chmod } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { Client, type ClientChannel } from 'ssh2'
import WebSocket from 'ws'
import { startGateway, terminalManager } from '../server/terminal/index.ts'
import { Recorder } from '../server/terminal/recorder.ts'
import { startSshd } from '../server/testing/sshd.ts'
import { createTestServer } from '../server/testing.ts'
import { TERMINAL_SOCKET_PATH } from '../server/terminal/ws.ts'

const MB = Number(process.env.BENCH_MB ?? 200)
const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 200)
const KEYS = Number(process.env.BENCH_KEYS ?? 300)
const HOLD_SECONDS = Number(process.env.BENCH_HOLD_SECONDS ?? 15)
/** Which parts run (comma-separated): keys, cat, recorder, sessions; all by default. */
const PARTS = new Set((process.env.BENCH_PARTS ?? 'keys,cat,recorder,sessions').split(','))

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN
}
const step = (s: string) => { if (process.env.BENCH_VERBOSE) console.log(`  … ${s}`) }
const ms = (x: number) => `${x.toFixed(2)} ms`

/**
 * Runs `f` and answers its result with this process's CPU seconds (main thread and zlib's threads); with
 * BENCH_PROFILE=<dir>, a CPU profile of the main thread while it ran is written there as `<name>.cpuprofile`.
 */
async function measured<T>(name: string, f: () => Promise<T>): Promise<T & { cpu: number }> {
  const dir = process.env.BENCH_PROFILE
  const inspector = dir ? new InspectorSession() : undefined
  if (inspector) {
    inspector.connect()
    await inspector.post('Profiler.enable')
    await inspector.post('Profiler.start')
  }
  const cpu0 = process.cpuUsage()
  const r = await f()
  const cpu = process.cpuUsage(cpu0)
  if (inspector) {
    const { profile } = await inspector.post('Profiler.stop')
    await writeFile(join(dir!, `${name}.cpuprofile`), JSON.stringify(profile))
    inspector.disconnect()
  }
  return { ...r, cpu: (cpu.user + cpu.system) / 1e6 }
}

/** Something that takes keystrokes and gives output. */
interface Pipe { write(s: string): void; onData(f: (d: Buffer) => void): void; close(): void }

function sshShell(o: { host: string; port: number; username: string; password: string }): Promise<Pipe> {
  return new Promise((resolve, reject) => {
    const c = new Client()
    c.on('ready', () => c.shell({ term: 'xterm', cols: 120, rows: 40 }, (err, s: ClientChannel) => {
      if (err) return reject(err)
      resolve({ write: (x) => s.write(x), onData: (f) => s.on('data', f), close: () => c.end() })
    }))
    c.on('error', reject)
    c.connect({ ...o, readyTimeout: 30_000 })
  })
}

function wsShell(address: string, cookie: string, token: string): Promise<Pipe> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://${address}${TERMINAL_SOCKET_PATH}`, { headers: { cookie } })
    const listeners: Array<(d: Buffer) => void> = []
    // output may come in the same read as session-info, before the caller listens
    const pending: Buffer[] = []
    const onData = (f: (d: Buffer) => void) => {
      listeners.push(f)
      for (const d of pending.splice(0)) f(d)
    }
    ws.on('open', () => ws.send(JSON.stringify({ type: 'connect', token, cols: 120, rows: 40 })))
    ws.on('message', (data, binary) => {
      if (binary) {
        if (!listeners.length) pending.push(data as Buffer)
        for (const f of listeners) f(data as Buffer)
        return
      }
      const m = JSON.parse(data.toString()) as { type: string; message?: string }
      if (m.type === 'session-info') resolve({ write: (x) => ws.send(JSON.stringify({ type: 'data', data: x })), onData, close: () => ws.send(JSON.stringify({ type: 'close' })) })
      if (m.type === 'error') reject(new Error(m.message))
    })
    ws.on('error', reject)
    ws.on('close', (code) => step(`ws closed ${code}`))
  })
}

/** Waits until the shell has printed its prompt (output quiet after `$ `). */
async function settle(p: Pipe): Promise<void> {
  let buf = ''
  let done = false
  await new Promise<void>((resolve) => p.onData((d) => {
    if (done) return
    buf = (buf + d.toString()).slice(-256)
    if (buf.includes('$ ')) {
      done = true
      resolve()
    }
  }))
}

/** Types one byte at a time and times its echo. */
async function keystrokes(p: Pipe, n: number): Promise<number[]> {
  let waiting: ((d: Buffer) => void) | undefined
  p.onData((d) => waiting?.(d))
  const out: number[] = []
  for (let i = 0; i < n; i++) {
    const ch = i % 40 === 39 ? '\x15' : 'x'
    const t0 = performance.now()
    await new Promise<void>((resolve) => {
      // the echo of an x (a kill-line answers whatever it echoes)
      waiting = (d) => { if (ch !== 'x' || d.includes(0x78)) resolve() }
      p.write(ch)
    })
    waiting = undefined
    if (ch === 'x') out.push(performance.now() - t0)
    await new Promise((r) => setImmediate(r))
  }
  return out
}

function run(cmd: string[], stdin?: string): Promise<{ code: number; seconds: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now()
    const child = spawn(cmd[0]!, cmd.slice(1), { stdio: ['pipe', 'pipe', 'inherit'] })
    let bytes = 0
    child.stdout.on('data', (d: Buffer) => (bytes += d.length))
    child.on('exit', (code) => resolve({ code: code ?? -1, seconds: (performance.now() - t0) / 1000, bytes }))
    child.on('error', reject)
    if (stdin !== undefined) child.stdin.write(stdin)
  })
}

async function main() {
  console.log(`bench:terminal — load average ${loadavg().map((x) => x.toFixed(2)).join(' ')} (2-core machine, shared)`)
  step('starting sshd and the server')
  const sshd = await startSshd()
  const host = await sshd.addUser()
  const t = await createTestServer()
  const address = await t.listen()
  const gatewayPort = await startGateway(t.app, 0, '127.0.0.1')
  const admin = await t.as('admin')
  const userId = await t.createUser({ username: 'bench', password: 'Bench-Pw-123!' })
  const user = await t.as('bench')
  const asset = (await admin.post('/api/v1/assets/hosts/', { name: 'bench-host', address: sshd.host, platform: 1, protocols: [{ name: 'ssh', port: sshd.port }] })).json() as { id: string }
  await admin.post('/api/v1/accounts/accounts/', { asset: asset.id, name: 'bench-acc', username: host.username, secret_type: 'password', secret: host.password })
  await admin.post('/api/v1/perms/asset-permissions/', { name: 'bench', users: [userId], assets: [asset.id], accounts: ['@ALL'] })
  const token = async () => (await user.post('/api/v1/authentication/connection-token/', { asset: asset.id, account: 'bench-acc', protocol: 'ssh', is_reusable: true })).json() as { id: string; value: string }
  const tk = await token()
  const direct = { host: sshd.host, port: sshd.port, username: host.username, password: host.password }
  const viaGateway = { host: '127.0.0.1', port: gatewayPort, username: `JMS-${tk.id}`, password: tk.value }
  const results: Record<string, unknown> = {}
  if (process.env.BENCH_VERBOSE) {
    // the state of each open session's flow control, every 5 s
    setInterval(() => {
      for (const s of terminalManager(t.app).sessions.values()) {
        const x = s as unknown as { pauses: Set<string>; recorder: { writable: boolean; gzip: { writableLength: number; readableLength: number } }; shell: { stream: { readableFlowing: boolean | null; isPaused(): boolean } } }
        step(`session ${s.id.slice(0, 8)}: paused for [${[...x.pauses].join(',')}], recorder writable ${x.recorder.writable} (gzip in ${x.recorder.gzip.writableLength}, out ${x.recorder.gzip.readableLength}), host stream paused ${x.shell.stream.isPaused()}`)
      }
    }, 5000).unref()
  }

  // 1. keystrokes
  const rtt: Record<string, number[]> = {}
  for (const [name, open] of !PARTS.has('keys') ? [] : [
    ['direct', () => sshShell(direct)],
    ['gateway', () => sshShell(viaGateway)],
    ['websocket', () => wsShell(address, user.cookieHeader(), tk.id)],
  ] as const) {
    step(`keystrokes ${name}: connecting`)
    const p = await open()
    await settle(p)
    step(`keystrokes ${name}: typing`)
    rtt[name] = await keystrokes(p, KEYS)
    p.close()
  }
  for (const name of Object.keys(rtt)) {
    const x = rtt[name]!
    console.log(`keystroke ${name.padEnd(9)}: median ${ms(pct(x, 50))}, p99 ${ms(pct(x, 99))}` +
      (name === 'direct' ? '' : ` — added median ${ms(pct(x, 50) - pct(rtt.direct!, 50))}, p99 ${ms(pct(x, 99) - pct(rtt.direct ?? [0], 99))}`))
  }
  results.keystrokes = Object.fromEntries(Object.entries(rtt).map(([k, v]) => [k, { median: pct(v, 50), p99: pct(v, 99) }]))

  // 2. throughput of cat
  const dir = await mkdtemp(join(tmpdir(), 'bench-terminal-'))
  await chmod(dir, 0o755)
  const file = join(dir, 'big.txt')
  const line = randomBytes(3 * 1024 * 1024).toString('base64').replace(/(.{100})/g, '$1\n')
  if (PARTS.has('cat') || PARTS.has('recorder')) {
    const parts: string[] = []
    for (let size = 0; size < MB * 1024 * 1024; size += line.length) parts.push(line)
    await writeFile(file, parts.join(''))
    await chmod(file, 0o644)
  }
  if (PARTS.has('cat')) {
    const sshBase = ['-tt', '-o', 'StrictHostKeyChecking=no', '-o', 'UserKnownHostsFile=/dev/null', '-o', 'LogLevel=ERROR']
    const mbps = (r: { bytes: number; seconds: number }) => r.bytes / 1024 / 1024 / r.seconds
    const wsCat = async () => {
      const p = await wsShell(address, user.cookieHeader(), (await token()).id)
      await settle(p)
      let bytes = 0
      const t0 = performance.now()
      await new Promise<void>((resolve) => {
        let tail = ''
        p.onData((b) => {
          bytes += b.length
          tail = (tail + b.subarray(-64).toString('latin1')).slice(-64)
          if (tail.includes('done-0bench')) resolve()
        })
        p.write(`cat ${file}; echo done-$((0))bench\r`)
      })
      const seconds = (performance.now() - t0) / 1000
      p.close()
      return { bytes, seconds }
    }
    // each way twice, interleaved, so a change of the machine's load during the run touches all of them
    const runs: Record<'direct' | 'gateway' | 'websocket', Array<{ bytes: number; seconds: number; cpu: number }>> = { direct: [], gateway: [], websocket: [] }
    for (let round = 0; round < Number(process.env.BENCH_CAT_ROUNDS ?? 2); round++) {
      step(`cat round ${round + 1}`)
      const ways = new Set((process.env.BENCH_CAT_WAYS ?? 'direct,gateway,websocket').split(','))
      const skip = { bytes: 0, seconds: 1, cpu: 0 }
      runs.direct.push(!ways.has('direct') ? skip : await measured(`direct-${round}`, () => run(['sshpass', '-p', host.password, 'ssh', ...sshBase, '-p', String(sshd.port), `${host.username}@${sshd.host}`, `cat ${file}`])))
      runs.gateway.push(!ways.has('gateway') ? skip : await measured(`gateway-${round}`, () => run(['sshpass', '-p', tk.value, 'ssh', ...sshBase, '-p', String(gatewayPort), `JMS-${tk.id}@127.0.0.1`], `exec cat ${file}\n`)))
      runs.websocket.push(!ways.has('websocket') ? skip : await measured(`websocket-${round}`, wsCat))
    }
    const best = (xs: Array<{ bytes: number; seconds: number }>) => Math.max(...xs.map(mbps))
    const d = best(runs.direct)
    const g = best(runs.gateway)
    const w = best(runs.websocket)
    const all = (xs: Array<{ bytes: number; seconds: number; cpu: number }>) => xs.map((x) => `${mbps(x).toFixed(1)}`).join(', ') +
      `; this process's CPU ${xs.map((x) => (x.cpu / (x.bytes / 1024 / 1024) * 100).toFixed(2)).join(', ')} s per 100 MB`
    console.log(`cat ${MB} MB direct OpenSSH : ${d.toFixed(1)} MB/s (runs: ${all(runs.direct)})`)
    console.log(`cat ${MB} MB via gateway   : ${g.toFixed(1)} MB/s (runs: ${all(runs.gateway)}) — ${((g / d) * 100).toFixed(0)} % of direct`)
    console.log(`cat ${MB} MB via websocket : ${w.toFixed(1)} MB/s (runs: ${all(runs.websocket)}) — ${((w / d) * 100).toFixed(0)} % of direct`)
    results.throughput = { direct: d, gateway: g, websocket: w }
  }

  // 3. the recorder alone
  if (PARTS.has('recorder')) {
    const chunk = Buffer.from(line.slice(0, 32 * 1024))
    const r = new Recorder(dir, 'recorder-bench', new Date(), 120, 40)
    const total = MB * 1024 * 1024
    const t0 = performance.now()
    const cpu0 = process.cpuUsage()
    for (let n = 0; n < total; n += chunk.length) {
      r.output(chunk)
      if (!r.writable) await new Promise((resolve) => r.once('drain', resolve))
    }
    await r.finish()
    const s = (performance.now() - t0) / 1000
    const cpu = process.cpuUsage(cpu0)
    console.log(`recorder alone       : ${(MB / s).toFixed(1)} MB/s (main thread + zlib's thread: ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s of CPU for ${MB} MB)`)
    results.recorder = MB / s
  }
  await rm(file, { force: true })

  // 4. concurrent sessions: directly (ssh2 clients to sshd), then through the websocket, the same pattern
  if (PARTS.has('sessions')) {
    const hold = async (pipes: Pipe[]) => {
      const samples: number[] = []
      await Promise.all(pipes.map(async (p, i) => {
        let waiting: (() => void) | undefined
        p.onData(() => waiting?.())
        await new Promise((r) => setTimeout(r, (i * 1000) / pipes.length))
        for (let k = 0; k < HOLD_SECONDS; k++) {
          const t0 = performance.now()
          await new Promise<void>((resolve) => {
            waiting = resolve
            p.write(k % 40 === 39 ? '\x15' : 'y')
          })
          waiting = undefined
          samples.push(performance.now() - t0)
          await new Promise((r) => setTimeout(r, 1000 - Math.min(999, performance.now() - t0)))
        }
      }))
      return samples
    }
    const openMany = async (open: (i: number) => Promise<Pipe>) => {
      const pipes: Pipe[] = []
      for (let i = 0; i < SESSIONS; i += 10) {
        pipes.push(...await Promise.all(Array.from({ length: Math.min(10, SESSIONS - i) }, async (_x, k) => {
          const p = await open(i + k)
          await settle(p)
          return p
        })))
      }
      return pipes
    }
    step('direct sessions')
    const directPipes = await openMany(() => sshShell(direct))
    const directSamples = await hold(directPipes)
    for (const p of directPipes) p.close()
    const gc = (globalThis as { gc?: () => void }).gc
    await new Promise((r) => setTimeout(r, 1000))
    gc?.()
    const rss0 = process.memoryUsage().rss
    // sockets per user are bounded (16): ten sessions per user
    const users: Array<Awaited<ReturnType<typeof t.as>>> = []
    for (let i = 0; i < Math.ceil(SESSIONS / 10); i++) {
      const id = await t.createUser({ username: `bench-${i}`, password: 'Bench-Pw-123!' })
      await admin.post('/api/v1/perms/asset-permissions/', { name: `bench-${i}`, users: [id], assets: [asset.id], accounts: ['@ALL'] })
      users.push(await t.as(`bench-${i}`))
    }
    step('websocket sessions')
    const pipes = await openMany(async (i) => {
      const u = users[Math.floor(i / 10)]!
      const tkn = (await u.post('/api/v1/authentication/connection-token/', { asset: asset.id, account: 'bench-acc', protocol: 'ssh' })).json() as { id: string }
      return wsShell(address, u.cookieHeader(), tkn.id)
    })
    gc?.()
    const rss1 = process.memoryUsage().rss
    console.log(`${pipes.length} sessions open (server sessions: ${terminalManager(t.app).sessions.size})`)
    const cpu0 = process.cpuUsage()
    const samples = await hold(pipes)
    const cpu = process.cpuUsage(cpu0)
    const dp99 = pct(directSamples, 99)
    const p99 = pct(samples, 99)
    console.log(`${SESSIONS} direct sessions × 1 key/s for ${HOLD_SECONDS} s: echo median ${ms(pct(directSamples, 50))}, p99 ${ms(dp99)}`)
    console.log(`${pipes.length} websocket sessions × 1 key/s for ${HOLD_SECONDS} s: echo median ${ms(pct(samples, 50))}, p99 ${ms(p99)} — added median ${ms(pct(samples, 50) - pct(directSamples, 50))}, p99 ${ms(p99 - dp99)} (this process's CPU: ${(((cpu.user + cpu.system) / 1e6) / HOLD_SECONDS * 100).toFixed(0)} % of a core)`)
    console.log(`resident memory: +${((rss1 - rss0) / 1024 / 1024).toFixed(1)} MB for ${pipes.length} sessions = ${((rss1 - rss0) / 1024 / 1024 / pipes.length).toFixed(2)} MB per session (server and its clients in one process${gc ? ', after GC' : ''})`)
    results.concurrent = { sessions: pipes.length, directMedian: pct(directSamples, 50), directP99: dp99, median: pct(samples, 50), p99, rssPerSessionMB: (rss1 - rss0) / 1024 / 1024 / pipes.length }
    for (const p of pipes) p.close()
  }
  console.log(JSON.stringify(results))
  console.log(`load average at the end: ${loadavg().map((x) => x.toFixed(2)).join(' ')}`)
  await rm(dir, { recursive: true, force: true })
  await t.close()
  await sshd.stop()
  process.exit(0)
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})
