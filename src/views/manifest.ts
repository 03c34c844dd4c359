/**
 * The console manifest: one entry per resource (docs/shell.md "Adding a resource"). Routes, page registration,
 * menu entries, route permissions, route loaders and related-field sources are derived from it. Pages that are
 * not resources (settings categories, task logs, the profile) register by route name in `src/views/<view>/index.ts`
 * and are spread into `PAGES` below.
 *
 * This module is part of the first chunk: it holds data and lazy imports only, never page code.
 */
import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import Cookies from 'js-cookie'
import type { ComponentType } from 'react'
import { deriveResource, type ModelSource, type PageLoader, type ResourceEntry, type ResourceManifestItem } from '../router/resources.ts'
import type { RelatedRef } from '../ui/common/resource.ts'
import { ACTIVE_TAB, chooseTab } from '../ui/detail/activeTab.ts'
import { ACL_ENTRIES } from './console/acls/entries.ts'
import { ASSET_NET_ENTRIES } from './console/assets-net/entries.ts'
import { APPLET_ENTRIES } from './settings/applets/entries.ts'
import { TERMINAL_ENTRIES } from './settings/terminal/entries.ts'
import { PERMS_ENTRIES } from './console/perms/entries.ts'
import { profilePages } from './profile/index.ts'
import { settingsPages } from './settings/index.ts'
import { auditPages } from './audit/index.ts'
import { workbenchPages } from './workbench/index.ts'
import { ticketsPages } from './tickets/index.ts'


