/**
 * Live-session benchmark (not a test; issue 31 "Scale"): `npm run bench:live`. One web-terminal session on a real
 * sshd whose host program writes BENCH_RATE bytes a second (default 1 MB/s: lines stamped with the host's clock
 * in ms) and answers each key at once with a marker; BENCH_WATCHERS auditors (default 20) monitor it through
 * `/ws/terminal/live/`. Measured, without watchers and then with them:
 * - the user's keystroke round trip (a key sent on the websocket → its marker back on the user's screen), p50/p99;
 * - the lag of every screen (the user's and each watcher's): arrival time − the stamp written by the host, p99;
 * - bytes a second reaching each screen.
 * The server and all the websocket clients run in this process (as in bench:terminal), so their work is counted.
 * Needs root (sshd's throw-away users) and perl on the host.
 *
 * **Watchers on another process** (issue 31, "Several server processes"): with `BENCH_DATABASE_URL` (a PostgreSQL
 * server; the bench makes a fresh database on it) the server of this process holds the session and a second server
 * process (`server/main.ts` on the same database, port BENCH_PEER_PORT, default 20450) serves BENCH_WATCHERS more
 * monitors: the session's output reaches them through LISTEN/NOTIFY. Rounds, in one run: no watchers, the watchers
 * on this process, the watchers on the other process, no watchers again. Without BENCH_DATABASE_URL the bench runs on
 * PGlite (one process) and says that round was not run.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { monitorEventLoopDelay, performance } from 'node:perf_hooks'
import WebSocket from 'ws'
import { LIVE_SOCKET_PATH } from '../server/terminal/live.ts'
import { TERMINAL_SOCKET_PATH } from '../server/terminal/ws.ts'
import { startSshd } from '../server/testing/sshd.ts'
import { createTestServer } from '../server/testing.ts'

const RATE = Number(process.env.BENCH_RATE ?? 1_000_000)
const WATCHERS = Number(process.env.BENCH_WATCHERS ?? 20)
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
const KEY_EVERY_MS = 100
const DATABASE_URL = process.env.BENCH_DATABASE_URL
const PEER_PORT = Number(process.env.BENCH_PEER_PORT ?? 20450)

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN
}
const f1 = (x: number) => x.toFixed(1)
const step = (x: string) => { if (process.env.BENCH_VERBOSE) console.log(`  … ${x}`) }

const FLOOD = `use strict; use Time::HiRes qw(time); use IO::Select;
my ($rate, $dur) = @ARGV; system('stty raw -echo'); $| = 1;
my $start = time; my $sent = 0; my $pad = 'x' x 960; my $sel = IO::Select->new(\\*STDIN);
while (time - $start < $dur) {
  if ($sel->can_read(0.002)) { my $b; sysread(STDIN, $b, 64) or last; for my $c (split //, $b) { syswrite(STDOUT, "\\r\\nK$c!\\r\\n") } }
  my $due = int((time - $start) * $rate);
  while ($sent < $due) { my $l = sprintf("T%d|%s\\r\\n", int(time * 1000), $pad); syswrite(STDOUT, $l); $sent += length $l }
}
system('stty sane'); print "\\r\\nFLOOD-DONE\\r\\n";
`

/** A screen: collects stamps' lags and bytes; `wait` for text. */
class Screen {
  lags: number[] = []
  bytes = 0
  /** every byte, and the end of what came (for a bench that stalls) */
  total = 0
  get last() { return this.tail.slice(-40) }
  measuring = false
  private tail = ''
  /** `from`: where in the stream (bytes so far) the text may start — what came before the wait does not count */
  private waiters: Array<{ text: string; from: number; resolve: () => void }> = []
  feed(d: Buffer) {
    const now = Date.now()
    const start = this.total - this.tail.length // where `text` starts in the stream
    this.total += d.length
    const text = this.tail + d.toString('latin1')
    if (this.measuring) {
      this.bytes += d.length
      for (const m of text.matchAll(/T(\d{13})\|/g)) if (m.index! + m[0].length > this.tail.length) this.lags.push(now - Number(m[1]))
    }
    for (const w of [...this.waiters]) if (text.includes(w.text, Math.max(0, w.from - start))) {
      this.waiters.splice(this.waiters.indexOf(w), 1)
      w.resolve()
    }
    this.tail = text.slice(-64)
  }
  /**
   * Resolves when `text` arrives (or is already at the end of what came). With `already` false only text that comes
   * after the call counts: the end of the last round ("FLOOD-DONE") is still in the tail when the next one starts.
   */
  wait(text: string, already = true): Promise<void> {
    if (already && this.tail.includes(text)) return Promise.resolve()
    return new Promise((resolve) => this.waiters.push({ text, from: already ? 0 : this.total, resolve }))
  }
}

