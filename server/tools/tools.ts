/**
 * Settings → Tools: network checks run from the server (JumpServer's ping / telnet / nmap tools), over plain TCP:
 * - `ping`: `count` TCP connects to `dest_ip:dest_port` with their round-trip times (*differs*: JumpServer sends
 *   ICMP, which needs privileges this server does not ask for);
 * - `telnet`: one connect, with the first bytes the service sends (its banner) within a second;
 * - `nmap`: which of the listed ports (`22,80,8000-8010`, at most MAX_PORTS) of one host accept a connection.
 * Everything is bounded: each connect by `timeout` (1–10 s), the whole run by RUN_DEADLINE_MS, the scan by
 * SCAN_CONCURRENCY parallel connects, the banner by BANNER_BYTES.
 */
import { lookup } from 'node:dns/promises'
import { isIP, Socket } from 'node:net'

export const MAX_PORTS = 1024
export const SCAN_CONCURRENCY = 64
export const RUN_DEADLINE_MS = 30_000
export const BANNER_BYTES = 256
const HOST_RE = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})(?:\.[A-Za-z0-9-]{1,63})*\.?$/

export type ToolName = 'ping' | 'telnet' | 'nmap'
export const TOOLS: ToolName[] = ['ping', 'telnet', 'nmap']

export interface ToolInput { dest_ip: string; dest_port?: number; dest_ports?: number[]; count?: number; timeout: number }

export const validHost = (s: string) => isIP(s.replace(/^\[|\]$/g, '')) !== 0 || HOST_RE.test(s)

/** Parses "22,80,8000-8010" into at most MAX_PORTS ports; null when malformed or too many. */
export function parsePorts(spec: string): number[] | null {
  const out = new Set<number>()
  for (const part of spec.split(',').map((p) => p.trim()).filter(Boolean)) {
    const m = /^(\d{1,5})(?:-(\d{1,5}))?$/.exec(part)
    if (!m) return null
    const a = Number(m[1])
    const b = m[2] ? Number(m[2]) : a
    if (a < 1 || b > 65535 || a > b || b - a >= MAX_PORTS) return null
    for (let p = a; p <= b; p++) {
      out.add(p)
      if (out.size > MAX_PORTS) return null
    }
  }
  return out.size ? [...out].sort((x, y) => x - y) : null
}

interface Probe { ok: boolean; ms: number; error?: string; banner?: string }

/** One TCP connect, closed at once (or after reading a banner for up to 1 s). */
export function probe(host: string, port: number, timeoutMs: number, signal: AbortSignal, banner = false): Promise<Probe> {
  return new Promise((resolve) => {
    const started = performance.now()
    const socket = new Socket()
    let done = false
    const chunks: Buffer[] = []
    let size = 0
    const finish = (r: Omit<Probe, 'ms'>) => {
      if (done) return
      done = true
      clearTimeout(timer)
      signal.removeEventListener('abort', onAbort)
      socket.destroy()
      resolve({ ...r, ms: Math.round((performance.now() - started) * 10) / 10 })
    }
    const onAbort = () => finish({ ok: false, error: 'aborted' })
    const timer = setTimeout(() => finish({ ok: false, error: 'timed out' }), timeoutMs)
    signal.addEventListener('abort', onAbort, { once: true })
    socket.on('error', (e: NodeJS.ErrnoException) => finish({ ok: false, error: e.code === 'ECONNREFUSED' ? 'connection refused' : (e.code ?? e.message) }))
    socket.connect(port, host, () => {
      const ms = Math.round((performance.now() - started) * 10) / 10
      if (!banner) { finish({ ok: true }); return }
      clearTimeout(timer)
      const stop = setTimeout(() => { if (!done) { done = true; socket.destroy(); signal.removeEventListener('abort', onAbort); resolve({ ok: true, ms, banner: Buffer.concat(chunks).toString('utf8') }) } }, 1000)
      socket.on('data', (d: Buffer) => {
        chunks.push(d.subarray(0, BANNER_BYTES - size))
        size += d.length
        if (size >= BANNER_BYTES) { clearTimeout(stop); done = true; socket.destroy(); signal.removeEventListener('abort', onAbort); resolve({ ok: true, ms, banner: Buffer.concat(chunks).toString('utf8') }) }
      })
      socket.once('close', () => { if (!done) { clearTimeout(stop); done = true; signal.removeEventListener('abort', onAbort); resolve({ ok: true, ms, banner: Buffer.concat(chunks).toString('utf8') }) } })
    })
  })
}

