/**
 * Asset permissions `/api/v1/perms/asset-permissions/` (contract §5.4) and their member relations
 * (`/asset-permissions-{users,user-groups,assets,nodes}-relations/`, as lina calls them). Who is granted what is
 * computed in grants.ts (docs/perms.md).
 */
import { sql } from 'kysely'
import type { ResourceDef } from '../../engine/types.ts'
import { isUuid } from '../../engine/parse.ts'
import { tr } from '../../i18n.ts'
import type { Lang } from '../../http/request-context.ts'
import { ORG_IDS } from '../../rbac/catalog.ts'
import { commentField, createdBy, dateCreated, dateUpdated, idField, isActive, updatedBy } from '../common.ts'
import { defaultExpiry } from '../../engine/expiry.ts'
import './messages.ts'

/** Action bits (contract §5.4: 3.2.2's five, and 3.10's delete and share). */
export const ACTION_BITS: Record<string, number> = { connect: 1, upload: 2, download: 4, copy: 8, paste: 16, delete: 32, share: 64 }
export const ALL_ACTIONS = 127
export const ACTION_TREE = [{
  value: 'All', label: 'All', children: [
    { value: 'connect', label: 'Connect' },
    { value: 'Transfer', label: 'Transfer', children: [{ value: 'upload', label: 'Upload' }, { value: 'download', label: 'Download' }, { value: 'delete', label: 'Delete' }] },
    { value: 'Clipboard', label: 'Clipboard', children: [{ value: 'copy', label: 'Copy' }, { value: 'paste', label: 'Paste' }] },
    { value: 'share', label: 'Share' },
  ],
}]
const ACTION_LABELS: Record<string, string> = { connect: 'Connect', upload: 'Upload', download: 'Download', copy: 'Copy', paste: 'Paste', delete: 'Delete', share: 'Share' }

/** `[{value, label}]` of the bits set (labels translated). */
export function actionsOf(bits: number, lang: Lang): { value: string; label: string }[] {
  return Object.entries(ACTION_BITS).filter(([, b]) => (bits & b) !== 0).map(([value]) => ({ value, label: tr(lang, ACTION_LABELS[value]!) }))
}

/** The special account aliases (contract §5.4). */
export const ACCOUNT_ALIASES = ['@ALL', '@INPUT', '@USER', '@ANON', '@SPEC']

/** No expiry given: seventy years, as JumpServer's default. */

const members = (table: string, to: string) => ({ table, from: 'assetpermission_id', to })

