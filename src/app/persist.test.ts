import Cookies from 'js-cookie'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { SESSION_MARK_COOKIE } from '../../machines/index.ts'
import { ORG_COOKIE, refreshMarkWhenIdle, writePersisted } from './persist.ts'

const org = (id: string) => ({ id, name: id, is_default: false, is_root: false })

describe('writePersisted', () => {
  afterEach(() => {
    Cookies.remove(ORG_COOKIE, { path: '/' })
    vi.restoreAllMocks()
  })

  it('writes the organization cookie only when it changes (a JS cookie write makes the next read a call to the browser)', () => {
    const set = vi.spyOn(Cookies, 'set')
    const payload = { username: 'ann', currentOrg: org('00000000-0000-0000-0000-000000000002'), previousOrg: null, lastView: 'console' as const }
    writePersisted(payload)
    expect(Cookies.get(ORG_COOKIE)).toBe('00000000-0000-0000-0000-000000000002')
    expect(set).toHaveBeenCalledTimes(1)
    writePersisted(payload)
    expect(set).toHaveBeenCalledTimes(1)
    writePersisted({ ...payload, currentOrg: org('00000000-0000-0000-0000-000000000004') })
    expect(set).toHaveBeenCalledTimes(2)
    expect(Cookies.get(ORG_COOKIE)).toBe('00000000-0000-0000-0000-000000000004')
    expect(localStorage.getItem('jms_current_org_ann')).toContain('00000000-0000-0000-0000-000000000004')
  })

  it('writes to local storage only what changed (a page\'s first storage write waits on the browser)', () => {
    localStorage.clear()
    const setItem = vi.spyOn(Storage.prototype, 'setItem')
    const removeItem = vi.spyOn(Storage.prototype, 'removeItem')
    const payload = { username: 'bob', currentOrg: org('00000000-0000-0000-0000-000000000002'), previousOrg: null, lastView: 'console' as const }
    writePersisted(payload)
    expect(setItem.mock.calls.map(([key]) => key).sort()).toEqual(['PreView', 'jms_current_org_bob'])
    expect(removeItem).not.toHaveBeenCalled() // no previous organization stored: nothing to remove
    setItem.mockClear()
    writePersisted(payload)
    expect(setItem).not.toHaveBeenCalled()
    writePersisted({ ...payload, previousOrg: org('00000000-0000-0000-0000-000000000004'), lastView: 'audit' })
    expect(setItem.mock.calls.map(([key]) => key).sort()).toEqual(['PRE_ORG_bob', 'PreView'])
    expect(localStorage.getItem('PreView')).toBe('audit')
  })
})

describe('refreshMarkWhenIdle', () => {
  const params = { name: SESSION_MARK_COOKIE, value: 'close', expiresInMs: 120_000 } as const
  afterEach(() => {
    Cookies.remove(SESSION_MARK_COOKIE, { path: '/' })
    vi.restoreAllMocks()
  })

  it('rewrites the mark when the page is idle, not before', async () => {
    Cookies.set(SESSION_MARK_COOKIE, 'close', { path: '/' })
    const set = vi.spyOn(Cookies, 'set')
    let idle!: () => void
    const done = refreshMarkWhenIdle(params, () => new Promise<void>((resolve) => (idle = resolve)))
    await Promise.resolve()
    expect(set).not.toHaveBeenCalled() // the first rows' cookie reads stay served by the page's own copy
    idle()
    await done
    expect(set).toHaveBeenCalledWith(SESSION_MARK_COOKIE, 'close', expect.objectContaining({ path: '/', expires: expect.any(Date) }))
    const expires = (set.mock.calls[0]![2] as { expires: Date }).expires.getTime() - Date.now()
    expect(expires).toBeGreaterThan(110_000)
    expect(expires).toBeLessThanOrEqual(120_000)
  })

  it('does not write back a mark that is gone by then (a logout cleared it)', async () => {
    const set = vi.spyOn(Cookies, 'set')
    await refreshMarkWhenIdle(params, async () => undefined)
    expect(set).not.toHaveBeenCalled()
    expect(Cookies.get(SESSION_MARK_COOKIE)).toBeUndefined()
  })
})
