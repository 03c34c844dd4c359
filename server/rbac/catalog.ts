/**
 * The permission catalogue (contract §7): `<app>.<action>_<model>` codenames, their scope and their
 * stable integer ids (position in this list, 1-based — the order is append-only).
 */

export type Scope = 'system' | 'org'

export interface PermissionDef {
  id: number
  codename: string // app.action_model
  app: string
  model: string
  action: string
  /** `system`: only system-scope roles may hold it. `both`: valid in either scope. */
  scope: 'system' | 'both'
}

const CRUD = ['view', 'add', 'change', 'delete'] as const

// [app, model, actions, systemOnly]
type Entry = [string, string, readonly string[], boolean?]

const ROWS: Entry[] = [
  ['rbac', 'menupermission', ['view_console', 'view_audit', 'view_workbench', 'view_webterminal', 'view_filemanager'].map((x) => x), false],
  ['users', 'user', [...CRUD, 'invite', 'match'], false],
  ['users', 'usergroup', CRUD, false],
  ['rbac', 'systemrole', CRUD, true],
  ['rbac', 'orgrole', CRUD, true],
  ['rbac', 'systemrolebinding', CRUD, true],
  ['rbac', 'orgrolebinding', CRUD, true],
  ['rbac', 'permission', ['view'], true],
  ['orgs', 'organization', CRUD, true],
  ['orgs', 'rootorg', ['view'], true],
  ['orgs', 'alljoinedorg', ['view'], false],
  ['assets', 'asset', [...CRUD, 'match', 'test_connectivity', 'refresh_hardwareinfo'], false],
  ['assets', 'node', [...CRUD, 'match'], false],
  ['assets', 'domain', CRUD, false],
  ['assets', 'gateway', [...CRUD, 'test_connectivity'], false],
  ['assets', 'platform', ['view'], false],
  ['assets', 'platform', ['add', 'change', 'delete'], true],
  ['assets', 'label', CRUD, false],
  ['assets', 'favoriteasset', CRUD, false],
  ['accounts', 'account', [...CRUD, 'verify', 'push'], false],
  ['accounts', 'accountsecret', ['view'], false],
  ['accounts', 'historyaccount', ['view'], false],
  ['accounts', 'accounttemplate', CRUD, false],
  ['accounts', 'accounttemplatesecret', ['view'], false],
  ['accounts', 'pushaccountautomation', CRUD, false],
  ['accounts', 'changesecretautomation', CRUD, false],
  ['accounts', 'gatheraccountsautomation', CRUD, false],
  ['accounts', 'accountbackupautomation', CRUD, false],
  ['accounts', 'gatheredaccount', CRUD, false],
  ['accounts', 'changesecretrecord', ['view'], false],
  ['accounts', 'automationexecution', ['view', 'add'], false],
  ['perms', 'assetpermission', CRUD, false],
  ['perms', 'myassets', ['view', 'connect'], false],
  ['perms', 'userassets', ['view'], false],
  ['perms', 'usergroupassets', ['view'], false],
  ['acls', 'loginacl', CRUD, false],
  ['acls', 'loginassetacl', CRUD, false],
  ['acls', 'commandfilteracl', CRUD, false],
  ['acls', 'commandgroup', CRUD, false],
  ['acls', 'connectmethodacl', CRUD, false],
  ['terminal', 'session', ['view', 'add', 'change', 'delete', 'terminate', 'monitor', 'share'], false],
  ['terminal', 'command', ['view', 'add'], false],
  ['terminal', 'sessionreplay', ['view', 'download'], false],
  ['terminal', 'terminal', CRUD, true],
  ['terminal', 'replaystorage', CRUD, true],
  ['terminal', 'commandstorage', CRUD, true],
  ['terminal', 'endpoint', CRUD, true],
  ['terminal', 'endpointrule', CRUD, true],
  ['terminal', 'applet', CRUD, true],
  ['terminal', 'applethost', CRUD, true],
  ['terminal', 'appletpublication', ['view'], true],
  ['terminal', 'applethostdeployment', ['view', 'add'], true],
  ['audits', 'userloginlog', ['view'], false],
  ['audits', 'operatelog', ['view'], false],
  ['audits', 'passwordchangelog', ['view'], false],
  ['audits', 'ftplog', ['view', 'download'], false],
  ['audits', 'activitylog', ['view'], false],
  ['audits', 'jobauditlog', ['view'], false],
  ['ops', 'job', CRUD, false],
  ['ops', 'adhoc', CRUD, false],
  ['ops', 'playbook', CRUD, false],
  ['ops', 'jobexecution', CRUD, false],
  ['ops', 'celerytask', ['view'], true],
  ['ops', 'celerytaskexecution', ['view'], false],
  ['settings', 'setting', ['view', 'change'], true],
  ['settings', 'setting', ['change_email', 'change_auth', 'change_systemmsgsubscription', 'change_sms', 'change_security', 'change_clean', 'change_other', 'change_terminal', 'change_interface', 'change_license'], true],
  ['tickets', 'ticket', ['view'], true],
  ['tickets', 'ticketflow', CRUD, true],
  ['tickets', 'applyassetticket', ['view', 'add'], true],
  ['authentication', 'accesskey', CRUD, true],
  ['authentication', 'temptoken', ['view', 'add', 'change'], true],
  ['authentication', 'connectiontoken', CRUD, true],
  ['notifications', 'systemmsgsubscription', ['view', 'change'], true],
  ['notifications', 'usermsgsubscription', ['view', 'change'], false],
  ['xpack', 'account', CRUD, true],
  ['xpack', 'syncinstancetask', CRUD, true],
  ['xpack', 'syncinstancedetail', ['view'], true],
  ['users', 'user', ['remove'], false],
  // Background tasks (docs/tasks.md): edit schedules, run now. Appended so existing permission ids stay.
  ['ops', 'celerytask', ['change'], true],
  ['ops', 'celerytaskexecution', ['add'], true],
  // Session sharing (JumpServer's SessionSharing / SessionJoinRecord): components share and record joins.
  ['terminal', 'sessionsharing', ['view'], false],
  ['terminal', 'supersessionsharing', ['add'], false],
  ['terminal', 'sessionjoinrecord', ['view', 'add', 'change'], false],
  // Components read and close review tickets (JumpServer's SuperTicket: super-tickets/<id>/status/).
  ['tickets', 'superticket', ['view', 'change'], true],
]

