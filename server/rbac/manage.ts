/**
 * Who may change whom (issue 16, rule 1). A holder of `users.change_user` at system scope (a system role) may
 * change any user. Anyone else may change a user only when that user's system roles are the plain User role and
 * every organization the user belongs to is one where the caller holds `users.change_user` — so an organization
 * admin can never change (password, activity, MFA, login ACLs…) a system admin or auditor, even one invited into
 * the organization, nor a member of another organization.
 *
 * The rule is one SQL condition on a user id (no round trip per row), usable as a list scope, a relation limit
 * and a guard.
 */
import { sql, type RawBuilder } from 'kysely'
import type { DB } from '../db/connection.ts'
import { ApiError } from '../http/errors.ts'
import type { RequestContext } from '../http/request-context.ts'
import { addMessages, tr } from '../i18n.ts'
import { BUILTIN_ROLES, ROLE_IDS } from './catalog.ts'

export const MANAGE_PERM = 'users.change_user'
const REFUSED = 'You may not change a user with a higher role or outside your organizations'

addMessages({
  [REFUSED]: ['您不能修改拥有更高角色或属于您管理范围以外组织的用户', '上位のロールを持つユーザー、または管理外の組織に属するユーザーは変更できません'],
})

const grantingBuiltins = () => BUILTIN_ROLES.filter((r) => r.perms().includes(MANAGE_PERM)).map((r) => r.id)

/** A role (expression) that grants the manage permission: a built-in one, or a custom role holding it. */
function grants(role: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`(${role} = any(${grantingBuiltins()}::uuid[])
    or ${role} in (select rp.role_id from role_permissions rp where rp.codename = ${MANAGE_PERM}))`
}

/** SQL condition: the caller may change the user whose id is `target` (an SQL expression). */
export function manageableCond(callerId: string, target: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`(exists (select 1 from role_bindings c where c.user_id = ${callerId} and c.scope = 'system' and ${grants(sql.ref('c.role_id'))})
    or (not exists (select 1 from role_bindings s where s.user_id = ${target} and s.scope = 'system' and s.role_id <> ${ROLE_IDS.User})
      and not exists (select 1 from role_bindings o where o.user_id = ${target} and o.scope = 'org'
        and not exists (select 1 from role_bindings c where c.user_id = ${callerId} and c.scope = 'org' and c.org_id = o.org_id
          and ${grants(sql.ref('c.role_id'))}))))`
}

/** The condition for the request's user (nobody is manageable without a user). */
export function manageableBy(ctx: RequestContext, target: RawBuilder<unknown>): RawBuilder<unknown> {
  return ctx.user ? manageableCond(ctx.user.id, target) : sql`false`
}

/** Throws 403 unless the request's user may change every one of these users. */
export async function assertCanManage(db: DB, ctx: RequestContext, userIds: readonly string[]): Promise<void> {
  if (!userIds.length) return
  const r = await sql<{ id: string }>`select u.id from users u where u.id = any(${[...userIds]}::uuid[])
    and not ${manageableBy(ctx, sql.ref('u.id'))} limit 1`.execute(db)
  if (r.rows.length) {
    throw new ApiError(403, { detail: tr(ctx.lang, REFUSED), code: 'permission_denied' })
  }
}