const CORE_ENTRIES: readonly ResourceEntry[] = [
  {
    key: 'users',
    model: 'users.user',
    url: '/api/v1/users/users/',
    path: '/console/users/users',
    routeName: 'User',
    typeLabel: msg`User`,
    titles: { list: msg`User list`, create: msg`Create user`, update: msg`Update user`, detail: msg`User details` },
    defaultOrder: null,
    related: { groups: 'users.usergroup', system_roles: 'rbac.systemrole', org_roles: 'rbac.orgrole' },
    pages: {
      list: () => import('./console/users/UserListPage.tsx').then((m) => m.UserListPage),
      create: () => import('./console/users/UserFormPage.tsx').then((m) => m.UserFormPage),
      update: () => import('./console/users/UserFormPage.tsx').then((m) => m.UserFormPage),
      detail: () => import('./console/users/UserDetailPage.tsx').then((m) => m.UserDetailPage),
    },
  },
  {
    key: 'user-acls',
    model: 'acls.loginacl',
    url: '/api/v1/acls/login-acls/',
    path: '/console/users/users/user-acl',
    parent: 'users',
    routeName: 'UserLoginACL',
    typeLabel: msg`Login ACL`,
    titles: { list: msg`User login ACLs`, create: msg`Create user login ACL`, update: msg`Update user login ACL`, detail: msg`User login ACL details` },
    defaultOrder: 'priority',
    related: { user: 'users.user', reviewers: 'users.user' },
    pages: {
      list: () => import('./console/user-acls/UserLoginAclListPage.tsx').then((m) => m.UserLoginAclListPage),
      create: () => import('./console/user-acls/UserLoginAclFormPage.tsx').then((m) => m.UserLoginAclFormPage),
      update: () => import('./console/user-acls/UserLoginAclFormPage.tsx').then((m) => m.UserLoginAclFormPage),
      detail: () => import('./console/user-acls/UserLoginAclDetailPage.tsx').then((m) => m.UserLoginAclDetailPage),
    },
  },
  {
    key: 'user-groups',
    model: 'users.usergroup',
    url: '/api/v1/users/groups/',
    path: '/console/users/groups',
    routeName: 'UserGroup',
    typeLabel: msg`User group`,
    titles: { list: msg`User groups`, create: msg`Create user group`, update: msg`Update user group`, detail: msg`User group details` },
    perms: { view: 'users.view_usergroup', add: 'users.add_usergroup', change: 'users.change_usergroup', delete: 'users.delete_usergroup' },
    related: { users: 'users.user' },
    pages: {
      list: () => import('./console/groups/UserGroupListPage.tsx').then((m) => m.UserGroupListPage),
      create: () => import('./console/groups/UserGroupPages.tsx').then((m) => m.UserGroupFormPage),
      update: () => import('./console/groups/UserGroupPages.tsx').then((m) => m.UserGroupFormPage),
      detail: () => import('./console/groups/UserGroupPages.tsx').then((m) => m.UserGroupDetailPage),
    },
  },
  {
    // System and organization roles share the Role* routes; `?scope=` (or the list's tab) picks the endpoint.
    key: 'roles',
    model: 'rbac.role',
    url: '/api/v1/rbac/roles/',
    path: '/console/users/roles',
    routeName: 'Role',
    typeLabel: msg`Role`,
    titles: { list: msg`Roles`, create: msg`Create role`, update: msg`Update role`, detail: msg`Role details` },
    perms: {
      view: 'rbac.view_orgrole|rbac.view_systemrole', add: 'rbac.add_orgrole|rbac.add_systemrole',
      change: 'rbac.change_orgrole|rbac.change_systemrole', delete: 'rbac.delete_orgrole|rbac.delete_systemrole',
    },
    licenseRequired: true,
    label: 'display_name',
    defaultOrder: null,
    // As the role pages choose (src/views/console/roles): `?scope=`, else on the list the remembered tab.
    pageUrl: (kind, search, can) => {
      const given = search.scope === 'system' || search.scope === 'org' ? search.scope : undefined
      if (given) return `/api/v1/rbac/${given}-roles/`
      if (kind !== 'list') return '/api/v1/rbac/roles/'
      const tabs = ['system', 'org'].filter((scope) => can(`rbac.view_${scope}role`))
      const scope = chooseTab(tabs, search[ACTIVE_TAB], Cookies.get(ACTIVE_TAB), 'system')
      return scope ? `/api/v1/rbac/${scope}-roles/` : undefined
    },
    pages: {
      list: () => import('./console/roles/RoleListPage.tsx').then((m) => m.RoleListPage),
      create: () => import('./console/roles/RoleFormPage.tsx').then((m) => m.RoleFormPage),
      update: () => import('./console/roles/RoleFormPage.tsx').then((m) => m.RoleFormPage),
      detail: () => import('./console/roles/RoleDetailPage.tsx').then((m) => m.RoleDetailPage),
    },
  },
  {
    key: 'organizations',
    model: 'orgs.organization',
    url: '/api/v1/orgs/orgs/',
    path: '/settings/orgs',
    routeName: 'Organization',
    typeLabel: msg`Organization`,
    titles: { list: msg`Organizations`, create: msg`Create organization`, update: msg`Update organization`, detail: msg`Organization details` },
    perms: { view: 'orgs.view_organization', add: 'orgs.add_organization', change: 'orgs.change_organization', delete: 'orgs.delete_organization' },
    icon: 'orgs',
    licenseRequired: true,
    pages: {
      list: () => import('./settings/orgs/OrganizationListPage.tsx').then((m) => m.OrganizationListPage),
      create: () => import('./settings/orgs/OrganizationPages.tsx').then((m) => m.OrganizationFormPage),
      update: () => import('./settings/orgs/OrganizationPages.tsx').then((m) => m.OrganizationFormPage),
      detail: () => import('./settings/orgs/OrganizationPages.tsx').then((m) => m.OrganizationDetailPage),
    },
  },
  {
    key: 'sessions',
    model: 'terminal.session',
    url: '/api/v1/terminal/sessions/',
    path: '/audit/sessions/sessions',
    routeName: 'Session',
    typeLabel: msg`Session`,
    titles: { list: msg`Session list`, detail: msg`Session details` },
    offers: { create: false, update: false, delete: false, import: false },
    defaultOrder: '-date_start',
    dateRange: true,
    pages: {
      list: () => import('./audit/sessions/SessionListPage.tsx').then((m) => m.SessionListPage),
      detail: () => import('./audit/sessions/SessionPages.tsx').then((m) => m.SessionDetailPage),
    },
  },
  {
    key: 'commands',
    model: 'terminal.command',
    url: '/api/v1/terminal/commands/',
    path: '/audit/sessions/command',
    routeName: 'Command',
    typeLabel: msg`Command`,
    titles: { list: msg`Commands` },
    offers: { create: false, update: false, delete: false, import: false, detail: false },
    defaultOrder: '-timestamp',
    dateRange: true,
  },
  {
    key: 'ftp-logs',
    model: 'audits.ftplog',
    url: '/api/v1/audits/ftp-logs/',
    path: '/audit/sessions/ftp',
    routeName: 'FtpLog',
    listRouteName: 'FtpLog',
    typeLabel: msg`File transfer`,
    titles: { list: msg`File transfers` },
    offers: { create: false, update: false, delete: false, import: false, detail: false },
    defaultOrder: '-date_start',
    dateRange: true,
  },
  {
    key: 'login-logs',
    model: 'audits.userloginlog',
    url: '/api/v1/audits/login-logs/',
    path: '/audit/audits/login-logs',
    routeName: 'LoginLog',
    typeLabel: msg`Login log`,
    titles: { list: msg`Login logs`, detail: msg`Login log details` },
    perms: { view: 'audits.view_userloginlog' },
    offers: { create: false, update: false, delete: false, import: false },
    defaultOrder: '-datetime',
    dateRange: true,
  },
  {
    key: 'operate-logs',
    model: 'audits.operatelog',
    url: '/api/v1/audits/operate-logs/',
    path: '/audit/audits/operate-logs',
    routeName: 'OperateLog',
    typeLabel: msg`Operate log`,
    titles: { list: msg`Operate logs`, detail: msg`Operate log details` },
    offers: { create: false, update: false, delete: false, import: false },
    defaultOrder: '-datetime',
    dateRange: true,
  },
  {
    key: 'password-change-logs',
    model: 'audits.passwordchangelog',
    url: '/api/v1/audits/password-change-logs/',
    path: '/audit/audits/password-change-log',
    routeName: 'PasswordChangeLog',
    listRouteName: 'PasswordChangeLog',
    typeLabel: msg`Password change log`,
    titles: { list: msg`Password change logs` },
    offers: { create: false, update: false, delete: false, import: false, detail: false },
    defaultOrder: '-datetime',
    dateRange: true,
  },
  {
    key: 'accounts',
    model: 'accounts.account',
    url: '/api/v1/accounts/accounts/',
    path: '/console/accounts/accounts',
    routeName: 'AssetAccount',
    typeLabel: msg`Account`,
    titles: { list: msg`Accounts`, create: msg`Create account`, update: msg`Update account`, detail: msg`Account details` },
    related: { asset: 'assets.asset', su_from: 'accounts.account', template: 'accounts.accounttemplate' },
    defaultOrder: null,
    pages: {
      list: () => import('./console/accounts/AccountListPage.tsx').then((m) => m.AccountListPage),
      create: () => import('./console/accounts/AccountPages.tsx').then((m) => m.AccountFormPage),
      update: () => import('./console/accounts/AccountPages.tsx').then((m) => m.AccountFormPage),
      detail: () => import('./console/accounts/AccountPages.tsx').then((m) => m.AccountDetailPage),
    },
  },
  {
    key: 'account-templates',
    model: 'accounts.accounttemplate',
    url: '/api/v1/accounts/account-templates/',
    path: '/console/accounts/account-template',
    routeName: 'AccountTemplate',
    typeLabel: msg`Account template`,
    titles: { list: msg`Account templates`, create: msg`Create account template`, update: msg`Update account template`, detail: msg`Account template details` },
    defaultOrder: null,
    pages: {
      list: () => import('./console/accounts/AccountListPage.tsx').then((m) => m.AccountTemplateListPage),
      create: () => import('./console/accounts/AccountPages.tsx').then((m) => m.AccountTemplateFormPage),
      update: () => import('./console/accounts/AccountPages.tsx').then((m) => m.AccountTemplateFormPage),
      detail: () => import('./console/accounts/AccountPages.tsx').then((m) => m.AccountTemplateDetailPage),
    },
  },
  {
    key: 'account-push',
    model: 'accounts.pushaccountautomation',
    url: '/api/v1/accounts/push-account-automations/',
    path: '/console/accounts/account-push',
    routeName: 'AccountPush',
    typeLabel: msg`Account push`,
    titles: { list: msg`Account push`, create: msg`Create account push`, update: msg`Update account push`, detail: msg`Account push details` },
    related: { assets: 'assets.asset', nodes: 'assets.node' },
    offers: { import: false },
    defaultOrder: null,
    pages: {
      list: () => import('./console/accounts/AutomationListPage.tsx').then((m) => m.PushListPage),
      detail: () => import('./console/accounts/AutomationPages.tsx').then((m) => m.PushDetailPage),
    },
  },
  {
    key: 'account-push-executions',
    model: 'accounts.pushaccountexecution',
    url: '/api/v1/accounts/push-account-executions/',
    path: '/console/accounts/account-push/executions',
    parent: 'account-push',
    routeName: 'AccountPushExecution',
    typeLabel: msg`Account push execution`,
    titles: { list: msg`Account push executions`, detail: msg`Account push execution details` },
    perms: { view: 'accounts.view_automationexecution', add: 'accounts.add_automationexecution' },
    related: { automation: 'accounts.pushaccountautomation' },
    offers: { create: false, update: false, delete: false, import: false },
    defaultOrder: null,
    pages: {
      list: () => import('./console/accounts/AutomationListPage.tsx').then((m) => m.PushExecutionListPage),
      detail: () => import('./console/accounts/AutomationPages.tsx').then((m) => m.PushExecutionDetailPage),
    },
  },
  {
    key: 'account-change-secret',
    model: 'accounts.changesecretautomation',
    url: '/api/v1/accounts/change-secret-automations/',
    path: '/console/accounts/account-change-secret',
    routeName: 'AccountChangeSecret',
    typeLabel: msg`Change secret`,
    titles: { list: msg`Change secret`, create: msg`Create change secret task`, update: msg`Update change secret task`, detail: msg`Change secret task details` },
    related: { assets: 'assets.asset', nodes: 'assets.node', recipients: 'users.user' },
    licenseRequired: true,
    offers: { import: false },
    defaultOrder: null,
    pages: {
      list: () => import('./console/accounts/AutomationListPage.tsx').then((m) => m.ChangeSecretListPage),
      detail: () => import('./console/accounts/AutomationPages.tsx').then((m) => m.ChangeSecretDetailPage),
    },
  },
  {
    key: 'account-change-secret-executions',
    model: 'accounts.changesecretexecution',
    url: '/api/v1/accounts/change-secret-executions/',
    path: '/console/accounts/account-change-secret/executions',
    parent: 'account-change-secret',
    routeName: 'AccountChangeSecretExecution',
    typeLabel: msg`Change secret execution`,
    titles: { list: msg`Change secret executions`, detail: msg`Change secret execution details` },
    perms: { view: 'accounts.view_automationexecution', add: 'accounts.add_automationexecution' },
    related: { automation: 'accounts.changesecretautomation' },
    licenseRequired: true,
    offers: { create: false, update: false, delete: false, import: false },
    defaultOrder: null,
    pages: {
      list: () => import('./console/accounts/AutomationListPage.tsx').then((m) => m.ChangeSecretExecutionListPage),
      detail: () => import('./console/accounts/AutomationPages.tsx').then((m) => m.ChangeSecretExecutionDetailPage),
    },
  },
  {
    // AccountGatherList is the reference's tabbed page (tasks, gathered accounts), needing view_gatheredaccount
    key: 'account-gather',
    model: 'accounts.gatheraccountsautomation',
    url: '/api/v1/accounts/gather-account-automations/',
    path: '/console/accounts/account-gather',
    routeName: 'AccountGatherTask',
    listRouteName: 'AccountGatherList',
    typeLabel: msg`Account gathering task`,
    titles: { list: msg`Account gathering`, create: msg`Create account gathering task`, update: msg`Update account gathering task`, detail: msg`Account gathering task details` },
    perms: { view: 'accounts.view_gatheredaccount', add: 'accounts.add_gatheraccountsautomation', change: 'accounts.change_gatheraccountsautomation', delete: 'accounts.delete_gatheraccountsautomation' },
    related: { assets: 'assets.asset', nodes: 'assets.node' },
    licenseRequired: true,
    offers: { import: false },
    defaultOrder: null,
    pages: {
      list: () => import('./console/accounts/AutomationListPage.tsx').then((m) => m.GatherListPage),
      detail: () => import('./console/accounts/AutomationPages.tsx').then((m) => m.GatherDetailPage),
    },
  },
  {
    key: 'account-gather-executions',
    model: 'accounts.gatheraccountsexecution',
    url: '/api/v1/accounts/gather-account-executions/',
    path: '/console/accounts/account-gather/executions',
    parent: 'account-gather',
    routeName: 'AccountGatherExecution',
    listRouteName: 'AccountGatherTaskExecutionList',
    typeLabel: msg`Account gathering execution`,
    titles: { list: msg`Account gathering executions`, detail: msg`Account gathering execution details` },
    perms: { view: 'accounts.view_automationexecution', add: 'accounts.add_automationexecution' },
    related: { automation: 'accounts.gatheraccountsautomation' },
    licenseRequired: true,
    offers: { create: false, update: false, delete: false, import: false },
    defaultOrder: null,
    pages: {
      list: () => import('./console/accounts/AutomationListPage.tsx').then((m) => m.GatherExecutionListPage),
      detail: () => import('./console/accounts/AutomationPages.tsx').then((m) => m.GatherExecutionDetailPage),
    },
  },
  {
    key: 'account-backup',
    model: 'accounts.accountbackupautomation',
    url: '/api/v1/accounts/account-backup-plans/',
    path: '/console/accounts/account-backup',
    routeName: 'AccountBackupPlan',
    listRouteName: 'AccountBackupList',
    typeLabel: msg`Account backup plan`,
    titles: { list: msg`Account backup`, create: msg`Create account backup plan`, update: msg`Update account backup plan`, detail: msg`Account backup plan details` },
    perms: { view: 'accounts.view_accountbackupautomation', add: 'accounts.add_accountbackupautomation', change: 'accounts.change_accountbackupautomation', delete: 'accounts.delete_accountbackupautomation' },
    related: { recipients: 'users.user' },
    licenseRequired: true,
    offers: { import: false },
    defaultOrder: null,
    pages: {
      list: () => import('./console/accounts/AutomationListPage.tsx').then((m) => m.BackupListPage),
      detail: () => import('./console/accounts/AutomationPages.tsx').then((m) => m.BackupDetailPage),
    },
  },
  {
    key: 'account-backup-executions',
    model: 'accounts.accountbackupexecution',
    url: '/api/v1/accounts/account-backup-plan-executions/',
    path: '/console/accounts/account-backup/executions',
    parent: 'account-backup',
    routeName: 'AccountBackupPlanExecution',
    typeLabel: msg`Account backup execution`,
    titles: { list: msg`Account backup executions`, detail: msg`Account backup execution details` },
    perms: { view: 'accounts.view_accountbackupautomation', add: 'accounts.add_automationexecution' },
    related: { automation: 'accounts.accountbackupautomation' },
    licenseRequired: true,
    offers: { create: false, update: false, delete: false, import: false },
    defaultOrder: null,
    pages: {
      list: () => import('./console/accounts/AutomationListPage.tsx').then((m) => m.BackupExecutionListPage),
      detail: () => import('./console/accounts/AutomationPages.tsx').then((m) => m.BackupExecutionDetailPage),
    },
  },
  {
    // Per-asset records of every automation execution (shown in an execution's Records tab).
    key: 'account-automation-records',
    model: 'accounts.changesecretrecord',
    url: '/api/v1/accounts/change-secret-records/',
    path: '/console/accounts/account-change-secret/records',
    parent: 'account-change-secret',
    routeName: 'AccountChangeSecretRecord',
    typeLabel: msg`Execution record`,
    titles: { list: msg`Execution records`, detail: msg`Execution record details` },
    licenseRequired: true,
    offers: { create: false, update: false, delete: false, import: false },
    defaultOrder: null,
  },
]

