import { describe, expect, it } from 'vitest'
import { ipMatches, normalizeIp } from './ip-match.ts'

describe('ipMatches', () => {
  it('matches single addresses, subnets, ranges and *', () => {
    expect(ipMatches('10.0.0.7', ['10.0.0.7'])).toBe(true)
    expect(ipMatches('10.0.0.8', ['10.0.0.7'])).toBe(false)
    expect(ipMatches('10.20.30.40', ['10.0.0.0/8'])).toBe(true)
    expect(ipMatches('11.0.0.1', ['10.0.0.0/8'])).toBe(false)
    expect(ipMatches('192.168.1.15', ['192.168.1.10-192.168.1.20'])).toBe(true)
    expect(ipMatches('192.168.1.21', ['192.168.1.10-192.168.1.20'])).toBe(false)
    expect(ipMatches('8.8.8.8', ['*'])).toBe(true)
    expect(ipMatches('fd00::1', ['fd00::/8'])).toBe(true)
  })
  it('treats IPv4-mapped IPv6 as IPv4 and ignores junk rules', () => {
    expect(normalizeIp('::ffff:127.0.0.1')).toBe('127.0.0.1')
    expect(ipMatches('::ffff:127.0.0.1', ['127.0.0.1'])).toBe(true)
    expect(ipMatches('127.0.0.1', ['not-an-ip', '', 42, '1.2.3.4/abc', '9.9.9.9-1.1.1.1'])).toBe(false)
    expect(ipMatches('127.0.0.1', undefined)).toBe(false)
    expect(ipMatches('127.0.0.1', '10.0.0.1, 127.0.0.1')).toBe(true)
  })
})
