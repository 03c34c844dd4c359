/**
 * Permissions: `GET /api/v1/rbac/permissions/` (the catalogue), the permission tree
 * `GET /api/v1/rbac/permissions/tree/?role=<id>|?scope=system|org`, and a role's permissions
 * `GET|PATCH /api/v1/rbac/{system,org}-roles/<id>/permissions/` with its tree `…/permissions/tree/`. The tree shape is documented in docs/engine.md.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import type { ActionDef } from '../../engine/types.ts'
import type { RowOf } from '../../db/connection.ts'
import { bodyObject } from '../../http/body.ts'
import { pageLinks, pageParams, type Query, qstr } from '../../engine/query.ts'
import { requirePerm } from '../../http/context.ts'
import { ApiError, validationError } from '../../http/errors.ts'
import type { Lang } from '../../http/request-context.ts'
import { tr } from '../../i18n.ts'
import { ORG_IDS, PERMISSION_BY_ID, permissionsForScope, type PermissionDef, type Scope } from '../../rbac/catalog.ts'
import { rolePermissions } from '../../rbac/perms.ts'
import { actionLabel, appLabel, modelLabel, viewLabel, VIEW_KEYS } from './labels.ts'

/** The view a permission belongs to in the tree. */
export function viewOf(p: PermissionDef): string {
  if (p.app === 'rbac' && p.model === 'menupermission') {
    if (p.action === 'view_audit') return 'audit'
    if (p.action === 'view_console') return 'console'
    return 'workbench'
  }
  if (p.app === 'audits' || (p.app === 'terminal' && ['session', 'command', 'sessionreplay'].includes(p.model))) return 'audit'
  if (p.app === 'ops' || (p.app === 'perms' && p.model === 'myassets') || (p.app === 'assets' && p.model === 'favoriteasset')) return 'workbench'
  if (['settings', 'terminal', 'tickets', 'authentication', 'notifications'].includes(p.app)) return 'setting'
  return 'console'
}

export function permissionName(p: PermissionDef, lang: Lang): string {
  const a = tr(lang, actionLabel(p.action))
  const m = tr(lang, modelLabel(p.model))
  return lang === 'en' ? `${a} ${m.toLowerCase()}` : `${a}${m}`
}

/** A permission as listed (JumpServer's PermissionSerializer). */
export interface PermissionRow { id: number; name: string; codename: string | undefined; app_label: string; model: string; scope: 'system' | 'org' }

export function permissionRows(perms: PermissionDef[], lang: Lang): PermissionRow[] {
  return perms.map((p) => ({ id: p.id, name: permissionName(p, lang), codename: p.codename.split('.')[1], app_label: p.app, model: p.model, scope: p.scope === 'system' ? 'system' : 'org' }))
}

interface RoleInfo { id: string; scope: Scope; builtin: boolean }
const roleInfo = (row: Pick<RowOf<'roles'>, 'id' | 'scope' | 'builtin'>): RoleInfo => ({ id: row.id, scope: row.scope as Scope, builtin: row.builtin })

async function roleById(req: FastifyRequest, id: string): Promise<RoleInfo> {
  const missing = () => new ApiError(404, { detail: tr(req.ctx.lang, '{model} object does not exist.', { model: tr(req.ctx.lang, 'Role') }), code: 'object_does_not_exist' })
  if (!/^[0-9a-f-]{36}$/i.test(id)) throw missing()
  const r = (await sql<RoleInfo>`select id, scope, builtin from roles where id = ${id.toLowerCase()}`.execute(req.ctx.db)).rows[0]
  if (!r) throw missing()
  return r
}

async function heldCodenames(req: FastifyRequest, role: RoleInfo): Promise<Set<string>> {
  return new Set((await rolePermissions(req.ctx.db, [role.id])).get(role.id) ?? [])
}

export interface TreeNode {
  id: string
  name: string
  title: string
  pId: string | null
  isParent: boolean
  open: boolean
  checked: boolean
  chkDisabled: boolean
  meta: Record<string, unknown>
}