/** The asset pages (src/views/console/assets): one list page with the node tree, one form, one detail page. */
const assetPages = (kind: string, key: string) => ({
  list: () => import('./console/assets/AssetListPage.tsx').then((m) => m.assetListPage(kind)),
  ...(kind === 'all' ? { detail: () => import('./console/assets/AssetDetailPage.tsx').then((m) => m.AssetDetailPage) } : {
    create: () => import('./console/assets/AssetFormPage.tsx').then((m) => m.assetFormPage(key)),
    update: () => import('./console/assets/AssetFormPage.tsx').then((m) => m.assetFormPage(key)),
  }),
})
const ASSET_PERMS = { view: 'assets.view_asset', add: 'assets.add_asset', change: 'assets.change_asset', delete: 'assets.delete_asset' }
const ASSET_RELATED = { platform: 'assets.platform', nodes: 'assets.node', domain: 'assets.domain', labels: 'assets.label' }

const assetKind = (key: string, kind: string, routeName: string, typeLabel: MessageDescriptor, titles: ResourceEntry['titles']): ResourceEntry => ({
  key, model: `assets.${kind}`, url: `/api/v1/assets/${key}/`, path: `/console/assets/${key}`, routeName, typeLabel, titles,
  perms: ASSET_PERMS, related: ASSET_RELATED, offers: { detail: false }, defaultOrder: 'name', pages: assetPages(kind, key),
})

