import { sql } from 'kysely'
import type { DB } from '../db/connection.ts'
import { BUILTIN_ROLES, ORG_IDS, satisfies } from './catalog.ts'

const BUILTIN = new Map(BUILTIN_ROLES.map((r) => [r.id, r]))
const builtinPermCache = new Map<string, string[]>()

function builtinPerms(roleId: string): string[] | undefined {
  const role = BUILTIN.get(roleId)
  if (!role) return undefined
  let perms = builtinPermCache.get(roleId)
  if (!perms) builtinPermCache.set(roleId, (perms = role.perms()))
  return perms
}

export interface BindingRow { role_id: string; scope: string; org_id: string | null }

/** Every binding of a user: system ones and org ones in all orgs. */
export async function userBindings(db: DB, userId: string): Promise<BindingRow[]> {
  return db.selectFrom('role_bindings').select(['role_id', 'scope', 'org_id']).where('user_id', '=', userId).execute()
}

/** Permission codenames held by a set of roles (builtins expanded, custom roles read from role_permissions). */
export async function rolePermissions(db: DB, roleIds: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>()
  const custom: string[] = []
  for (const id of new Set(roleIds)) {
    const b = builtinPerms(id)
    if (b) out.set(id, b)
    else custom.push(id)
  }
  if (custom.length) {
    const rows = await sql<{ role_id: string; codename: string }>`
      select role_id, codename from role_permissions where role_id = any(${custom}::uuid[])`.execute(db)
    for (const id of custom) out.set(id, [])
    for (const r of rows.rows) out.get(r.role_id)!.push(r.codename)
  }
  return out
}

/**
 * Effective permissions in an organization (contract §7): system-scope bindings always count; org-scope
 * bindings only for that org; in ROOT only system bindings count.
 */
export async function effectivePerms(db: DB, userId: string, orgId: string): Promise<Set<string>> {
  return permsOfBindings(db, await userBindings(db, userId), orgId)
}

/** effectivePerms over bindings already read (the request context reads them with the session and the user). */
export async function permsOfBindings(db: DB, bindings: readonly BindingRow[], orgId: string): Promise<Set<string>> {
  const relevant = bindings.filter((b) => b.scope === 'system' || (orgId !== ORG_IDS.ROOT && b.org_id === orgId))
  const perms = await rolePermissions(db, relevant.map((b) => b.role_id))
  const out = new Set<string>()
  for (const b of relevant) for (const p of perms.get(b.role_id) ?? []) out.add(p)
  return out
}

export interface OrgRef { id: string; name: string; is_default: boolean; is_root: boolean }

export interface OrgLists { console_orgs: OrgRef[]; audit_orgs: OrgRef[]; workbench_orgs: OrgRef[] }

/** The profile's console/audit/workbench organization lists (contract §4.2). */
export async function orgListsFor(db: DB, userId: string, opts: { licensed: boolean; rootName: string }): Promise<OrgLists> {
  const bindings = await userBindings(db, userId)
  const perms = await rolePermissions(db, bindings.map((b) => b.role_id))
  const systemHeld = new Set<string>()
  const orgHeld = new Map<string, Set<string>>()
  for (const b of bindings) {
    const target = b.scope === 'system' ? systemHeld : (orgHeld.get(b.org_id!) ?? orgHeld.set(b.org_id!, new Set()).get(b.org_id!)!)
    for (const p of perms.get(b.role_id) ?? []) target.add(p)
  }
  const orgRows = (await sql<{ id: string; name: string }>`
    select id, name from organizations where id <> ${ORG_IDS.SYSTEM} order by (id = ${ORG_IDS.DEFAULT}) desc, name`.execute(db)).rows
  const orgs = opts.licensed ? orgRows : orgRows.filter((o) => o.id === ORG_IDS.DEFAULT)
  const ref = (o: { id: string; name: string }): OrgRef => ({ id: o.id, name: o.name, is_default: o.id === ORG_IDS.DEFAULT, is_root: false })
  const holds = (orgId: string, perm: string) => systemHeld.has(perm) || (orgHeld.get(orgId)?.has(perm) ?? false)
  const joined = (orgId: string) => orgHeld.has(orgId)
  const root: OrgRef = { id: ORG_IDS.ROOT, name: opts.rootName, is_default: false, is_root: true }
  const canRoot = opts.licensed && satisfies(systemHeld, 'orgs.view_rootorg')
  const console_orgs = orgs.filter((o) => holds(o.id, 'rbac.view_console')).map(ref)
  const audit_orgs = orgs.filter((o) => holds(o.id, 'rbac.view_audit')).map(ref)
  const workbench_orgs = orgs.filter((o) => joined(o.id) && holds(o.id, 'rbac.view_workbench')).map(ref)
  if (canRoot && console_orgs.length) console_orgs.unshift(root)
  if (canRoot && audit_orgs.length) audit_orgs.unshift(root)
  if (opts.licensed && workbench_orgs.length > 1 && systemHeld.has('orgs.view_alljoinedorg')) {
    workbench_orgs.unshift({ ...root, name: 'All organizations' })
  }
  return { console_orgs, audit_orgs, workbench_orgs }
}