function codenameOf(app: string, model: string, action: string): string {
  // 'view_console' style actions on a menu pseudo-model are already complete codenames;
  // settings sub-permissions (`change_email`) likewise.
  if (model === 'menupermission' || (app === 'settings' && action.includes('_'))) return `${app}.${action}`
  if (action === 'test_connectivity') return `${app}.test_${model}connectivity`
  if (action === 'refresh_hardwareinfo') return `${app}.refresh_${model}hardwareinfo`
  return `${app}.${action}_${model}`
}

export const PERMISSIONS: readonly PermissionDef[] = (() => {
  const out: PermissionDef[] = []
  for (const [app, model, actions, systemOnly] of ROWS) {
    for (const action of actions) {
      const codename = codenameOf(app, model, action)
      if (out.some((p) => p.codename === codename)) continue
      out.push({ id: out.length + 1, codename, app, model, action, scope: systemOnly ? 'system' : 'both' })
    }
  }
  return out
})()

export const PERMISSION_BY_CODENAME = new Map(PERMISSIONS.map((p) => [p.codename, p]))
export const PERMISSION_BY_ID = new Map(PERMISSIONS.map((p) => [p.id, p]))

/** Permissions a role of this scope may hold. */
export function permissionsForScope(scope: Scope): PermissionDef[] {
  return PERMISSIONS.filter((p) => scope === 'system' || p.scope === 'both')
}

const AUDIT_PERMS = [
  'rbac.view_audit', 'audits.view_userloginlog', 'audits.view_operatelog', 'audits.view_passwordchangelog',
  'audits.view_ftplog', 'audits.download_ftplog', 'audits.view_activitylog', 'audits.view_jobauditlog',
  'terminal.view_session', 'terminal.view_command', 'terminal.view_sessionreplay', 'terminal.download_sessionreplay',
  // JumpServer 3.2's auditors hold `terminal.session.*`: they watch live sessions and cut them off.
  'terminal.monitor_session', 'terminal.terminate_session',
  // Not in JumpServer 3.2's auditor roles (its `terminal.session.*` pattern names the session model only), but lina
  // shows a session's join records on the session detail the auditor reads.
  'terminal.view_sessionjoinrecord',
]
const ORG_USER_PERMS = [
  'rbac.view_workbench', 'rbac.view_webterminal', 'rbac.view_filemanager', 'perms.view_myassets', 'perms.connect_myassets',
  'assets.match_asset', 'assets.match_node', 'users.match_user',
  'ops.view_job', 'ops.add_job', 'ops.change_job', 'ops.delete_job', 'ops.view_adhoc', 'ops.add_adhoc', 'ops.change_adhoc',
  'ops.delete_adhoc', 'ops.view_playbook', 'ops.add_playbook', 'ops.change_playbook', 'ops.delete_playbook',
  'ops.view_jobexecution', 'ops.add_jobexecution', 'ops.change_jobexecution', 'ops.delete_jobexecution',
  'ops.view_celerytaskexecution', 'assets.view_favoriteasset', 'assets.add_favoriteasset', 'assets.delete_favoriteasset',
  'notifications.view_usermsgsubscription', 'notifications.change_usermsgsubscription',
]
const SYSTEM_USER_PERMS = [
  'authentication.view_connectiontoken', 'authentication.add_connectiontoken', 'authentication.change_connectiontoken', 'authentication.delete_connectiontoken',
  'authentication.view_temptoken', 'authentication.add_temptoken', 'authentication.change_temptoken',
  'authentication.view_accesskey', 'authentication.add_accesskey', 'authentication.change_accesskey', 'authentication.delete_accesskey',
  'tickets.view_ticket', 'orgs.view_alljoinedorg',
  'notifications.view_usermsgsubscription', 'notifications.change_usermsgsubscription',
]