export const ASSET_ENTRIES: readonly ResourceEntry[] = [
  {
    key: 'assets', model: 'assets.asset', url: '/api/v1/assets/assets/', path: '/console/assets/assets', routeName: 'Asset',
    typeLabel: msg`Asset`, titles: { list: msg`Asset list`, detail: msg`Asset details` },
    perms: ASSET_PERMS, related: ASSET_RELATED, offers: { create: false, update: false, import: false }, defaultOrder: 'name', pages: assetPages('all', 'assets'),
  },
  assetKind('hosts', 'host', 'Host', msg`Host`, { list: msg`Hosts`, create: msg`Create host`, update: msg`Update host` }),
  assetKind('databases', 'database', 'Database', msg`Database`, { list: msg`Databases`, create: msg`Create database`, update: msg`Update database` }),
  assetKind('devices', 'device', 'Device', msg`Network device`, { list: msg`Network devices`, create: msg`Create network device`, update: msg`Update network device` }),
  assetKind('clouds', 'cloud', 'CloudsPlatform', msg`Cloud service`, { list: msg`Cloud services`, create: msg`Create cloud service`, update: msg`Update cloud service` }),
  assetKind('webs', 'web', 'Web', msg`Web`, { list: msg`Webs`, create: msg`Create web`, update: msg`Update web` }),
  assetKind('customs', 'custom', 'Custom', msg`Custom asset`, { list: msg`Custom assets`, create: msg`Create custom asset`, update: msg`Update custom asset` }),
  {
    key: 'platforms', model: 'assets.platform', url: '/api/v1/assets/platforms/', path: '/console/assets/platforms', routeName: 'Platform',
    typeLabel: msg`Platform`, titles: { list: msg`Platforms`, create: msg`Create platform`, update: msg`Update platform`, detail: msg`Platform details` },
    defaultOrder: 'id',
  },
]

