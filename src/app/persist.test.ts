import Cookies from 'js-cookie'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ORG_COOKIE, writePersisted } from './persist.ts'

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
