/**
 * Roles `/api/v1/rbac/roles/`, `/system-roles/`, `/org-roles/` (contract §5.1, §7). Built-in roles are
 * read-only and hold the catalogue's grants; custom roles hold permission codenames in role_permissions,
 * written as the catalogue's integer ids (`permissions`, write-only).
 */
import { sql } from 'kysely'
import type { DB, RowOf } from '../../db/connection.ts'
import { resourceByName } from '../../engine/registry.ts'
import { resourceApi } from '../../engine/routes.ts'
import type { ActionDef, Ctx, FieldDef, LoadArgs, ResourceDef } from '../../engine/types.ts'
import { ApiError } from '../../http/errors.ts'
import { addMessages, tr } from '../../i18n.ts'
import { BUILTIN_ROLES, ORG_IDS, PERMISSION_BY_CODENAME, PERMISSION_BY_ID, permissionsForScope, type Scope } from '../../rbac/catalog.ts'
import { rolePermissions } from '../../rbac/perms.ts'
import { commentField, createdBy, dateCreated, dateUpdated, idField, updatedBy } from '../common.ts'
import { rolePermissionActions } from './permissions.ts'
import './labels.ts'

addMessages({
  'Role': ['角色', 'ロール'],
  'System role': ['系统角色', 'システムロール'],
  'Organization role': ['组织角色', '組織ロール'],
  'Display name': ['显示名称', '表示名'],
  'Scope': ['范围', '範囲'],
  'System': ['系统', 'システム'],
  'Built-in': ['内置', '組み込み'],
  'Permissions': ['授权', '権限'],
  "Internal role, can't be update/destroy": ['内部角色，不能更新/删除', '組み込みロールは更新/削除できません'],
  "The role has been bound to users, can't be destroy": ['角色已绑定用户，不能删除', 'ロールはユーザーにバインドされているため、削除できません'],
})

const SCOPE_CHOICES = [{ value: 'system', label: 'System' }, { value: 'org', label: 'Organization' }]
const BUILTIN = new Map(BUILTIN_ROLES.map((r) => [r.id, r]))

/** Builtin display names follow the request language; custom roles show their name. */
export function roleDisplay(row: Pick<RowOf<'roles'>, 'id' | 'name' | 'builtin'>, lang: Ctx['lang']): string {
  const b = row.builtin ? BUILTIN.get(row.id) : undefined
  return b ? b.display[lang] : String(row.name)
}

async function usersAmount(ids: unknown[], { db, ctx, rows }: LoadArgs<Pick<RowOf<'roles'>, 'id'>>): Promise<Map<unknown, unknown>> {
  if (!ids.length) return new Map()
  const r = await sql<{ role_id: string; n: number }>`select rb.role_id, count(distinct rb.user_id)::int as n from role_bindings rb
    where rb.role_id = any(${ids}::uuid[]) and (rb.scope = 'system' or ${ctx.orgId === ORG_IDS.ROOT} or rb.org_id = ${ctx.orgId})
    group by rb.role_id`.execute(db)
  const counts = new Map(r.rows.map((x) => [x.role_id, Number(x.n)]))
  return new Map(rows.map((row) => [row.id, counts.get(row.id) ?? 0]))
}

/** Replaces a custom role's permissions: unknown ids are errors (validated before), out-of-scope ones are dropped. */
export async function writeRolePermissions(tx: DB, roleId: unknown, ids: number[]): Promise<void> {
  const role = (await sql<{ scope: Scope }>`select scope from roles where id = ${roleId}`.execute(tx)).rows[0]
  if (!role) return
  const allowed = new Set(permissionsForScope(role.scope).map((p) => p.id))
  const codenames = [...new Set(ids.filter((id) => allowed.has(id)).map((id) => PERMISSION_BY_ID.get(id)!.codename))]
  await sql`delete from role_permissions where role_id = ${roleId}`.execute(tx)
  if (codenames.length) {
    await sql`insert into role_permissions (role_id, codename) select ${roleId}, unnest(${codenames}::text[])`.execute(tx)
  }
}

export const permissionsField: FieldDef = {
  name: 'permissions', type: 'list', label: 'Permissions', write_only: true, column: false, default: [],
  child: { name: 'permissions', type: 'integer' },
  validate: (ids: number[], ctx) => {
    const bad = ids.find((id) => !PERMISSION_BY_ID.has(id))
    return bad === undefined ? undefined : tr(ctx.lang, 'Invalid pk "{pk}" - object does not exist.', { pk: bad })
  },
  write: (tx, id, ids: number[]) => writeRolePermissions(tx, id, ids),
}

const refuseBuiltin = (row: Pick<RowOf<'roles'>, 'builtin'> | undefined, ctx: Ctx) => {
  if (row?.builtin) throw new ApiError(403, { detail: tr(ctx.lang, "Internal role, can't be update/destroy"), code: 'permission_denied' })
}