/** Printable banner text: control characters (but tab/newline) shown as '.', at most BANNER_BYTES. */
const printable = (s: string) => s.slice(0, BANNER_BYTES).replace(/[^\t\n\x20-\x7e\u00a0-\uffff]/g, '.').trimEnd()

export interface ToolResult { ok: boolean; lines: string[] }

/** Runs one tool; `t` translates a line template. */
export async function runTool(tool: ToolName, input: ToolInput, t: (text: string, vars?: Record<string, string | number>) => string): Promise<ToolResult> {
  const signal = AbortSignal.timeout(RUN_DEADLINE_MS)
  const timeoutMs = input.timeout * 1000
  const lines: string[] = []
  let address = input.dest_ip.replace(/^\[|\]$/g, '')
  if (!isIP(address)) {
    try {
      address = (await lookup(address)).address
    } catch {
      return { ok: false, lines: [t('Cannot resolve the host name {host}', { host: input.dest_ip })] }
    }
  }
  if (tool === 'ping') {
    const port = input.dest_port ?? 22
    lines.push(t('TCP ping {host} ({address}) port {port}:', { host: input.dest_ip, address, port }))
    let ok = 0
    const times: number[] = []
    for (let i = 1; i <= (input.count ?? 4) && !signal.aborted; i++) {
      const r = await probe(address, port, timeoutMs, signal)
      if (r.ok) { ok++; times.push(r.ms); lines.push(t('seq={seq} connected time={ms} ms', { seq: i, ms: r.ms })) }
      else lines.push(t('seq={seq} failed: {error}', { seq: i, error: r.error ?? '' }))
    }
    const n = input.count ?? 4
    lines.push(t('{sent} sent, {ok} connected, {loss}% loss', { sent: n, ok, loss: Math.round(((n - ok) / n) * 100) }))
    if (times.length) lines.push(t('min/avg/max = {min}/{avg}/{max} ms', { min: Math.min(...times), avg: Math.round((times.reduce((a, b) => a + b, 0) / times.length) * 10) / 10, max: Math.max(...times) }))
    return { ok: ok > 0, lines }
  }
  if (tool === 'telnet') {
    const port = input.dest_port ?? 23
    lines.push(t('Trying {address} port {port}...', { address, port }))
    const r = await probe(address, port, timeoutMs, signal, true)
    if (!r.ok) return { ok: false, lines: [...lines, t('Connection failed: {error}', { error: r.error ?? '' })] }
    lines.push(t('Connected to {address} port {port} in {ms} ms', { address, port, ms: r.ms }))
    if (r.banner) lines.push(printable(r.banner))
    return { ok: true, lines }
  }
  const ports = input.dest_ports ?? []
  lines.push(t('Scanning {count} port(s) of {host} ({address})', { count: ports.length, host: input.dest_ip, address }))
  const open: number[] = []
  let next = 0
  await Promise.all(Array.from({ length: Math.min(SCAN_CONCURRENCY, ports.length) }, async () => {
    while (next < ports.length && !signal.aborted) {
      const port = ports[next++]!
      if ((await probe(address, port, timeoutMs, signal)).ok) open.push(port)
    }
  }))
  open.sort((a, b) => a - b)
  for (const p of open) lines.push(t('{port}/tcp open', { port: p }))
  if (signal.aborted) lines.push(t('Stopped after {s} seconds', { s: RUN_DEADLINE_MS / 1000 }))
  lines.push(t('{open} open, {closed} closed or filtered', { open: open.length, closed: ports.length - open.length }))
  return { ok: open.length > 0, lines }
}
