/**
 * Role bindings `/api/v1/rbac/role-bindings/` (read-only, both scopes), `/system-role-bindings/` and
 * `/org-role-bindings/` (contract §5.1): plain serializers with bare ids and display strings.
 */
import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import type { RowOf } from '../../db/connection.ts'
import type { Ctx, FieldDef, LoadArgs, ResourceDef } from '../../engine/types.ts'
import { ApiError } from '../../http/errors.ts'
import { addMessages, tr } from '../../i18n.ts'
import { ORG_IDS } from '../../rbac/catalog.ts'
import { createdBy, dateCreated, idField } from '../common.ts'
import { roleDisplay } from './roles.ts'

addMessages({
  'Role binding': ['角色绑定', 'ロールバインディング'],
  'System role binding': ['系统角色绑定', 'システムロールバインディング'],
  'Organization role binding': ['组织角色绑定', '組織ロールバインディング'],
  'Role display': ['角色名称', 'ロール表示名'],
  'Has bound this role': ['已经绑定', 'このロールは既にバインドされています'],
  'User last role in org, can not be delete, you can remove user from org instead': [
    '用户在组织中的最后一个角色，不能删除，你可以将用户从组织中移除',
    '組織内のユーザーの最後のロールは削除できません。代わりにユーザーを組織から削除してください',
  ],
})

async function roleDisplays(_ids: unknown[], { db, ctx, rows }: LoadArgs<Pick<RowOf<'role_bindings'>, 'id' | 'role_id'>>): Promise<Map<unknown, unknown>> {
  const roleIds = [...new Set(rows.map((r) => r.role_id))]
  const roles = roleIds.length ? await db.selectFrom('roles').select(['id', 'name', 'builtin']).where('id', '=', sql<string>`any(${roleIds}::uuid[])`).execute() : []
  const byId = new Map(roles.map((r) => [r.id, roleDisplay(r, ctx.lang)]))
  return new Map(rows.map((r) => [r.id, byId.get(r.role_id) ?? '']))
}

const orgOfRequest = (ctx: Ctx, body: { org?: unknown }) => (ctx.orgId === ORG_IDS.ROOT ? (body.org as string | undefined) : ctx.orgId)

function bindingResource(kind: 'rolebinding' | 'systemrolebinding' | 'orgrolebinding'): ResourceDef<'role_bindings'> {
  const scope = kind === 'systemrolebinding' ? 'system' : kind === 'orgrolebinding' ? 'org' : undefined
  const fields: FieldDef[] = [
    idField(),
    { name: 'user', type: 'pk', label: 'User', required: true, relation: { resource: 'users.user', unscoped: true } },
    { name: 'user_display', type: 'string', label: 'User display', read_only: true, expr: `(select u.name || '(' || u.username || ')' from users u where u.id = t.user_id)` },
    { name: 'role', type: 'pk', label: 'Role', required: true, relation: { resource: scope === 'system' ? 'rbac.systemrole' : scope === 'org' ? 'rbac.orgrole' : 'rbac.role' } },
    { name: 'role_display', type: 'string', label: 'Role display', read_only: true, column: false, load: roleDisplays },
    { name: 'scope', type: 'labeled_choice', label: 'Scope', read_only: true, choices: [{ value: 'system', label: 'System' }, { value: 'org', label: 'Organization' }] },
  ]
  if (scope !== 'system') {
    fields.push(
      { name: 'org', type: 'pk', label: 'Organization', allow_null: true, relation: { resource: 'orgs.organization' } },
      { name: 'org_name', type: 'string', label: 'Organization name', read_only: true, expr: '(select o.name from organizations o where o.id = t.org_id)' },
    )
  }
  fields.push(createdBy, dateCreated)
  const perm = (a: string) => (scope ? `rbac.${a}_${kind}` : `rbac.${a}_systemrolebinding|rbac.${a}_orgrolebinding`)
  const path = { rolebinding: '/api/v1/rbac/role-bindings/', systemrolebinding: '/api/v1/rbac/system-role-bindings/', orgrolebinding: '/api/v1/rbac/org-role-bindings/' }[kind]
  return {
    name: `rbac.${kind}`,
    app: 'rbac',
    model: kind,
    verboseName: scope === 'system' ? 'System role binding' : scope === 'org' ? 'Organization role binding' : 'Role binding',
    path,
    table: 'role_bindings',
    fields,
    scope: (ctx) => {
      const inOrg = ctx.orgId === ORG_IDS.ROOT ? sql`true` : sql`t.org_id = ${ctx.orgId}`
      if (scope === 'system') return sql`t.scope = 'system'`
      if (scope === 'org') return sql`t.scope = 'org' and ${inOrg}`
      return sql`(t.scope = 'system' or ${inOrg})`
    },
    systemPerms: true,
    perms: { view: perm('view'), add: perm('add'), change: perm('change'), delete: perm('delete') },
    verbs: scope ? undefined : ['list', 'retrieve', 'export'],
    filters: ['id', 'user', 'role', 'scope', ...(scope === 'org' ? ['org'] : [])],
    ordering: { fields: ['date_created', 'scope'], default: ['-date_created'] },
    bulkDelete: 'ids',
    auditOrg: scope === 'system' ? 'system' : 'current',
    display: (r) => `${r.user_id} - ${r.role_id}`,
    hooks: {
      async validate(values, ctx, info) {
        const org = scope === 'org' ? (info.existing?.org_id ?? orgOfRequest(ctx, values)) : null
        if (scope === 'org' && !org) return { org: [tr(ctx.lang, 'Please save in a org')] }
        const user = values.user ?? info.existing?.user_id
        const role = values.role ?? info.existing?.role_id
        const dup = await sql`select 1 from role_bindings where user_id = ${user} and role_id = ${role}
          and ${org ? sql`org_id = ${org}` : sql`org_id is null`} ${info.existing ? sql`and id <> ${info.existing.id}` : sql``}`.execute(ctx.db)
        return dup.rows.length ? { role: [tr(ctx.lang, 'Has bound this role')] } : undefined
      },
      columns: (values, ctx, info) => ({
        scope,
        org_id: scope === 'org' ? (info.existing?.org_id ?? orgOfRequest(ctx, values)) : null,
        ...(info.op === 'create' ? { id: randomUUID() } : {}),
      }),
      async beforeDelete(tx, row, ctx) {
        if (row.scope !== 'org') return
        const others = await sql`select 1 from role_bindings where user_id = ${row.user_id} and org_id = ${row.org_id} and id <> ${row.id} limit 1`.execute(tx)
        if (!others.rows.length) {
          throw new ApiError(400, { error: tr(ctx.lang, 'User last role in org, can not be delete, you can remove user from org instead') })
        }
      },
    },
  }
}

export const roleBindings = bindingResource('rolebinding')
export const systemRoleBindings = bindingResource('systemrolebinding')
export const orgRoleBindings = bindingResource('orgrolebinding')
