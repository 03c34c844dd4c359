import { describe, expect, it } from 'vitest'
import { routeByName } from './catalog.ts'
import { decide, hashLinkTarget, type GuardState } from './guards.ts'
import { buildMenu, DEFAULT_OPEN_MENUS } from './menu.ts'
import { hasPermission } from './permissions.ts'

const ORG = { id: '00000000-0000-0000-0000-000000000002', name: 'DEFAULT', is_default: true, is_root: false }

function state(over: Partial<GuardState['profile']> = {}, rest: Partial<Omit<GuardState, 'profile'>> = {}): GuardState {
  return {
    profile: { id: 'u', username: 'u', perms: [], console_orgs: [], audit_orgs: [], workbench_orgs: [ORG], is_first_login: false, ...over },
    settings: {},
    hasValidLicense: true,
    lastView: null,
    ...rest,
  }
}
const admin = (rest: Partial<Omit<GuardState, 'profile'>> = {}) =>
  state({
    console_orgs: [ORG], audit_orgs: [ORG],
    perms: ['users.view_user', 'users.add_user', 'tickets.view_ticket', 'settings.view_setting', 'settings.change_license', 'rbac.view_orgrole', 'assets.view_asset', 'terminal.view_session'],
  }, rest)

describe('hasPermission (spec 000 §6)', () => {
  it.each([
    [['a'], ['a'], true],
    [['a'], ['b'], false],
    [['b'], ['a|b'], true],
    [['a'], ['a', 'b'], false],
    [['a', 'b'], ['a', 'b'], true],
    [[], [], true],
  ])('held %j, required %j → %s', (held, required, expected) => {
    expect(hasPermission(held, required)).toBe(expected)
    expect(hasPermission(new Set(held), required)).toBe(expected)
  })
})

describe('decide (spec 000 §2.2)', () => {
  const cases: [string, string, string, GuardState, ReturnType<typeof decide>][] = [
    ['home goes to the first allowed view', 'Home', '/', admin(), { kind: 'redirect', to: '/console/dashboard' }],
    ['home prefers the last-used view', 'Home', '/', admin({ lastView: 'audit' }), { kind: 'redirect', to: '/audit/dashboard' }],
    ['home ignores a last view no longer allowed', 'Home', '/', state({}, { lastView: 'console' }), { kind: 'redirect', to: '/workbench/home' }],
    ['no console orgs: workbench', 'AdminDashboard', '/console/dashboard', state(), { kind: 'redirect', to: '/workbench/home' }],
    ['first login goes to the improvement page', 'UserList', '/console/users/users', admin().profile.is_first_login ? admin() : { ...admin(), profile: { ...admin().profile, is_first_login: true } }, { kind: 'redirect', to: '/profile/improvement' }],
    ['first login may stay on the improvement page', 'ProfileImprovement', '/profile/improvement', { ...admin(), profile: { ...admin().profile, is_first_login: true } }, { kind: 'allow' }],
    ['a permitted page is allowed', 'UserList', '/console/users/users', admin(), { kind: 'allow' }],
    ['a page without permission is forbidden', 'UserUpdate', '/console/users/users/1/update', admin(), { kind: 'forbidden', reason: 'permission' }],
    ['a licence page without licence is forbidden', 'RoleList', '/console/users/roles', admin({ hasValidLicense: false }), { kind: 'forbidden', reason: 'license' }],
    ['tickets without licence: another view', 'MyTicketList', '/tickets/my-tickets', admin({ hasValidLicense: false }), { kind: 'redirect', to: '/console/dashboard' }],
    ['settings without view_setting: another view', 'Basic', '/settings/basic', state(), { kind: 'redirect', to: '/workbench/home' }],
    ['a switched-off feature does not exist', 'QuickJob', '/workbench/ops/quick-job', admin({ settings: { SECURITY_COMMAND_EXECUTION: false } }), { kind: 'notFound' }],
    ['a view root redirects', 'Console', '/console', admin(), { kind: 'redirect', to: '/console/dashboard' }],
    ['a group redirects to its first page', 'Users', '/console/users', admin(), { kind: 'redirect', to: '/console/users/users' }],
    ['the legacy session link keeps its id', 'LegacySessionDetail', '/terminal/sessions/abc', admin(), { kind: 'redirect', to: '/audit/sessions/sessions/abc', keepSearch: true }],
    ['the 404 page is always shown', 'NotFound', '/404', state(), { kind: 'allow' }],
    ['the profile is open to everyone', 'ProfileInfo', '/profile/info', state(), { kind: 'allow' }],
    ['hidden routes can still be reached', 'UserCreate', '/console/users/users/create', admin(), { kind: 'allow' }],
  ]
  it.each(cases)('%s', (_label, name, path, s, expected) => {
    expect(decide(routeByName(name)!, path, s)).toEqual(expected)
  })
})

describe('hashLinkTarget', () => {
  it.each([
    ['/', '#/console/users/users', '/console/users/users'],
    ['/', '#/audit/audits/login-logs/1?x=1', '/audit/audits/login-logs/1?x=1'],
    ['/', '', null],
    ['/', '#section', null],
    ['/console/users', '#/x', null],
  ])('%s %s → %s', (path, hash, expected) => {
    expect(hashLinkTarget(path, hash)).toBe(expected)
  })
})

describe('buildMenu (spec 000 §2.3)', () => {
  const titles = (entries: ReturnType<typeof buildMenu>) => entries.map((e) => e.name)

  it('builds groups from permitted, visible pages only', () => {
    const menu = buildMenu('console', admin())
    expect(titles(menu)).toEqual(['AdminDashboard', 'Users', 'Assets'])
    const users = menu.find((e) => e.name === 'Users')!
    expect(titles(users.children!)).toEqual(['UserList', 'RoleList'])
    expect(titles(menu.find((e) => e.name === 'Assets')!.children!)).toEqual(['AssetList'])
  })

  it('drops licence routes without a licence', () => {
    const users = buildMenu('console', admin({ hasValidLicense: false })).find((e) => e.name === 'Users')!
    expect(titles(users.children!)).toEqual(['UserList'])
  })

  it('drops switched-off groups and keeps external links', () => {
    const perms = ['ops.view_job', 'rbac.view_webterminal']
    expect(titles(buildMenu('workbench', state({ perms })))).toEqual(['MyHome', 'WebTerminal', 'JobCenter'])
    const off = buildMenu('workbench', state({ perms }, { settings: { SECURITY_COMMAND_EXECUTION: false } }))
    expect(titles(off)).toEqual(['MyHome', 'WebTerminal'])
    expect(off[1]).toMatchObject({ external: true, path: '/luna/' })
  })

  it('opens the audit log group by default (not the reference\u2019s missing /audit/logs)', () => {
    expect(DEFAULT_OPEN_MENUS).toContain('/audit/audits')
    expect(routeByName('Audits')!.path).toBe('/audit/audits')
  })
})