export const RESOURCE_ENTRIES: readonly ResourceEntry[] = [...CORE_ENTRIES, ...ASSET_ENTRIES, ...ASSET_NET_ENTRIES, ...ACL_ENTRIES, ...TERMINAL_ENTRIES, ...APPLET_ENTRIES, ...PERMS_ENTRIES]

/**
 * Models with a list URL but no entry of their own (JumpServer's proxy models of roles). Each entry's model is
 * added to this table from its URL, so a new resource needs no line here.
 */
const EXTRA_MODELS: Readonly<Record<string, ModelSource>> = {
  'rbac.systemrole': { url: '/api/v1/rbac/system-roles/', label: 'display_name' },
  'rbac.orgrole': { url: '/api/v1/rbac/org-roles/', label: 'display_name' },
  'assets.node': { url: '/api/v1/assets/nodes/', label: 'full_value' },
}

/** Target model → picker source, for servers whose OPTIONS carry no `related` hint (a real JumpServer). */
export const RELATED_MODELS: Readonly<Record<string, ModelSource>> = {
  ...Object.fromEntries(RESOURCE_ENTRIES.map((e) => [e.model, { url: e.url, ...(e.label ? { label: e.label } : {}) }])),
  ...EXTRA_MODELS,
}

/** Thrown at start-up (and so in every test) when an entry names a related model the console has no list for. */
export function relatedSourceOf(field: string, model: string): RelatedRef {
  const source = RELATED_MODELS[model]
  if (!source) throw new Error(`Related field ${field}: no list URL known for model ${model} (add it to the manifest)`)
  return { ...source, model }
}

