import { msg } from '@lingui/core/macro'
import { describe, expect, it } from 'vitest'
import { readSidebarCookie } from './sidebar.ts'
import { addTab, closeAllTabs, closeOtherTabs, closeTab, loadTabs, MAX_TABS, replaceTab, saveTabs, scrollToShow, tabKey, tabsOfView, withAffix, type VisitedTab } from './tabs.ts'
import { licenseWarnings, parseServerDate, passwordWarning } from './warnings.ts'

const tab = (href: string, affix = false): VisitedTab => ({ href, name: href, title: msg`Page`, affix })

describe('visited tabs', () => {
  it('adds once, refreshes in place, and keeps the affix flag', () => {
    let tabs = addTab([], tab('/console/dashboard', true))
    tabs = addTab(tabs, tab('/a'))
    tabs = addTab(tabs, tab('/console/dashboard'))
    expect(tabs.map((t) => [t.href, t.affix])).toEqual([['/console/dashboard', true], ['/a', false]])
  })

  it('drops the oldest unaffixed tab past the limit', () => {
    let tabs = [tab('/home', true)]
    for (let i = 0; i < MAX_TABS + 3; i++) tabs = addTab(tabs, tab(`/p${i}`))
    expect(tabs).toHaveLength(MAX_TABS)
    expect(tabs[0]!.href).toBe('/home')
    expect(tabs[1]!.href).toBe('/p4')
  })

  it('closes a tab and moves to its neighbour when it was active', () => {
    const tabs = [tab('/home', true), tab('/a'), tab('/b'), tab('/c')]
    expect(closeTab(tabs, '/b', '/b')).toEqual({ tabs: [tabs[0], tabs[1], tabs[3]], goTo: '/c' })
    expect(closeTab(tabs, '/c', '/c').goTo).toBe('/b')
    expect(closeTab(tabs, '/a', '/c')).toEqual({ tabs: [tabs[0], tabs[2], tabs[3]], goTo: null })
    expect(closeTab(tabs, '/home', '/home').tabs).toHaveLength(4)
  })

  it('closes the others and all, keeping affixed ones', () => {
    const tabs = [tab('/home', true), tab('/a'), tab('/b')]
    expect(closeOtherTabs(tabs, '/b').map((t) => t.href)).toEqual(['/home', '/b'])
    expect(closeAllTabs(tabs).map((t) => t.href)).toEqual(['/home'])
  })
})

describe('a bounded strip per view (issue 35)', () => {
  const at = (view: string) => (href: string, affix = false): VisitedTab => ({ ...tab(href, affix), view })
  const consoleTab = at('console')
  const auditTab = at('audit')

  it('keeps each view’s tabs in its own strip, with its own affixed home', () => {
    let tabs = withAffix(addTab([], consoleTab('/console/users')), consoleTab('/console/dashboard', true))
    tabs = withAffix(addTab(tabs, auditTab('/audit/logs')), auditTab('/audit/dashboard', true))
    expect(tabsOfView(tabs, 'console').map((t) => [t.href, t.affix])).toEqual([['/console/dashboard', true], ['/console/users', false]])
    expect(tabsOfView(tabs, 'audit').map((t) => [t.href, t.affix])).toEqual([['/audit/dashboard', true], ['/audit/logs', false]])
    // closing all in one view leaves the other's strip alone
    expect(tabsOfView(closeAllTabs(tabs, 'audit'), 'console')).toHaveLength(2)
    expect(tabsOfView(closeAllTabs(tabs, 'audit'), 'audit').map((t) => t.href)).toEqual(['/audit/dashboard'])
    expect(closeOtherTabs(tabs, '/audit/logs').map((t) => t.href)).toEqual(tabs.map((t) => t.href))
    // the active tab's neighbour is found in its own strip
    expect(closeTab(tabs, '/console/users', '/console/users').goTo).toBe('/console/dashboard')
  })

  it('holds at most MAX_TABS per view, dropping the page visited least recently', () => {
    let tabs = [consoleTab('/home', true)]
    for (let i = 0; i < MAX_TABS - 1; i++) tabs = addTab(tabs, consoleTab(`/p${i}`))
    tabs = addTab(tabs, consoleTab('/p0')) // visited again: now the most recent
    tabs = addTab(tabs, auditTab('/audit/x')) // another view's strip does not count
    tabs = addTab(tabs, consoleTab('/new'))
    const strip = tabsOfView(tabs, 'console').map((t) => t.href)
    expect(strip).toHaveLength(MAX_TABS)
    expect(strip).toContain('/p0')
    expect(strip).not.toContain('/p1')
    expect(tabsOfView(tabs, 'audit')).toHaveLength(1)
  })

  it('never brings back the 404 page from storage', () => {
    const storage = { getItem: () => JSON.stringify([{ href: '/404', name: 'NotFound' }, { href: '/a', name: 'A', view: 'console' }]) }
    expect(loadTabs(storage, () => msg`A`).map((t) => [t.href, t.view])).toEqual([['/a', 'console']])
  })
})

