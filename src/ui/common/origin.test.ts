import { describe, expect, it } from 'vitest'
import { formExit, originOf, recordOrigin } from './origin.ts'

const at = (href: string, key?: string) => ({ href, pathname: href.split('?')[0]!, state: key ? { __TSR_key: key } : {} })

describe('a form goes back where it was opened (issue 35)', () => {
  it('records the page each history entry was first reached from; back and forward keep it', () => {
    recordOrigin({ fromLocation: at('/console/assets/assets/7?activeTab=Accounts'), toLocation: at('/console/accounts/accounts/create?asset=7', 'k1'), pathChanged: true })
    // coming back to the same entry later (forward) does not change where it came from
    recordOrigin({ fromLocation: at('/console/users/users'), toLocation: at('/console/accounts/accounts/create?asset=7', 'k1'), pathChanged: true })
    expect(originOf({ __TSR_key: 'k1' })).toBe('/console/assets/assets/7?activeTab=Accounts')
    // a search change on one page is no arrival
    recordOrigin({ fromLocation: at('/a?x=1'), toLocation: at('/a?x=2', 'k2'), pathChanged: false })
    expect(originOf({ __TSR_key: 'k2' })).toBeUndefined()
    expect(originOf({})).toBeUndefined()
  })

  it('returns to another object’s page it was opened from; lists, its own pages and unknown origins keep the default', () => {
    const list = '/console/accounts/accounts'
    const asset = '/console/assets/assets/0b6e2c1a-6f0e-4a52-9d0b-3c1f8f7a2e11'
    expect(formExit(`${asset}?activeTab=Accounts`, list, 'list')).toEqual({ href: `${asset}?activeTab=Accounts`, toList: false })
    expect(formExit(`/ui${asset}`, list, 'detail')).toEqual({ href: asset, toList: false })
    expect(formExit('/console/assets/platforms/7', list, 'list').href).toBe('/console/assets/platforms/7')
    expect(formExit(`${list}?order=name`, list, 'list')).toEqual({ toList: true })
    expect(formExit(`${list}/9`, list, 'detail')).toEqual({ toList: false })
    expect(formExit(undefined, list, 'list')).toEqual({ toList: true })
    // another list (the all-assets list's Create menu opens a host form): the new host is shown in its own list
    expect(formExit('/console/assets/assets?node_id=1', '/console/assets/hosts', 'list')).toEqual({ toList: true })
  })
})