/** Every resource of the console with its derived routes, permissions and offers (tests iterate this). */
export const RESOURCE_MANIFEST: readonly ResourceManifestItem[] = RESOURCE_ENTRIES.map((e) => deriveResource(e, relatedSourceOf))

const byKey = new Map(RESOURCE_MANIFEST.map((i) => [i.key, i]))

/** The manifest item of a key (throws on an unknown key: a typo must not pass silently). */
export function manifestItem(key: string): ResourceManifestItem {
  const item = byKey.get(key)
  if (!item) throw new Error(`No manifest entry ${key}`)
  return item
}

type PageKind = 'list' | 'create' | 'update' | 'detail'

/** Route name → manifest item and page kind (every route's loader asks, when the router is built). */
const byRouteName = new Map<string, { item: ResourceManifestItem; kind: PageKind }>()
for (const item of RESOURCE_MANIFEST) {
  for (const kind of ['list', 'create', 'update', 'detail'] as const) {
    // A list shown as a tab belongs to its host page (which starts its own reads).
    if (kind === 'list' && item.entry.listTab) continue
    const name = item.routes[kind]?.name
    if (name && !byRouteName.has(name)) byRouteName.set(name, { item, kind })
  }
}

/** The manifest item and page kind of a route name. */
export function manifestRoute(name: string): { item: ResourceManifestItem; kind: PageKind } | undefined {
  return byRouteName.get(name)
}