export const assetPermissions: ResourceDef<'asset_permissions'> = {
  name: 'perms.assetpermission',
  app: 'perms',
  model: 'assetpermission',
  verboseName: 'Asset permission',
  path: '/api/v1/perms/asset-permissions/',
  table: 'asset_permissions',
  orgScoped: true,
  fields: [
    idField(),
    { name: 'name', type: 'string', label: 'Name', required: true, max_length: 128, unique: 'org' },
    {
      name: 'users', type: 'm2m', label: 'User', default: [],
      relation: { resource: 'users.user', attrs: ['id', 'name', 'username'], through: members('asset_permission_users', 'user_id') },
    },
    { name: 'user_groups', type: 'm2m', label: 'User group', default: [], relation: { resource: 'users.usergroup', through: members('asset_permission_user_groups', 'usergroup_id') } },
    { name: 'assets', type: 'm2m', label: 'Asset', default: [], relation: { resource: 'assets.asset', attrs: ['id', 'name', 'address'], through: members('asset_permission_assets', 'asset_id') } },
    { name: 'nodes', type: 'm2m', label: 'Node', default: [], relation: { resource: 'assets.node', attrs: ['id', 'name'], naturalKey: 'full_value', through: members('asset_permission_nodes', 'node_id') } },
    {
      name: 'accounts', type: 'list', label: 'Account', default: ['@ALL'],
      help_text: '@ALL: every account; @INPUT: typed at connection; @USER: the account named like the user; @ANON: no account; %<template id>: created and pushed from that template; or usernames',
      child: { name: 'accounts', type: 'string', max_length: 128 },
    },
    { name: 'protocols', type: 'list', label: 'Protocols', default: ['all'], child: { name: 'protocols', type: 'string', max_length: 32 } },
    { name: 'actions', type: 'tree', label: 'Action', tree: ACTION_TREE, bits: ACTION_BITS, default: Object.keys(ACTION_BITS) },
    isActive,
    { name: 'is_valid', type: 'boolean', label: 'Is valid', read_only: true, expr: '(t.is_active and t.date_start <= now() and t.date_expired > now())' },
    { name: 'is_expired', type: 'boolean', label: 'Is expired', read_only: true, expr: '(t.date_expired <= now())' },
    { name: 'date_start', type: 'datetime', label: 'Date start', default: () => new Date() },
    { name: 'date_expired', type: 'datetime', label: 'Date expired', default: () => defaultExpiry() },
    { name: 'from_ticket', type: 'boolean', label: 'From ticket', read_only: true },
    { name: 'users_amount', type: 'integer', label: 'Users amount', read_only: true, expr: '(select count(*) from asset_permission_users m where m.assetpermission_id = t.id)' },
    { name: 'user_groups_amount', type: 'integer', label: 'User groups amount', read_only: true, expr: '(select count(*) from asset_permission_user_groups m where m.assetpermission_id = t.id)' },
    { name: 'assets_amount', type: 'integer', label: 'Assets amount', read_only: true, expr: '(select count(*) from asset_permission_assets m where m.assetpermission_id = t.id)' },
    { name: 'nodes_amount', type: 'integer', label: 'Nodes amount', read_only: true, expr: '(select count(*) from asset_permission_nodes m where m.assetpermission_id = t.id)' },
    commentField,
    createdBy,
    updatedBy,
    dateCreated,
    dateUpdated,
  ],
  search: ['name'],
  filters: [
    'id', 'name', 'is_active', 'users', 'user_groups', 'assets', 'nodes',
    { name: 'is_valid', apply: (v) => (v === '1' || v === 'true' || v === 'True' ? sql`(t.is_active and t.date_start <= now() and t.date_expired > now())` : v === '0' || v === 'false' || v === 'False' ? sql`not (t.is_active and t.date_start <= now() and t.date_expired > now())` : undefined) },
    { name: 'user_id', apply: (v) => (isUuid(v) ? sql`exists (select 1 from asset_permission_users m where m.assetpermission_id = t.id and m.user_id = ${v})` : sql`false`) },
    { name: 'asset_id', apply: (v) => (isUuid(v) ? sql`exists (select 1 from asset_permission_assets m where m.assetpermission_id = t.id and m.asset_id = ${v})` : sql`false`) },
  ],
  ordering: { fields: ['name', 'is_active', 'date_start', 'date_expired', 'date_created'], default: ['name'] },
  sizes: { mini: ['id', 'name'], small: ['id', 'name', 'actions', 'is_active', 'is_valid', 'is_expired', 'date_start', 'date_expired', 'comment'] },
  hooks: {
    async validate(values, ctx, info) {
      const errors: Record<string, unknown> = {}
      const start = (values.date_start ?? info.existing?.date_start) as Date | string | undefined
      const end = (values.date_expired ?? info.existing?.date_expired) as Date | string | undefined
      if (start && end && new Date(start).getTime() >= new Date(end).getTime()) errors.date_expired = [tr(ctx.lang, 'The expiry date must be after the start date.')]
      if (Array.isArray(values.accounts)) {
        const list = [...new Set((values.accounts as string[]).map((a) => a.trim()).filter(Boolean))]
        const bad: string[] = []
        const templates = list.filter((a) => a.startsWith('%')).map((a) => a.slice(1))
        for (const a of list) if (a.startsWith('@') && !ACCOUNT_ALIASES.includes(a)) bad.push(tr(ctx.lang, 'Unknown account alias: {alias}', { alias: a }))
        const ids = templates.filter(isUuid)
        for (const t of templates) if (!isUuid(t)) bad.push(tr(ctx.lang, 'Invalid pk "{pk}" - object does not exist.', { pk: t }))
        if (ids.length) {
          const org = String(values.org_id ?? info.existing?.org_id ?? ctx.orgId)
          const found = new Set((await sql<{ id: string }>`select id from account_templates where id in (${sql.join(ids)}) and (org_id = ${org} or ${org} = ${ORG_IDS.ROOT})`.execute(ctx.db)).rows.map((r) => r.id))
          for (const t of ids) if (!found.has(t)) bad.push(tr(ctx.lang, 'Invalid pk "{pk}" - object does not exist.', { pk: t }))
        }
        if (bad.length) errors.accounts = bad
        values.accounts = list
      }
      if (Array.isArray(values.protocols)) {
        const list = [...new Set((values.protocols as string[]).map((p) => p.trim().toLowerCase()).filter(Boolean))]
        values.protocols = list.length ? list : ['all']
      }
      return Object.keys(errors).length ? errors : undefined
    },
  },
}

