/**
 * IP rules as JumpServer's security settings write them (SECURITY_LOGIN_IP_WHITE_LIST / _BLACK_LIST, ACLs):
 * `*`, a single address, a CIDR subnet (`10.0.0.0/8`, `fd00::/8`) or a range (`10.1.1.1-10.1.1.20`).
 * IPv4-mapped IPv6 addresses (`::ffff:1.2.3.4`) count as their IPv4 address. Unparsable rules never match.
 */
import { BlockList, isIP } from 'node:net'

export function normalizeIp(ip: string): string {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip.trim())
  return m ? m[1]! : ip.trim()
}

const family = (ip: string) => (isIP(ip) === 6 ? 'ipv6' : 'ipv4')

function addRule(list: BlockList, rule: string): boolean {
  const r = rule.trim()
  if (!r) return false
  if (r === '*') return true
  try {
    if (r.includes('/')) {
      const [net, bits] = r.split('/')
      const addr = normalizeIp(net!)
      const prefix = Number(bits)
      if (!isIP(addr) || !Number.isInteger(prefix)) return false
      list.addSubnet(addr, prefix, family(addr))
    } else if (r.includes('-')) {
      const [a, b] = r.split('-').map((x) => normalizeIp(x))
      if (!a || !b || !isIP(a) || isIP(a) !== isIP(b)) return false
      list.addRange(a, b, family(a))
    } else {
      const addr = normalizeIp(r)
      if (!isIP(addr)) return false
      list.addAddress(addr, family(addr))
    }
  } catch {
    return false // e.g. a range whose start is after its end
  }
  return false
}

/** Does `ip` match any of the rules? */
export function ipMatches(ip: string, rules: unknown): boolean {
  const list = Array.isArray(rules) ? rules : typeof rules === 'string' ? rules.split(/[\s,]+/) : []
  const addr = normalizeIp(ip)
  if (!isIP(addr)) return false
  const blocks = new BlockList()
  for (const rule of list) {
    if (typeof rule === 'string' && addRule(blocks, rule)) return true
  }
  return blocks.check(addr, family(addr))
}