/** The generic page of a kind, each kind a module of its own (a list's first visit loads no form or detail code). */
function genericPage(item: ResourceManifestItem, kind: PageKind): PageLoader {
  const form = kind === 'create' || kind === 'update'
  const key = `${item.key}|${form ? 'form' : kind}`
  return async () => {
    const known = genericMade.get(key)
    if (known) return known
    const made: ComponentType = await (kind === 'list'
      ? import('./generic/GenericListPage.tsx').then((m) => m.genericListPage(item))
      : kind === 'detail'
        ? import('./generic/GenericDetailPage.tsx').then((m) => m.genericDetailPage(item))
        : import('./generic/GenericFormPage.tsx').then((m) => m.genericFormPage(item)))
    // One component per item and kind, the first made (two loads may overlap): a component made again would
    // remount the page (create and update share it).
    const page = genericMade.get(key) ?? made
    genericMade.set(key, page)
    return page
  }
}
const genericMade = new Map<string, ComponentType>()

const resourcePages: Record<string, PageLoader> = {}
for (const item of RESOURCE_MANIFEST) {
  for (const kind of ['list', 'create', 'update', 'detail'] as const) {
    const route = item.routes[kind]
    if (!route || (kind === 'list' && item.entry.listTab)) continue
    resourcePages[route.name] = item.entry.pages?.[kind] ?? genericPage(item, kind)
  }
}

/**
 * Pages by route name: the manifest's resources, then the views' plain page entries (`src/views/<view>/index.ts`,
 * a route name → lazy component map). Routes with no page show the landing placeholder.
 */
export const PAGES: Readonly<Record<string, PageLoader>> = {
  ...resourcePages,
  ...settingsPages,
  ...profilePages,
  ...auditPages,
  ...workbenchPages,
  ...ticketsPages,
}
