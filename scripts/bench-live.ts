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
 */
import { chmod, writeFile } from 'node:fs/promises'
import { loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import WebSocket from 'ws'
import { LIVE_SOCKET_PATH } from '../server/terminal/live.ts'
import { TERMINAL_SOCKET_PATH } from '../server/terminal/ws.ts'
import { startSshd } from '../server/testing/sshd.ts'
import { createTestServer } from '../server/testing.ts'

const RATE = Number(process.env.BENCH_RATE ?? 1_000_000)
const WATCHERS = Number(process.env.BENCH_WATCHERS ?? 20)
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
const KEY_EVERY_MS = 100

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
  measuring = false
  private tail = ''
  private waiters: Array<{ text: string; resolve: () => void }> = []
  feed(d: Buffer) {
    const now = Date.now()
    const text = this.tail + d.toString('latin1')
    if (this.measuring) {
      this.bytes += d.length
      for (const m of text.matchAll(/T(\d{13})\|/g)) if (m.index! + m[0].length > this.tail.length) this.lags.push(now - Number(m[1]))
    }
    for (const w of [...this.waiters]) if (text.includes(w.text)) {
      this.waiters.splice(this.waiters.indexOf(w), 1)
      w.resolve()
    }
    this.tail = text.slice(-64)
  }
  /** Resolves when `text` arrives (or is already at the end of what came). */
  wait(text: string, already = true): Promise<void> {
    if (already && this.tail.includes(text)) return Promise.resolve()
    return new Promise((resolve) => this.waiters.push({ text, resolve }))
  }
}

async function main() {
  console.log(`bench:live — load average ${loadavg().map((x) => x.toFixed(2)).join(' ')} (2-core machine, shared with other jobs)`)
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
  await opened
  step('session open')
  await userScreen.wait('$ ')
  step('prompt')

  const round = async (label: string, watchers: Screen[]) => {
    const done = userScreen.wait('FLOOD-DONE', false)
    ws.send(JSON.stringify({ type: 'data', data: `perl /tmp/bench-live-flood.pl ${RATE} ${SECONDS + 2}\r` }))
    await userScreen.wait('T1', false)
    step('flooding')
    // a second to settle, then measure
    await new Promise((r) => setTimeout(r, 1000))
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
      await seen
      rtts.push(performance.now() - t0)
      await new Promise((r) => setTimeout(r, KEY_EVERY_MS))
    }
    const elapsed = (performance.now() - started) / 1000
    step('measured')
    for (const s of [userScreen, ...watchers]) s.measuring = false
    await done
    const p99s = watchers.map((w) => pct(w.lags, 99))
    console.log(`\n${label}`)
    console.log(`  keystroke round trip: p50 ${f1(pct(rtts, 50))} ms, p99 ${f1(pct(rtts, 99))} ms (${rtts.length} keys)`)
    console.log(`  user's screen: lag p50 ${f1(pct(userScreen.lags, 50))} ms, p99 ${f1(pct(userScreen.lags, 99))} ms, ${f1(userScreen.bytes / elapsed / 1e6)} MB/s`)
    if (watchers.length) {
      console.log(`  ${watchers.length} watchers: lag p99 — best ${f1(Math.min(...p99s))} ms, median ${f1(pct(p99s, 50))} ms, worst ${f1(Math.max(...p99s))} ms; ` +
        `lag p50 median ${f1(pct(watchers.map((w) => pct(w.lags, 50)), 50))} ms; each ${f1(pct(watchers.map((w) => w.bytes / elapsed / 1e6), 50))} MB/s (median)`)
    }
    return { rtts, p99s }
  }

  await round('no watchers', [])
  const screens: Screen[] = []
  const sockets: WebSocket[] = []
  await Promise.all(Array.from({ length: WATCHERS }, async () => {
    const s = new Screen()
    const m = new WebSocket(`ws://${address}${LIVE_SOCKET_PATH}`, { headers: { cookie: admin.cookieHeader() } })
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
  await round(`${WATCHERS} watchers`, screens)
  console.log(`\nload average after: ${loadavg().map((x) => x.toFixed(2)).join(' ')}`)
  for (const m of sockets) m.close()
  ws.send(JSON.stringify({ type: 'close' }))
  await new Promise((r) => setTimeout(r, 500))
  await t.close()
  await sshd.stop()
}

main().then(() => process.exit(0), (err) => {
  console.error(err)
  process.exit(1)
})