describe('one tab per page (issue 17, defect 4)', () => {
  it('keys a tab by its path: sort, page size, search and filters do not open another tab', () => {
    expect(tabKey('/console/users/users?order=-name&limit=30')).toBe('/console/users/users')
    expect(tabKey('/console/users/users/')).toBe('/console/users/users')
    expect(tabKey('/')).toBe('/')
    let tabs = addTab([tab('/console/dashboard', true)], tab('/console/users/users'))
    for (const href of ['/console/users/users?order=name', '/console/users/users?order=-name&limit=30', '/console/users/users?search=bob', '/console/users/users?order=-date_updated']) {
      tabs = addTab(tabs, tab(href))
    }
    expect(tabs.map((t) => t.href)).toEqual(['/console/dashboard', '/console/users/users?order=-date_updated'])
    // Another object is another page.
    expect(addTab(tabs, tab('/console/users/users/1')).map((t) => t.href)).toHaveLength(3)
  })

  it('closes, keeps and affixes by page, whatever the search', () => {
    const tabs = [tab('/home', true), tab('/a?x=1'), tab('/b')]
    expect(closeTab(tabs, '/a?x=1', '/a?x=2')).toEqual({ tabs: [tabs[0], tabs[2]], goTo: '/b' })
    expect(closeOtherTabs(tabs, '/b?y=1').map((t) => t.href)).toEqual(['/home', '/b'])
    expect(withAffix(tabs, tab('/home?tab=1')).map((t) => t.affix)).toEqual([true, false, false])
  })

  it('a replacing navigation (save) closes the form’s tab: into an open list tab, or in its place', () => {
    const open = [tab('/home', true), tab('/users'), tab('/users/create'), tab('/groups')]
    expect(replaceTab(open, '/users/create', tab('/users?order=-date_updated')).map((t) => t.href)).toEqual(['/home', '/users?order=-date_updated', '/groups'])
    const fresh = [tab('/home', true), tab('/users/create'), tab('/groups')]
    expect(replaceTab(fresh, '/users/create', tab('/users/7')).map((t) => t.href)).toEqual(['/home', '/users/7', '/groups'])
    // Same page (a list's own replace), or an affixed one left: nothing closes.
    expect(replaceTab(open, '/users', tab('/users?page=2')).map((t) => t.href)).toEqual(['/home', '/users?page=2', '/users/create', '/groups'])
    expect(replaceTab(open, '/home', tab('/groups?x=1')).map((t) => t.href)).toEqual(['/home', '/users', '/users/create', '/groups?x=1'])
  })

  it('stored duplicates of a page load as one tab', () => {
    const storage = { getItem: () => JSON.stringify([{ href: '/a', name: 'A' }, { href: '/a?order=x', name: 'A' }]) }
    expect(loadTabs(storage, () => msg`A`).map((t) => t.href)).toEqual(['/a?order=x'])
  })

  it('scrolls the bar just enough to show the active tab', () => {
    expect(scrollToShow(50, 100, 0, 300)).toBe(0)
    expect(scrollToShow(500, 100, 0, 300)).toBe(300)
    expect(scrollToShow(20, 100, 200, 300)).toBe(20)
    expect(scrollToShow(100, 500, 0, 300)).toBe(100)
  })
})

