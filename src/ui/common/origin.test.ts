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

  it('returns to another page it was opened from; its own list and detail keep the default', () => {
    const list = '/console/accounts/accounts'
    expect(formExit('/console/assets/assets/7?activeTab=Accounts', list, 'list')).toEqual({ href: '/console/assets/assets/7?activeTab=Accounts', toList: false })
    expect(formExit('/ui/console/assets/assets/7', list, 'detail')).toEqual({ href: '/console/assets/assets/7', toList: false })
    expect(formExit(`${list}?order=name`, list, 'list')).toEqual({ toList: true })
    expect(formExit(`${list}/9`, list, 'detail')).toEqual({ toList: false })
    expect(formExit(undefined, list, 'list')).toEqual({ toList: true })
    // a list whose path only starts like this one's is another page
    expect(formExit('/console/accounts/accounts-templates', list, 'list').href).toBe('/console/accounts/accounts-templates')
  })
})