/** One member relation of asset permissions: plain rows of the link table, filtered by `assetpermission`. */
function relationDef(kind: 'users' | 'user-groups' | 'assets' | 'nodes', field: string, target: string, label: string, display: string): ResourceDef {
  const table = ({ users: 'asset_permission_users', 'user-groups': 'asset_permission_user_groups', assets: 'asset_permission_assets', nodes: 'asset_permission_nodes' } as const)[kind]
  return {
    name: `perms.assetpermission${field}relation`,
    app: 'perms',
    model: 'assetpermission',
    verboseName: `Asset permission ${label.toLowerCase()} relation`,
    path: `/api/v1/perms/asset-permissions-${kind}-relations/`,
    table,
    idKind: 'serial',
    fields: [
      idField(true),
      { name: field, type: 'pk', label, required: true, relation: { resource: target } },
      { name: 'assetpermission', type: 'pk', label: 'Asset permission', required: true, relation: { resource: 'perms.assetpermission' } },
      { name: `${field}_display`, type: 'string', label: `${label} display`, read_only: true, expr: display },
      { name: 'assetpermission_display', type: 'string', label: 'Asset permission display', read_only: true, expr: '(select p.name from asset_permissions p where p.id = t.assetpermission_id)' },
    ],
    scope: (ctx) => (ctx.orgId === ORG_IDS.ROOT ? undefined : sql`exists (select 1 from asset_permissions p where p.id = t.assetpermission_id and p.org_id = ${ctx.orgId})`),
    filters: [field, 'assetpermission'],
    ordering: { fields: [], default: ['id'] },
    verbs: ['list', 'retrieve', 'create', 'destroy', 'bulk_destroy'],
    perms: { view: 'perms.view_assetpermission', add: 'perms.change_assetpermission', change: 'perms.change_assetpermission', delete: 'perms.change_assetpermission' },
    bulkDelete: 'filtered',
    display: (r) => `${String(r[`${field}_id`])} - ${String(r.assetpermission_id)}`,
  }
}

export const PERMISSION_RELATIONS = [
  relationDef('users', 'user', 'users.user', 'User', `(select u.name || '(' || u.username || ')' from users u where u.id = t.user_id)`),
  relationDef('user-groups', 'usergroup', 'users.usergroup', 'User group', '(select g.name from user_groups g where g.id = t.usergroup_id)'),
  relationDef('assets', 'asset', 'assets.asset', 'Asset', `(select a.name || '(' || a.address || ')' from assets a where a.id = t.asset_id)`),
  relationDef('nodes', 'node', 'assets.node', 'Node', '(select n.full_value from nodes n where n.id = t.node_id)'),
]