describe('affixed home and storage', () => {
  it('keeps the current view’s home first and affixed, other homes closable', () => {
    const tabs = withAffix([tab('/audit/dashboard', true), tab('/a')], tab('/console/dashboard'))
    expect(tabs.map((t) => [t.href, t.affix])).toEqual([['/console/dashboard', true], ['/audit/dashboard', false], ['/a', false]])
    expect(withAffix(tabs, tab('/a')).map((t) => t.affix)).toEqual([false, false, true])
  })

  it('survives a reload through storage, dropping unknown routes', () => {
    const store = new Map<string, string>()
    const storage = { setItem: (k: string, v: string) => store.set(k, v), getItem: (k: string) => store.get(k) ?? null }
    saveTabs(storage, [tab('/home', true), tab('/a')])
    const loaded = loadTabs(storage, (name) => (name === '/home' ? msg`Home` : undefined))
    expect(loaded.map((t) => [t.href, t.affix])).toEqual([['/home', true]])
    expect(loadTabs({ getItem: () => '{bad json' }, () => msg`x`)).toEqual([])
  })
})

describe('sidebar cookie', () => {
  it.each([[undefined, true], ['1', true], ['0', false]])('%s → open %s', (v, open) => {
    expect(readSidebarCookie(v as string | undefined)).toBe(open)
  })
})

describe('parseServerDate', () => {
  it.each([
    ['2023/05/09 14:36:56 +0800', '2023-05-09T06:36:56.000Z'],
    ['2023-05-09T06:36:56.000Z', '2023-05-09T06:36:56.000Z'],
    ['2023-05-09 14:36:56 +08:00', '2023-05-09T06:36:56.000Z'],
  ])('%s', (text, iso) => {
    expect(parseServerDate(text)!.toISOString()).toBe(iso)
  })
  it('rejects garbage', () => {
    expect(parseServerDate('soon')).toBeNull()
    expect(parseServerDate(null)).toBeNull()
  })
})

describe('licence warnings (spec 000 §4.1, §9)', () => {
  const now = new Date('2024-06-01T00:00:00Z')
  const base = { canManageLicense: true, xpackEnabled: true }
  const lic = (date_expired: string, current = 10, limit = 100) => ({ date_expired, asset_count: limit, current_asset_count: current })
  it('needs the permission, XPACK and a licence', () => {
    expect(licenseWarnings({ ...base, canManageLicense: false, license: lic('2020-01-01') }, now)).toEqual([])
    expect(licenseWarnings({ ...base, xpackEnabled: false, license: lic('2020-01-01') }, now)).toEqual([])
    expect(licenseWarnings({ ...base, license: null }, now)).toEqual([])
  })
  it('warns when expired, expiring within 7 days, or over the asset limit', () => {
    expect(licenseWarnings({ ...base, license: lic('2024-05-31') }, now)).toEqual([{ kind: 'expired' }])
    expect(licenseWarnings({ ...base, license: lic('2024-06-05') }, now)).toMatchObject([{ kind: 'expiring', days: 4 }])
    expect(licenseWarnings({ ...base, license: lic('2024-06-09') }, now)).toEqual([])
    expect(licenseWarnings({ ...base, license: lic('2025-01-01', 101, 100) }, now)).toEqual([{ kind: 'assetLimit', count: 101, limit: 100 }])
  })
})

describe('password warning (spec 000 §4.1, §9)', () => {
  const now = new Date('2024-06-10T00:00:00Z')
  const facts = (lastUpdated: string, source = 'local', expirationDays = 30) => ({ source, lastUpdated, expirationDays })
  it('warns local users when 5 days or fewer remain', () => {
    expect(passwordWarning(facts('2024/05/16 00:00:00 +0000'), now)).toEqual({ kind: 'expiring', days: 5 })
    expect(passwordWarning(facts('2024/05/17 00:00:00 +0000'), now)).toBeNull()
    expect(passwordWarning(facts('2024/05/01 00:00:00 +0000'), now)).toEqual({ kind: 'expired' })
  })
  it('ignores other sources and missing data', () => {
    expect(passwordWarning(facts('2024/05/01 00:00:00 +0000', 'ldap'), now)).toBeNull()
    expect(passwordWarning({ source: 'local', lastUpdated: null, expirationDays: 30 }, now)).toBeNull()
  })
})