export interface BuiltinRole { id: string; name: string; scope: Scope; display: { en: string; zh: string; ja: string }; perms: () => string[] }

const all = (scope: Scope) => () => permissionsForScope(scope).map((p) => p.codename)

export const BUILTIN_ROLES: readonly BuiltinRole[] = [
  { id: '00000000-0000-0000-0000-000000000001', name: 'SystemAdmin', scope: 'system', display: { en: 'SystemAdmin', zh: '系统管理员', ja: 'システム管理者' }, perms: all('system') },
  { id: '00000000-0000-0000-0000-000000000002', name: 'SystemAuditor', scope: 'system', display: { en: 'SystemAuditor', zh: '系统审计员', ja: 'システム監査人' }, perms: () => [...SYSTEM_USER_PERMS, ...AUDIT_PERMS, 'orgs.view_rootorg', 'terminal.view_commandstorage', 'terminal.view_replaystorage'] },
  { id: '00000000-0000-0000-0000-000000000003', name: 'User', scope: 'system', display: { en: 'User', zh: '用户', ja: 'ユーザー' }, perms: () => [...SYSTEM_USER_PERMS] },
  {
    id: '00000000-0000-0000-0000-000000000004', name: 'SystemComponent', scope: 'system', display: { en: 'SystemComponent', zh: '系统组件', ja: 'システムコンポーネント' },
    perms: () => all('system')().filter((c) => !c.startsWith('rbac.') && !['users.add_user', 'users.delete_user', 'orgs.add_organization', 'orgs.change_organization', 'orgs.delete_organization'].includes(c)),
  },
  { id: '00000000-0000-0000-0000-000000000005', name: 'OrgAdmin', scope: 'org', display: { en: 'OrgAdmin', zh: '组织管理员', ja: '組織管理者' }, perms: all('org') },
  { id: '00000000-0000-0000-0000-000000000006', name: 'OrgAuditor', scope: 'org', display: { en: 'OrgAuditor', zh: '组织审计员', ja: '組織監査人' }, perms: () => [...ORG_USER_PERMS, ...AUDIT_PERMS] },
  { id: '00000000-0000-0000-0000-000000000007', name: 'OrgUser', scope: 'org', display: { en: 'OrgUser', zh: '组织用户', ja: '組織ユーザー' }, perms: () => [...ORG_USER_PERMS] },
]

export const ROLE_IDS = {
  SystemAdmin: '00000000-0000-0000-0000-000000000001',
  SystemAuditor: '00000000-0000-0000-0000-000000000002',
  User: '00000000-0000-0000-0000-000000000003',
  SystemComponent: '00000000-0000-0000-0000-000000000004',
  OrgAdmin: '00000000-0000-0000-0000-000000000005',
  OrgAuditor: '00000000-0000-0000-0000-000000000006',
  OrgUser: '00000000-0000-0000-0000-000000000007',
} as const

export const ORG_IDS = {
  ROOT: '00000000-0000-0000-0000-000000000000',
  DEFAULT: '00000000-0000-0000-0000-000000000002',
  SYSTEM: '00000000-0000-0000-0000-000000000004',
} as const

/** Does a set of held codenames satisfy a requirement (`a|b` alternatives; every list entry must hold)? */
export function satisfies(held: ReadonlySet<string>, required: string | readonly string[]): boolean {
  const list = typeof required === 'string' ? [required] : required
  return list.every((req) => req.split('|').some((alt) => held.has(alt.trim())))
}
