import type { CrudAction, RouteDef, RouteEnv, RouteNode, ViewName } from './types.ts'

const always = () => true

/** Action from the path (spec 000 §2.1): create, update, delete, an id parameter, otherwise list. */
export function actionOfPath(path: string): CrudAction {
  if (path.includes('create')) return 'create'
  if (path.includes('update')) return 'update'
  if (path.includes('delete')) return 'destroy'
  if (/\/:[A-Za-z]/.test(path)) return 'retrieve'
  return 'list'
}

/** Resource from the level-3 segment: dashes removed, one trailing "s" dropped (`cmd-acls` → `cmdacl`). */
export function resourceOfSegment(segment: string | undefined): string | null {
  if (!segment || segment.startsWith(':')) return null
  return segment.replace(/-/g, '').replace(/s$/, '')
}

const TYPES = ['view', 'app', 'resource', 'crud'] as const

function join(base: string, path: string): string {
  if (path.startsWith('/')) return path
  const out = `${base.replace(/\/$/, '')}/${path}`.replace(/\/+$/, '')
  return out || '/'
}

interface Inherited {
  permissions: readonly string[]
  licenseRequired: boolean
  available: (env: RouteEnv) => boolean
  showOrganization: boolean
  view: ViewName | null
  parent: string | null
  /** The menu entry the pages below highlight. */
  menuPath: string | null
  depth: number
}

/**
 * Flattens the declared tree into routes with their effective metadata. Containers pass their
 * permissions, licence flag, feature switch and `showOrganization` down; pages pass only the menu entry.
 */
export function flattenRoutes(nodes: readonly RouteNode[], base = '', inherited?: Inherited): RouteDef[] {
  const out: RouteDef[] = []
  for (const node of nodes) {
    if (node.slot !== undefined) throw new Error(`Route slot ${node.slot} was not filled from the manifest`)
    const path = join(base, node.path)
    const segments = path.split('/').filter(Boolean)
    const level = segments.length
    const parentInfo: Inherited = inherited ?? {
      permissions: [], licenseRequired: false, available: always, showOrganization: false, view: null, parent: null, menuPath: null, depth: 0,
    }
    const view = node.kind === 'view' ? (segments[0] as ViewName) : parentInfo.view
    const permissions = [...new Set([...parentInfo.permissions, ...(node.permissions ?? [])])]
    const licenseRequired = parentInfo.licenseRequired || node.licenseRequired === true
    const parentAvailable = parentInfo.available
    const available = node.available ? (env: RouteEnv) => parentAvailable(env) && node.available!(env) : parentAvailable
    const showOrganization = node.showOrganization ?? parentInfo.showOrganization
    const isPage = node.kind === 'page'
    const menuPath = isPage && parentInfo.menuPath ? parentInfo.menuPath : path
    const name = node.name ?? `${node.kind}:${path}`
    const children = node.children ?? []
    const firstPage = children.find((c) => c.kind === 'page' || c.kind === 'group')
    const redirect = node.redirect ?? (node.kind === 'group' && firstPage ? join(path, firstPage.path) : undefined)
    out.push({
      kind: node.kind,
      name,
      path,
      level,
      type: TYPES[Math.min(level, 4) - 1] ?? 'view',
      view,
      app: view ? (segments[1] ?? null) : null,
      resource: view ? resourceOfSegment(segments[2]) : null,
      action: node.kind === 'page' ? actionOfPath(path) : 'list',
      permissions,
      licenseRequired,
      hidden: node.hidden === true || (isPage && parentInfo.menuPath !== null),
      available,
      title: node.title,
      icon: node.icon,
      redirect,
      href: node.href,
      activeMenu: node.activeMenu ?? menuPath,
      showOrganization,
      parent: parentInfo.parent,
    })
    if (children.length) {
      out.push(
        ...flattenRoutes(children, path, {
          // Pages do not pass their own permissions to the pages below them (create does not need view).
          permissions: isPage ? parentInfo.permissions : permissions,
          licenseRequired,
          available,
          showOrganization,
          view,
          parent: name,
          menuPath: isPage ? (node.activeMenu ?? menuPath) : null,
          depth: parentInfo.depth + 1,
        }),
      )
    }
  }
  return out
}
