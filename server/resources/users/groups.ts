/** User groups `/api/v1/users/groups/` (org-scoped) and their member relations (contract §5.1). */
import { sql } from 'kysely'
import type { ResourceDef } from '../../engine/types.ts'
import { ORG_IDS } from '../../rbac/catalog.ts'
import { commentField, createdBy, dateCreated, dateUpdated, idField } from '../common.ts'
import './messages.ts'

export const userGroups: ResourceDef<'user_groups'> = {
  name: 'users.usergroup',
  app: 'users',
  model: 'usergroup',
  verboseName: 'User group',
  path: '/api/v1/users/groups/',
  table: 'user_groups',
  orgScoped: true,
  fields: [
    idField(),
    { name: 'name', type: 'string', label: 'Name', required: true, max_length: 128, unique: 'org' },
    commentField,
    {
      name: 'users', type: 'm2m', label: 'User', default: [],
      relation: { resource: 'users.user', attrs: ['id', 'name', 'username'], through: { table: 'user_group_members', from: 'usergroup_id', to: 'user_id' } },
    },
    { name: 'users_amount', type: 'integer', label: 'Users amount', read_only: true, expr: '(select count(*) from user_group_members m where m.usergroup_id = t.id)' },
    createdBy,
    dateCreated,
    dateUpdated,
  ],
  search: ['name'],
  filters: ['id', 'name', 'users'],
  ordering: { fields: ['name', 'users_amount', 'date_created'], default: ['name'] },
  sizes: { mini: ['id', 'name'], small: ['id', 'name', 'comment', 'users_amount', 'date_created', 'created_by'] },
}

/** `/api/v1/users/users-groups-relations/?usergroup=<id>`: plain rows of the membership table. */
export const userGroupRelations: ResourceDef<'user_group_members'> = {
  name: 'users.usergrouprelation',
  app: 'users',
  model: 'usergroup',
  verboseName: 'User group relation',
  path: '/api/v1/users/users-groups-relations/',
  table: 'user_group_members',
  idKind: 'serial',
  fields: [
    idField(true),
    { name: 'user', type: 'pk', label: 'User', required: true, relation: { resource: 'users.user' } },
    { name: 'usergroup', type: 'pk', label: 'User group', required: true, relation: { resource: 'users.usergroup' } },
    { name: 'user_display', type: 'string', label: 'User display', read_only: true, expr: `(select u.name || '(' || u.username || ')' from users u where u.id = t.user_id)` },
    { name: 'usergroup_display', type: 'string', label: 'User group display', read_only: true, expr: '(select g.name from user_groups g where g.id = t.usergroup_id)' },
  ],
  scope: (ctx) => (ctx.orgId === ORG_IDS.ROOT ? undefined : sql`exists (select 1 from user_groups g where g.id = t.usergroup_id and g.org_id = ${ctx.orgId})`),
  filters: ['user', 'usergroup'],
  ordering: { fields: [], default: ['id'] },
  verbs: ['list', 'retrieve', 'create', 'destroy', 'bulk_destroy'],
  perms: { view: 'users.view_usergroup', add: 'users.change_usergroup', change: 'users.change_usergroup', delete: 'users.change_usergroup' },
  bulkDelete: 'filtered',
  display: (r) => `${r.user_id} - ${r.usergroup_id}`,
}