/** zTree-like nodes: view → app → model → permission (leaf id = the permission's integer id). */
export function buildTree(scope: Scope, held: Set<string>, lang: Lang, disabled: boolean): TreeNode[] {
  const perms = permissionsForScope(scope)
  const nodes: TreeNode[] = []
  const leavesUnder = new Map<string, PermissionDef[]>()
  const add = (key: string, p: PermissionDef) => (leavesUnder.get(key) ?? leavesUnder.set(key, []).get(key)!).push(p)
  for (const p of perms) {
    const v = viewOf(p)
    add(`view:${v}`, p)
    add(`app:${v}:${p.app}`, p)
    add(`model:${v}:${p.app}.${p.model}`, p)
  }
  const allHeld = (key: string) => (leavesUnder.get(key) ?? []).every((p) => held.has(p.codename))
  const someHeld = (key: string) => (leavesUnder.get(key) ?? []).some((p) => held.has(p.codename))
  const group = (id: string, pId: string | null, label: string, meta: Record<string, unknown>): TreeNode => {
    const name = tr(lang, label)
    return { id, name, title: name, pId, isParent: true, open: pId === null, checked: allHeld(id), chkDisabled: disabled, meta: { ...meta, half: someHeld(id) && !allHeld(id) } }
  }
  for (const v of VIEW_KEYS) {
    const viewId = `view:${v}`
    if (!leavesUnder.has(viewId)) continue
    nodes.push(group(viewId, null, viewLabel(v), { type: 'view', view: v }))
    const inView = leavesUnder.get(viewId)!
    for (const app of [...new Set(inView.map((p) => p.app))]) {
      const appId = `app:${v}:${app}`
      nodes.push(group(appId, viewId, appLabel(app), { type: 'app', view: v, app }))
      for (const model of [...new Set(inView.filter((p) => p.app === app).map((p) => p.model))]) {
        const modelId = `model:${v}:${app}.${model}`
        nodes.push(group(modelId, appId, modelLabel(model), { type: 'model', view: v, app, model }))
        for (const p of leavesUnder.get(modelId)!) {
          const name = tr(lang, actionLabel(p.action))
          nodes.push({
            id: String(p.id), name, title: p.codename, pId: modelId, isParent: false, open: false,
            checked: held.has(p.codename), chkDisabled: disabled, meta: { type: 'perm', perm_id: p.id, codename: p.codename },
          })
        }
      }
    }
  }
  return nodes
}

function sendList<T>(req: FastifyRequest, rows: T[]) {
  const page = pageParams((req.query ?? {}) as Query)
  if (!page) return rows
  return { count: rows.length, ...pageLinks(req, rows.length, page.limit, page.offset), results: rows.slice(page.offset, page.offset + page.limit) }
}

/** `GET|PATCH …/<system|org>-roles/<id>/permissions/`. */
export function rolePermissionActions(perm: (action: string) => string): Array<ActionDef<RowOf<'roles'>>> {
  return [
    {
      path: 'permissions', detail: true, method: 'GET', perm: perm('view'), systemPerm: true,
      handler: async (req, _reply, api, id) => {
        const row = await api.getObject(req, id!)
        const held = await heldCodenames(req, roleInfo(row))
        return sendList(req, permissionRows(permissionsForScope(roleInfo(row).scope).filter((p) => held.has(p.codename)), req.ctx.lang))
      },
    },
    {
      // The reference console reads a role's tree here (lina 3.2.2); the same tree as `permissions/tree/?role=<id>`.
      path: 'permissions/tree', detail: true, method: 'GET', perm: perm('view'), systemPerm: true,
      handler: async (req, _reply, api, id) => {
        const row = await api.getObject(req, id!)
        const role = roleInfo(row)
        return buildTree(role.scope, await heldCodenames(req, role), req.ctx.lang, role.builtin)
      },
    },
    {
      path: 'permissions', detail: true, method: 'PATCH', perm: perm('change'), systemPerm: true,
      handler: async (req, _reply, api, id) => {
        const body = bodyObject(req)
        const row = await api.getObject(req, id!)
        return api.update(req, String(row.id), { permissions: body.permissions ?? [] }, { partial: true }).then(async () => {
          const held = await heldCodenames(req, roleInfo(row))
          return { permissions: permissionsForScope(roleInfo(row).scope).filter((p) => held.has(p.codename)).map((p) => p.id) }
        })
      },
    },
  ]
}

export async function registerPermissionRoutes(app: FastifyInstance): Promise<void> {
  const both = (url: string) => [url, url.slice(0, -1)]
  for (const url of both('/api/v1/rbac/permissions/')) {
    app.get(url, async (req) => {
      await requirePerm(req, 'rbac.view_permission|rbac.view_systemrole|rbac.view_orgrole', ORG_IDS.ROOT)
      const q = (req.query ?? {}) as Query
      const scope = qstr(q, 'scope')
      let perms = scope === 'system' || scope === 'org' ? permissionsForScope(scope) : [...PERMISSION_BY_ID.values()]
      const search = qstr(q, 'search')?.toLowerCase()
      if (search) perms = perms.filter((p) => p.codename.includes(search) || permissionName(p, req.ctx.lang).toLowerCase().includes(search))
      return sendList(req, permissionRows(perms, req.ctx.lang))
    })
  }
  for (const url of both('/api/v1/rbac/permissions/tree/')) {
    app.get(url, async (req) => {
      await requirePerm(req, 'rbac.view_permission|rbac.view_systemrole|rbac.view_orgrole', ORG_IDS.ROOT)
      const q = (req.query ?? {}) as Query
      const roleId = qstr(q, 'role')
      if (roleId) {
        const role = await roleById(req, roleId)
        return buildTree(role.scope, await heldCodenames(req, role), req.ctx.lang, role.builtin)
      }
      const scope = qstr(q, 'scope')
      if (scope !== 'system' && scope !== 'org') throw validationError({ scope: [tr(req.ctx.lang, '"{input}" is not a valid choice.', { input: scope ?? '' })] })
      return buildTree(scope, new Set(), req.ctx.lang, false)
    })
  }
}
