/**
 * The network scan (docs/cloud.md): IPv4 ranges, the allowed-networks check and the TCP probe.
 *
 * A scan is a network probe sent from the server, so every address is checked against the administrator's
 * `CLOUD_SCAN_ALLOWED_NETWORKS` (default: loopback only) before the first packet; a range that reaches outside
 * is refused whole. Probes are bounded: at most MAX_ADDRESSES addresses per scan, `parallel` addresses at once,
 * and per port a connect timeout and a banner wait.
 */
import { Socket } from 'node:net'

export const MAX_ADDRESSES = 4096
export const DEFAULT_ALLOWED = ['127.0.0.0/8']

const ipv4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/

export function ipToInt(ip: string): number | undefined {
  const m = ipv4.exec(ip.trim())
  if (!m) return undefined
  const parts = m.slice(1).map(Number)
  if (parts.some((p) => p > 255)) return undefined
  return ((parts[0]! << 24) >>> 0) + (parts[1]! << 16) + (parts[2]! << 8) + parts[3]!
}

export const intToIp = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.')

/** One entry (address, `a.b.c.d/n`, `a.b.c.d-e.f.g.h`) as an inclusive range; undefined when it is not one. */
export function parseRange(entry: string): { from: number; to: number } | undefined {
  const s = entry.trim()
  if (s.includes('/')) {
    const [ip, bits] = s.split('/')
    const base = ipToInt(ip!)
    const n = Number(bits)
    if (base === undefined || !/^\d{1,2}$/.test(bits ?? '') || n > 32) return undefined
    const mask = n === 0 ? 0 : (0xffffffff << (32 - n)) >>> 0
    const from = (base & mask) >>> 0
    return { from, to: (from + (2 ** (32 - n) - 1)) >>> 0 }
  }
  if (s.includes('-')) {
    const [a, b] = s.split('-')
    const from = ipToInt(a!)
    const to = ipToInt(b!)
    if (from === undefined || to === undefined || to < from) return undefined
    return { from, to }
  }
  const one = ipToInt(s)
  return one === undefined ? undefined : { from: one, to: one }
}

/** Is every address of `range` inside one of the allowed entries ('*' allows everything)? */
export function rangeAllowed(range: { from: number; to: number }, allowed: readonly string[]): boolean {
  if (allowed.includes('*')) return true
  // the allowed ranges, merged, must cover [from, to]
  const spans = allowed.map(parseRange).filter((r): r is { from: number; to: number } => !!r).sort((x, y) => x.from - y.from)
  let next = range.from
  for (const s of spans) {
    if (s.from > next) break
    if (s.to >= next) next = s.to + 1
    if (next > range.to) return true
  }
  return next > range.to
}

/**
 * The addresses of the regions, checked: `bad` names entries that are not ranges, `outside` those reaching
 * outside the allowed networks, `tooMany` a total over MAX_ADDRESSES. No address is returned unless all pass.
 */
export function planAddresses(regions: readonly string[], allowed: readonly string[]): { addresses: string[]; bad: string[]; outside: string[]; tooMany: boolean } {
  const bad: string[] = []
  const outside: string[] = []
  const ranges: Array<{ from: number; to: number }> = []
  let total = 0
  for (const r of regions) {
    const range = parseRange(r)
    if (!range) { bad.push(r); continue }
    if (!rangeAllowed(range, allowed)) { outside.push(r); continue }
    total += range.to - range.from + 1
    ranges.push(range)
  }
  const tooMany = total > MAX_ADDRESSES
  if (bad.length || outside.length || tooMany) return { addresses: [], bad, outside, tooMany }
  const seen = new Set<string>()
  for (const r of ranges) for (let n = r.from; n <= r.to; n++) seen.add(intToIp(n))
  return { addresses: [...seen], bad, outside, tooMany }
}

export interface PortAnswer { port: number; banner: string }

/** Connects to host:port; resolves with the first line the server sends (within bannerMs) or '' — undefined when closed. */
export function probePort(host: string, port: number, o: { connectMs: number; bannerMs: number; signal?: AbortSignal }): Promise<PortAnswer | undefined> {
  return new Promise((resolve) => {
    const sock = new Socket()
    let done = false
    let data = ''
    let bannerTimer: NodeJS.Timeout | undefined
    const finish = (v: PortAnswer | undefined) => {
      if (done) return
      done = true
      clearTimeout(connectTimer)
      clearTimeout(bannerTimer)
      o.signal?.removeEventListener('abort', onAbort)
      sock.destroy()
      resolve(v)
    }
    const onAbort = () => finish(undefined)
    o.signal?.addEventListener('abort', onAbort, { once: true })
    const connectTimer = setTimeout(() => finish(undefined), o.connectMs)
    sock.once('error', () => finish(data || bannerTimer ? { port, banner: data.split(/\r?\n/)[0]! } : undefined))
    sock.on('data', (d: Buffer) => {
      data = (data + d.toString('latin1')).slice(0, 256)
      if (/\r?\n/.test(data)) finish({ port, banner: data.split(/\r?\n/)[0]! })
    })
    sock.once('close', () => finish(bannerTimer ? { port, banner: data.split(/\r?\n/)[0] ?? '' } : undefined))
    sock.connect(port, host, () => {
      clearTimeout(connectTimer)
      bannerTimer = setTimeout(() => finish({ port, banner: data.split(/\r?\n/)[0] ?? '' }), o.bannerMs)
    })
  })
}

/** Runs `work` over `items`, at most `parallel` at once, keeping the order of the results. */
export async function mapBounded<T, R>(items: readonly T[], parallel: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length)
  let i = 0
  const worker = async () => {
    while (i < items.length) {
      const k = i++
      out[k] = await work(items[k]!)
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(parallel, items.length)) }, worker))
  return out
}