/** `p`, or a failure naming what did not happen within `ms` (a stalled bench stops with a reason, not an empty loop). */
async function within<T>(p: Promise<T>, ms: number, what: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  try {
    return await Promise.race([p, new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(what())), ms) })])
  } finally {
    clearTimeout(timer)
  }
}

const load = () => loadavg().map((x) => x.toFixed(2)).join(' ')

/** CPU seconds (user + system) a process has used so far: /proc/<pid>/stat, in clock ticks of 1/100 s. */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ')
    return (Number(fields[11]) + Number(fields[12])) / 100
  } catch {
    return NaN
  }
}

/** The second server process: `server/main.ts` on the same database; resolves with its address once it listens. */
async function startPeer(databaseUrl: string, dataDir: string): Promise<{ address: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: {
      ...process.env, DATABASE_URL: databaseUrl, PORT: String(PEER_PORT), HOST: '127.0.0.1', SSH_PORT: '0', DATA_DIR: dataDir,
      // the test server's key (server/testing.ts): its session cookies are good on both processes
      SECRET_KEY: 'test-secret-key-0123456789abcdef', LICENSE: process.env.LICENSE ?? 'valid',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  children.add(child)
  child.once('exit', () => children.delete(child))
  let log = ''
  await new Promise<void>((resolve, reject) => {
    const onData = (d: Buffer) => {
      log += d.toString()
      if (log.includes('Console ready')) resolve()
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', onData)
    child.once('exit', (code) => reject(new Error(`the second server exited (${code}):\n${log}`)))
  })
  return { address: `127.0.0.1:${PEER_PORT}`, child }
}

/** `n` auditors monitoring the session through the live socket of the server at `address`. */
async function openWatchers(address: string, cookie: string, sessionId: string, n: number): Promise<{ screens: Screen[]; sockets: WebSocket[] }> {
  const screens: Screen[] = []
  const sockets: WebSocket[] = []
  await Promise.all(Array.from({ length: n }, async () => {
    const s = new Screen()
    const m = new WebSocket(`ws://${address}${LIVE_SOCKET_PATH}`, { headers: { cookie } })
    const ready = new Promise<void>((resolve, reject) => {
      m.on('message', (data, isBinary) => {
        if (isBinary) s.feed(Buffer.from(data as Buffer))
        else {
          const f = JSON.parse(data.toString()) as { type: string }
          if (f.type === 'live-info') resolve()
          if (f.type === 'error') reject(new Error(data.toString()))
        }
      })
    })
    m.on('open', () => m.send(JSON.stringify({ type: 'monitor', session: sessionId })))
    await ready
    screens.push(s)
    sockets.push(m)
  }))
  return { screens, sockets }
}

async function main() {
  console.log(`bench:live — load average ${load()} (2-core machine, shared with other jobs); ${DATABASE_URL ? 'PostgreSQL (BENCH_DATABASE_URL)' : 'PGlite'}`)
  // the bench's server on a fresh database of that PostgreSQL server (server/testing.ts)
  if (DATABASE_URL) process.env.TEST_DATABASE_URL = DATABASE_URL
  else delete process.env.TEST_DATABASE_URL
  const sshd = await startSshd()
  const host = await sshd.addUser()
  await writeFile('/tmp/bench-live-flood.pl', FLOOD)
  await chmod('/tmp/bench-live-flood.pl', 0o644)
  const t = await createTestServer({ sshPort: 0 })
  const address = await t.listen()
  const admin = await t.as('admin')
  const userId = await t.createUser({ username: 'benchlive', password: 'Bench-Pw-123!' })
  const user = await t.as('benchlive')
  const asset = (await admin.post('/api/v1/assets/hosts/', { name: 'bench-live-host', address: sshd.host, platform: 1, protocols: [{ name: 'ssh', port: sshd.port }] })).json() as { id: string }
  await admin.post('/api/v1/accounts/accounts/', { asset: asset.id, name: 'bench-acc', username: host.username, secret_type: 'password', secret: host.password })
  await admin.post('/api/v1/perms/asset-permissions/', { name: 'bench-live', users: [userId], assets: [asset.id], accounts: ['@ALL'] })
  const token = (await user.post('/api/v1/authentication/connection-token/', { asset: asset.id, account: 'bench-acc', protocol: 'ssh' })).json() as { id: string }

  const userScreen = new Screen()
  const ws = new WebSocket(`ws://${address}${TERMINAL_SOCKET_PATH}`, { headers: { cookie: user.cookieHeader() } })
  let sessionId = ''
  const opened = new Promise<void>((resolve, reject) => {
    ws.on('message', (data, isBinary) => {
      if (isBinary) userScreen.feed(Buffer.from(data as Buffer))
      else {
        const f = JSON.parse(data.toString()) as { type: string; session?: { id: string } }
        if (f.type === 'session-info') { sessionId = f.session!.id; resolve() }
        if (f.type === 'error') reject(new Error(data.toString()))
      }
    })
  })
  ws.on('open', () => ws.send(JSON.stringify({ type: 'connect', token: token.id, cols: 120, rows: 40 })))
  ws.on('close', (code, reason) => step(`the user's socket closed (${code} ${reason.toString()})`))
  process.on('beforeExit', () => console.error('bench:live: the event loop emptied before the bench finished (a screen waited for text that never came)'))
  await opened
  step('session open')
  await userScreen.wait('$ ')
  step('prompt')

  let peer: { address: string; child: ChildProcess } | undefined
  const peerDir = await mkdtemp(join(tmpdir(), 'bench-live-peer-'))
  if (t.databaseUrl) {
    peer = await startPeer(t.databaseUrl, peerDir)
    step(`second server process ${peer.child.pid} on ${peer.address}`)
  }

  const round = async (label: string, watchers: Screen[]) => {
    const cpu0 = { self: process.cpuUsage(), peer: peer ? cpuSeconds(peer.child.pid!) : NaN }
    const load0 = load()
    const loop = monitorEventLoopDelay({ resolution: 5 })
    loop.enable()
    const done = userScreen.wait('FLOOD-DONE', false)
    ws.send(JSON.stringify({ type: 'data', data: `perl /tmp/bench-live-flood.pl ${RATE} ${SECONDS + 2}\r` }))
    await userScreen.wait('T1', false)
    step(`flooding (the user's screen ${userScreen.total} bytes)`)
    // a second to settle, then measure
    await new Promise((r) => setTimeout(r, 1000))
    step(`settled (the user's screen ${userScreen.total} bytes)`)
    for (const s of [userScreen, ...watchers]) { s.lags = []; s.bytes = 0; s.measuring = true }
    const started = performance.now()
    const rtts: number[] = []
    const letters = 'abcdefghij'
    let i = 0
    while (performance.now() - started < SECONDS * 1000 - 500) {
      const c = letters[i++ % letters.length]!
      const seen = userScreen.wait(`K${c}!`, false)
      const t0 = performance.now()
      ws.send(JSON.stringify({ type: 'data', data: c }))
      await within(seen, 15_000, () => `the key "${c}" never came back on the user's screen (${userScreen.total} bytes so far, ending ${JSON.stringify(userScreen.last)})`)
      rtts.push(performance.now() - t0)
      await new Promise((r) => setTimeout(r, KEY_EVERY_MS))
    }
    const elapsed = (performance.now() - started) / 1000
    step('measured')
    for (const s of [userScreen, ...watchers]) s.measuring = false
    const cpu = process.cpuUsage(cpu0.self)
    loop.disable()
    const peerCpu = peer ? cpuSeconds(peer.child.pid!) - cpu0.peer : NaN
    await done
    const p99s = watchers.map((w) => pct(w.lags, 99))
    console.log(`\n${label} (load average ${load0} → ${load()}; CPU: this process ${f1((cpu.user + cpu.system) / 1e6 / elapsed * 100)} %${peer ? `, the second server ${f1(peerCpu / elapsed * 100)} %` : ''} of a core)`)
    console.log(`  this process's event loop delay: p99 ${f1(loop.percentile(99) / 1e6)} ms, max ${f1(loop.max / 1e6)} ms`)
    console.log(`  keystroke round trip: p50 ${f1(pct(rtts, 50))} ms, p99 ${f1(pct(rtts, 99))} ms (${rtts.length} keys)`)
    console.log(`  user's screen: lag p50 ${f1(pct(userScreen.lags, 50))} ms, p99 ${f1(pct(userScreen.lags, 99))} ms, ${f1(userScreen.bytes / elapsed / 1e6)} MB/s`)
    if (watchers.length) {
      console.log(`  ${watchers.length} watchers: lag p99 — best ${f1(Math.min(...p99s))} ms, median ${f1(pct(p99s, 50))} ms, worst ${f1(Math.max(...p99s))} ms; ` +
        `lag p50 median ${f1(pct(watchers.map((w) => pct(w.lags, 50)), 50))} ms; each ${f1(pct(watchers.map((w) => w.bytes / elapsed / 1e6), 50))} MB/s (median)`)
    }
    return { label, rtts, p99s }
  }

  const results = [await round('no watchers', [])]
  const local = await openWatchers(address, admin.cookieHeader(), sessionId, WATCHERS)
  results.push(await round(`${WATCHERS} watchers on this process (the session's)`, local.screens))
  for (const m of local.sockets) m.close()
  if (peer) {
    const remote = await openWatchers(peer.address, admin.cookieHeader(), sessionId, WATCHERS)
    results.push(await round(`${WATCHERS} watchers on the second server process (LISTEN/NOTIFY)`, remote.screens))
    for (const m of remote.sockets) m.close()
  } else {
    console.log(`\n${WATCHERS} watchers on another server process: not run (needs PostgreSQL: BENCH_DATABASE_URL)`)
  }
  results.push(await round('no watchers, again', []))
  console.log('\nsummary — keystroke round trip p50 / p99; watchers\' lag p99 best / median / worst')
  for (const r of results) {
    const lag = r.p99s.length ? `; lag p99 ${f1(Math.min(...r.p99s))} / ${f1(pct(r.p99s, 50))} / ${f1(Math.max(...r.p99s))} ms` : ''
    console.log(`  ${r.label}: ${f1(pct(r.rtts, 50))} / ${f1(pct(r.rtts, 99))} ms${lag}`)
  }
  console.log(`\nload average after: ${load()}`)
  ws.send(JSON.stringify({ type: 'close' }))
  await new Promise((r) => setTimeout(r, 500))
  if (peer) {
    peer.child.kill('SIGTERM')
    await new Promise((r) => peer!.child.once('exit', r))
  }
  await rm(peerDir, { recursive: true, force: true })
  await t.close()
  await sshd.stop()
}

/** The second server process, stopped however the bench ends. */
const children = new Set<ChildProcess>()
process.on('exit', () => {
  for (const c of children) c.kill('SIGTERM')
})

main().then(() => process.exit(0), (err) => {
  console.error(err)
  process.exit(1)
})
