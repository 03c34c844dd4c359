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
})
