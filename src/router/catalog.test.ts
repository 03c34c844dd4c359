import { describe, expect, it } from 'vitest'
// Tests may import both sides (architecture: layer rules); this one checks the console against the server's catalogue.
import { PERMISSIONS } from '../../server/rbac/catalog.ts'
import { actionOfPath, resourceOfSegment } from './build.ts'
import { ROUTES, pathOf, routeByName, routesOfView, viewRoot } from './catalog.ts'

describe('route catalogue', () => {
  it('has unique names and unique paths', () => {
    const names = ROUTES.map((r) => r.name)
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([])
    const paths = ROUTES.filter((r) => r.kind !== 'link').map((r) => r.path)
    expect(paths.filter((p, i) => paths.indexOf(p) !== i)).toEqual([])
  })

  it('covers the whole tree of console-behaviour §3', () => {
    expect(ROUTES.length).toBeGreaterThan(200)
    for (const name of [
      'UserList', 'UserCreate', 'UserUpdate', 'UserDetail', 'UserLoginACLList', 'RoleList', 'AssetMoreInformationEdit',
      'CloudsPlatformList', 'GatewayCreate', 'SyncInstanceTaskDetail', 'AssetAccountList', 'AccountList',
      'AccountGatherTaskExecutionList', 'AccountBackupPlanCreate', 'AccountPushExecutionDetail', 'CommandGroupList',
      'SessionList', 'CommandList', 'FtpLog', 'JobExecutionLog', 'MyHome', 'MyAssets', 'QuickJob', 'AdhocCreate',
      'PlaybookDetail', 'MyTicketList', 'FlowDetail', 'SystemSetting', 'CreateReplayStorage', 'CreateCommandStorage',
      'UpdateEndpointRule', 'AppletHostUpdate', 'OrganizationCreate', 'OrganizationList', 'License', 'TaskDetail',
      'ProfileImprovement', 'TempPassword', 'ConnectionToken', 'CeleryTaskLog', 'NotFound', 'LegacySessionDetail',
    ]) {
      expect(routeByName(name), name).toBeDefined()
    }
  })

  it('gives every route a translatable title (a Lingui message descriptor)', () => {
    for (const r of ROUTES) {
      expect(typeof r.title.id, r.name).toBe('string')
      expect(r.title.id.length, r.name).toBeGreaterThan(0)
      expect(typeof r.title.message, r.name).toBe('string')
      expect(r.title.message!.length, r.name).toBeGreaterThan(0)
    }
  })

  it('names every permission the server knows (server/rbac/catalog.ts)', () => {
    const known = new Set(PERMISSIONS.map((p) => p.codename))
    const unknown = ROUTES.flatMap((r) => r.permissions.flatMap((req) => req.split('|'))).filter((c) => !known.has(c))
    expect([...new Set(unknown)]).toEqual([])
  })

  // Where the create/update/detail pages of a list are not named `<X>List` → `<X>Create`, the reference's names
  // are kept on purpose (backend and luna links use them); they are listed here so a rename is noticed.
  const BASE_EXCEPTIONS: Record<string, string> = {
    AccountGatherList: 'AccountGatherTask',
    AccountBackupList: 'AccountBackupPlan',
  }
  const CHILD_EXCEPTIONS: Record<string, string> = { AssetMoreInformationEdit: 'AssetList' }

  it('names the create/update/detail pages of a list after it', () => {
    for (const list of ROUTES.filter((r) => r.name.endsWith('List') && r.kind === 'page')) {
      const children = ROUTES.filter((r) => r.parent === list.name && r.kind === 'page')
      const base = BASE_EXCEPTIONS[list.name] ?? list.name.replace(/List$/, '')
      for (const action of ['create', 'update', 'retrieve'] as const) {
        const child = children.find((c) => c.action === action && !c.path.includes('/executions'))
        if (!child || CHILD_EXCEPTIONS[child.name] === list.name) continue
        const expected = base + { create: 'Create', update: 'Update', retrieve: 'Detail' }[action]
        expect(child.name, `${list.name} → ${action}`).toBe(expected)
        expect(child.activeMenu, child.name).toBe(list.activeMenu)
      }
    }
  })

  it('derives the CRUD action from the path (spec 000 §2.1)', () => {
    expect(actionOfPath('/console/users/users')).toBe('list')
    expect(actionOfPath('/console/users/users/create')).toBe('create')
    expect(actionOfPath('/console/users/users/:id/update')).toBe('update')
    expect(actionOfPath('/x/:id/delete')).toBe('destroy')
    expect(actionOfPath('/console/users/users/:id')).toBe('retrieve')
    expect(resourceOfSegment('account-template')).toBe('accounttemplate')
    expect(resourceOfSegment('cmd-acls')).toBe('cmdacl')
    expect(routeByName('UserDetail')).toMatchObject({ level: 4, type: 'crud', view: 'console', app: 'users', resource: 'user', action: 'retrieve' })
  })

  it('redirects the view roots (spec 001 §2)', () => {
    expect(viewRoot('console').redirect).toBe('/console/dashboard')
    expect(viewRoot('audit').redirect).toBe('/audit/dashboard')
    expect(viewRoot('workbench').redirect).toBe('/workbench/home')
    expect(viewRoot('tickets').redirect).toBe('/tickets/my-tickets')
    expect(viewRoot('settings').redirect).toBe('/settings/basic')
    expect(viewRoot('profile').redirect).toBe('/profile/info')
    expect(routeByName('Users')!.redirect).toBe('/console/users/users')
    expect(routeByName('SystemSetting')!.path).toBe('/settings')
  })

  it('keeps the reference paths users and links rely on', () => {
    expect(pathOf('UserDetail', { id: 'a b' })).toBe('/console/users/users/a%20b')
    expect(pathOf('CommandList')).toBe('/audit/sessions/command')
    expect(pathOf('AccountTemplateList')).toBe('/console/accounts/account-template')
    expect(pathOf('LoginLogDetail', { id: '1' })).toBe('/audit/audits/login-logs/1')
    expect(pathOf('AdhocCreate')).toBe('/workbench/ops/adhoc/create')
    expect(pathOf('AccountDetail', { id: 'x' })).toBe('/console/assets/cloud/account/x')
  })

  it('decides the reference\u2019s permission oddities deliberately (docs/shell.md)', () => {
    expect(routeByName('GatewayCreate')!.permissions).toEqual(['assets.add_gateway'])
    expect(routeByName('PlatformUpdate')!.permissions).toEqual(['assets.change_platform'])
    expect(routeByName('RoleCreate')!.permissions).toEqual(['rbac.add_orgrole|rbac.add_systemrole'])
    expect(routeByName('JobExecutionLog')!.permissions).toEqual(['audits.view_jobauditlog'])
    expect(routeByName('SyncInstanceTaskDetail')!.permissions).toEqual(['xpack.view_syncinstancetask'])
    expect(routeByName('AppletDetail')!.permissions).toEqual(['settings.view_setting', 'terminal.view_applet'])
  })

  it('inherits container permissions, licence and switches, but not a list\u2019s permissions', () => {
    expect(routeByName('FlowDetail')!.permissions).toEqual(['tickets.view_ticket', 'tickets.view_ticketflow'])
    expect(routeByName('FlowDetail')!.licenseRequired).toBe(true)
    expect(routeByName('License')!.permissions).toEqual(['settings.view_setting', 'settings.change_license'])
    expect(routeByName('UserCreate')!.permissions).toEqual(['users.add_user'])
    expect(routeByName('RoleCreate')!.licenseRequired).toBe(true)
    expect(routeByName('UserCreate')!.hidden).toBe(true)
    expect(routeByName('UserList')!.hidden).toBe(false)
    expect(routeByName('JobDetail')!.available({ settings: { SECURITY_COMMAND_EXECUTION: false } })).toBe(false)
    expect(routeByName('JobDetail')!.available({ settings: {} })).toBe(true)
    expect(routeByName('TempPassword')!.available({ settings: { AUTH_TEMP_TOKEN: true } })).toBe(true)
    expect(routeByName('TempPassword')!.available({ settings: {} })).toBe(false)
  })

  it('shows the organization switcher only in console, audit and workbench', () => {
    for (const r of ROUTES) {
      if (r.view === 'console' || r.view === 'audit' || r.view === 'workbench') expect(r.showOrganization, r.name).toBe(true)
      else expect(r.showOrganization, r.name).toBe(false)
    }
  })

  it('lists a view\u2019s routes', () => {
    expect(routesOfView('audit').every((r) => r.path.startsWith('/audit'))).toBe(true)
  })
})
