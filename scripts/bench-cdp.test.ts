import { describe, expect, it } from 'vitest'
import { cdpCookie, localStorageScript } from './bench-cdp.ts'

describe('the benchmark\'s devtools-only first visits', () => {
  it('hands a stored cookie to the protocol, a session cookie without an expiry', () => {
    const base = { name: 'sessionid', value: 'v', domain: '127.0.0.1', path: '/', httpOnly: true, secure: false, sameSite: 'Lax' as const }
    expect(cdpCookie({ ...base, expires: -1 })).toEqual(base)
    expect(cdpCookie({ ...base, expires: 1_900_000_000 })).toEqual({ ...base, expires: 1_900_000_000 })
  })

  it('puts the stored items back only on their own origin', () => {
    const script = localStorageScript('http://127.0.0.1:1234', [{ name: 'viewSwitcherTip', value: '1' }, { name: 'a"b', value: '</script>' }])
    const run = (origin: string) => {
      const stored = new Map<string, string>()
      new Function('location', 'localStorage', script)({ origin }, { setItem: (k: string, v: string) => stored.set(k, v) })
      return stored
    }
    expect([...run('http://127.0.0.1:1234')]).toEqual([['viewSwitcherTip', '1'], ['a"b', '</script>']])
    expect(run('http://127.0.0.1:9999').size).toBe(0)
  })
})