function roleResource(kind: 'role' | 'systemrole' | 'orgrole'): ResourceDef<'roles'> {
  const fixed: Scope | undefined = kind === 'systemrole' ? 'system' : kind === 'orgrole' ? 'org' : undefined
  const perm = (action: string) => (fixed ? `rbac.${action}_${kind}` : `rbac.${action}_systemrole|rbac.${action}_orgrole`)
  const fields: Array<FieldDef<RowOf<'roles'>>> = [
    idField(),
    { name: 'name', type: 'string', label: 'Name', required: true, max_length: 128 },
    { name: 'display_name', type: 'string', label: 'Display name', read_only: true, column: false, get: (row, ctx) => roleDisplay(row, ctx.lang) },
    { name: 'scope', type: 'labeled_choice', label: 'Scope', choices: SCOPE_CHOICES, required: !fixed, read_only: !!fixed },
    { name: 'builtin', type: 'boolean', label: 'Built-in', read_only: true },
    { name: 'users_amount', type: 'integer', label: 'Users amount', read_only: true, load: usersAmount },
    permissionsField,
    commentField,
    createdBy,
    updatedBy,
    dateCreated,
    dateUpdated,
  ]
  const path = { role: '/api/v1/rbac/roles/', systemrole: '/api/v1/rbac/system-roles/', orgrole: '/api/v1/rbac/org-roles/' }[kind]
  const actions: ActionDef[] = [roleUsersAction(perm('view')), ...(fixed ? rolePermissionActions(perm) : [])]
  return {
    name: `rbac.${kind}`,
    app: 'rbac',
    model: kind,
    verboseName: kind === 'systemrole' ? 'System role' : kind === 'orgrole' ? 'Organization role' : 'Role',
    path,
    table: 'roles',
    fields,
    scope: fixed ? () => sql`t.scope = ${fixed}` : undefined,
    systemPerms: true,
    search: ['name'],
    filters: ['id', 'name', 'scope', 'builtin'],
    ordering: { fields: ['name', 'builtin', 'scope', 'date_created', 'date_updated'], default: ['-builtin', 'name'] },
    sizes: { mini: ['id', 'name', 'display_name'], small: ['id', 'name', 'display_name', 'scope', 'builtin', 'users_amount', 'comment'] },
    perms: { view: perm('view'), add: perm('add'), change: perm('change'), delete: perm('delete') },
    auditOrg: 'system',
    hooks: {
      async validate(values, ctx, info) {
        refuseBuiltin(info.existing, ctx)
        if (info.existing) delete values.scope // a role keeps its scope: its bindings and permissions depend on it
        const scope = (fixed ?? values.scope ?? info.existing?.scope) as Scope
        if (!fixed && info.op === 'create') {
          const held = await ctx.permsIn(ORG_IDS.ROOT)
          if (!held.has(`rbac.add_${scope}role`)) throw new ApiError(403, { detail: 'You do not have permission to perform this action.', code: 'permission_denied' })
        }
        const name = values.name ?? info.existing?.name
        const dup = await sql`select 1 from roles where name = ${name} and scope = ${scope} ${info.existing ? sql`and id <> ${info.existing.id}` : sql``}`.execute(ctx.db)
        return dup.rows.length ? { name: [tr(ctx.lang, 'This field must be unique.')] } : undefined
      },
      columns: () => (fixed ? { scope: fixed } : {}),
      async afterSave(tx, id, values, _ctx, info) {
        const source = (info.req?.query as Record<string, string> | undefined)?.clone_from
        if (info.op !== 'create' || !source || (values.permissions as number[] | undefined)?.length) return
        if (!/^[0-9a-f-]{36}$/i.test(source)) return
        const perms = (await rolePermissions(tx, [source.toLowerCase()])).get(source.toLowerCase()) ?? []
        const ids = perms.map((c) => PERMISSION_BY_CODENAME.get(c)?.id).filter((x): x is number => x !== undefined)
        await writeRolePermissions(tx, id, ids)
      },
      async beforeDelete(tx, row, ctx) {
        refuseBuiltin(row, ctx)
        const bound = await sql`select 1 from role_bindings where role_id = ${row.id} limit 1`.execute(tx)
        if (bound.rows.length) throw new ApiError(403, { detail: tr(ctx.lang, "The role has been bound to users, can't be destroy"), code: 'permission_denied' })
      },
    },
    actions,
  }
}

/** `GET …/roles/<id>/users/`: users bound to the role `{id, name, username}` (org roles: in the current org). */
function roleUsersAction(perm: string): ActionDef {
  return {
    path: 'users', detail: true, method: 'GET', perm, systemPerm: true,
    handler: async (req, _reply, api, id) => {
      const role = await api.getObject(req, id!)
      const users = resourceApi(resourceByName('users.user'))
      const inOrg = role.scope === 'org' && req.ctx.orgId !== ORG_IDS.ROOT
      const extra = sql`exists (select 1 from role_bindings rb where rb.user_id = t.id and rb.role_id = ${role.id}${inOrg ? sql` and rb.org_id = ${req.ctx.orgId}` : sql``})`
      return users.listResponse(req, { only: ['id', 'name', 'username'], extra, ctx: { ...req.ctx, orgId: ORG_IDS.ROOT } })
    },
  }
}

export const roles = roleResource('role')
export const systemRoles = roleResource('systemrole')
export const orgRoles = roleResource('orgrole')
