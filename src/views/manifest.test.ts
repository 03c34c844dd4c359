import { describe, expect, it } from 'vitest'
// Tests may import both sides (architecture: layer rules): the manifest is checked against the server's resources.
import { RESOURCES } from '../../server/resources/index.ts'
import type { ResourceDef as ServerResource } from '../../server/engine/types.ts'
import { ROUTES, routeByName } from '../router/catalog.ts'
import { buildMenu } from '../router/menu.ts'
import { PAGES } from '../router/pages.ts'
import { deriveResource, placeResources, type ResourceEntry, type ResourceManifestItem } from '../router/resources.ts'
import { settingsRoutes } from '../router/routes/settings.ts'
import { RELATED_MODELS, RESOURCE_ENTRIES, RESOURCE_MANIFEST, manifestRoute, relatedSourceOf } from './entries.ts'

const KINDS = ['list', 'create', 'update', 'detail'] as const
const serverByPath = new Map(RESOURCES.map((r) => [r.path, r]))
const serverByName = new Map(RESOURCES.map((r) => [r.name, r]))

/**
 * Related fields of a manifest item the console has no picker source for, against a server that sends no
 * OPTIONS hint (a real JumpServer): each writable fk/m2m/pk field with a relation must be declared in the entry
 * with a model whose list URL serves the same objects (same table) as the server's relation target.
 */
function unresolvedRelated(item: ResourceManifestItem, servers: ReadonlyMap<string, ServerResource>): string[] {
  const server = servers.get(item.url)
  if (!server) return [`${item.key}: no server resource at ${item.url}`]
  const problems: string[] = []
  for (const field of server.fields) {
    if (!field.relation || field.read_only || !['fk', 'm2m', 'pk'].includes(field.type)) continue
    const ref = item.resource.related?.[field.name]
    if (!ref) {
      problems.push(`${item.key}.${field.name}: no source`)
      continue
    }
    const listed = RESOURCES.find((r) => r.path === ref.url)
    const target = serverByName.get(field.relation.resource)
    if (!listed || !target || listed.table !== target.table) problems.push(`${item.key}.${field.name}: ${ref.url} does not list ${field.relation.resource}`)
  }
  return problems
}

describe('console manifest', () => {
  it('has unique keys, URLs of served resources and a route for every page it offers', () => {
    const keys = RESOURCE_MANIFEST.map((i) => i.key)
    expect(new Set(keys).size).toBe(keys.length)
    for (const item of RESOURCE_MANIFEST) {
      expect(serverByPath.has(item.url), item.url).toBe(true)
      for (const kind of KINDS) {
        const ref = item.routes[kind]
        if (!ref) continue
        const route = routeByName(ref.name)
        expect(route?.path, ref.name).toBe(ref.path)
        expect(route?.kind, ref.name).toBe('page')
        expect(PAGES[ref.name], ref.name).toBeDefined()
        // A list shown as a tab of another page (Settings → Terminal) belongs to that page.
        if (kind === 'list' && item.entry.listTab) expect(manifestRoute(ref.name)).toBeUndefined()
        else expect(manifestRoute(ref.name)).toEqual({ item, kind })
        expect(route?.view, ref.name).toBe(item.view)
      }
    }
  })

  it('derives each route\u2019s permission from the entry (view, add, change)', () => {
    for (const item of RESOURCE_MANIFEST) {
      const own = (name: string | undefined) => routeByName(name!)!.permissions.filter((p) => !p.startsWith('settings.'))
      // A list in a tab of another page: the page's route has the page's permission; the tab needs the view one.
      if (!item.entry.listTab) expect(own(item.routes.list.name)).toEqual([item.perms.view])
      if (item.routes.create) expect(own(item.routes.create.name)).toEqual([item.perms.add])
      if (item.routes.update) expect(own(item.routes.update.name)).toEqual([item.perms.change])
      if (item.routes.detail) expect(own(item.routes.detail.name)).toEqual([item.perms.view])
      expect(routeByName(item.routes.list.name)!.licenseRequired).toBe(item.licenseRequired)
    }
    expect(routeByName('UserLoginACLCreate')!.permissions).toEqual(['acls.add_loginacl'])
    expect(routeByName('OrganizationUpdate')!.permissions).toEqual(['settings.view_setting', 'orgs.change_organization'])
    // Settings → Terminal keeps the reference's names (CreateReplayStorage, not ReplayStorageCreate).
    expect(RESOURCE_MANIFEST.find((i) => i.key === 'replay-storages')!.routes).toEqual({
      list: { name: 'TerminalSetting', path: '/settings/terminal', search: { tab: 'replay-storage' } },
      create: { name: 'CreateReplayStorage', path: '/settings/terminal/replay-storage/create' },
      update: { name: 'UpdateReplayStorage', path: '/settings/terminal/replay-storage/:id/update' },
    })
    expect(routeByName('CreateReplayStorage')!.permissions).toEqual(['settings.view_setting', 'terminal.add_replaystorage'])
  })

  it('refuses a list-tab entry whose pages the route files do not declare', () => {
    const orgs = RESOURCE_MANIFEST.find((i) => i.key === 'organizations')!
    const endpoints = RESOURCE_ENTRIES.find((e) => e.key === 'endpoints')!
    expect(placeResources([settingsRoutes], [orgs, deriveResource(endpoints, relatedSourceOf)]).placed.has('endpoints')).toBe(true)
    const renamed = deriveResource({ ...endpoints, routeNames: { create: 'EndpointCreate' } }, relatedSourceOf)
    expect(() => placeResources([settingsRoutes], [orgs, renamed])).toThrow(/route EndpointCreate at \/settings\/terminal\/endpoint\/create is not declared/)
  })

  it('places the resources in the menu where their slots are, in order', () => {
    const profile = { perms: ROUTES.flatMap((r) => r.permissions.flatMap((p) => p.split('|'))), is_first_login: false, system_roles: [], org_roles: [] }
    const state = { profile: profile as never, settings: {}, hasValidLicense: true }
    const users = buildMenu('console', state).find((e) => e.name === 'Users')
    expect(users?.children?.map((c) => c.name)).toEqual(['UserList', 'UserGroupList', 'RoleList'])
    const settings = buildMenu('settings', state).map((e) => e.name)
    expect(settings.indexOf('OrganizationList')).toBe(settings.indexOf('InterfaceSettings') + 1)
    // Nested entries share their parent's menu entry.
    expect(routeByName('UserLoginACLList')).toMatchObject({ hidden: true, parent: 'UserList', activeMenu: '/console/users/users' })
  })

  it('knows a picker source for every related field of every resource (no hint needed)', () => {
    expect(RESOURCE_MANIFEST.flatMap((item) => unresolvedRelated(item, serverByPath))).toEqual([])
  })

  it('fails on a related field with no known source, and on an unknown model', () => {
    const users = RESOURCE_ENTRIES.find((e) => e.key === 'users')!
    const { groups: _dropped, ...rest } = users.related!
    const without: ResourceEntry = { ...users, related: rest }
    expect(unresolvedRelated(deriveResource(without, relatedSourceOf), serverByPath)).toEqual(['users.groups: no source'])
    const wrong: ResourceEntry = { ...users, related: { ...users.related, groups: 'orgs.organization' } }
    expect(unresolvedRelated(deriveResource(wrong, relatedSourceOf), serverByPath)).toEqual(['users.groups: /api/v1/orgs/orgs/ does not list users.usergroup'])
    expect(() => deriveResource({ ...users, related: { groups: 'assets.nothing' } }, relatedSourceOf)).toThrow(/no list URL known for model assets.nothing/)
  })

  it('maps every model of the table to a list URL the server serves', () => {
    for (const [model, source] of Object.entries(RELATED_MODELS)) expect(serverByPath.has(source.url), model).toBe(true)
  })

  it('exports what the conformance suite iterates', () => {
    for (const item of RESOURCE_MANIFEST) {
      expect(item.key).toMatch(/^[a-z-]+$/)
      expect(item.url).toMatch(/^\/api\/v1\/.+\/$/)
      // `<routeName>List`, or the reference's own name where it differs (FtpLog, PasswordChangeLog).
      expect(item.routes.list.name).toBe(item.entry.listTab?.name ?? item.entry.listRouteName ?? `${item.entry.routeName}List`)
      expect(Object.keys(item.offers).sort()).toEqual(['create', 'delete', 'detail', 'export', 'import', 'update'])
    }
  })
})

describe('the features assemble into the manifest (issue 29: entries.ts and pages.ts per feature)', () => {
  const entryFiles = import.meta.glob<Record<string, unknown>>('./**/entries.ts', { eager: true })
  const pageFiles = import.meta.glob<Record<string, unknown>>('./**/pages.ts', { eager: true })

  it('every entry of every feature is in the manifest', () => {
    const keys = new Set(RESOURCE_MANIFEST.map((i) => i.key))
    const files = Object.entries(entryFiles).filter(([path]) => path !== './entries.ts')
    expect(files.length).toBeGreaterThan(10)
    for (const [path, module] of files) {
      for (const [name, value] of Object.entries(module)) {
        if (!name.endsWith('_ENTRIES')) continue
        for (const entry of value as readonly ResourceEntry[]) expect(keys.has(entry.key), `${path} ${name}: ${entry.key} is not assembled in src/views/entries.ts`).toBe(true)
      }
    }
  })

  it('every custom page a feature names is the page of its route', () => {
    const files = Object.entries(pageFiles)
    expect(files.length).toBeGreaterThan(10)
    for (const [path, module] of files) {
      for (const [name, value] of Object.entries(module)) {
        if (!name.endsWith('_PAGES')) continue
        for (const [key, pages] of Object.entries(value as Record<string, Partial<Record<(typeof KINDS)[number], unknown>>>)) {
          const item = RESOURCE_MANIFEST.find((i) => i.key === key)!
          for (const [kind, loader] of Object.entries(pages)) {
            const route = item.routes[kind as (typeof KINDS)[number]]!
            expect(PAGES[route.name], `${path} ${name}: ${key} ${kind} is not assembled in src/views/manifest.ts`).toBe(loader)
          }
        }
      }
    }
  })
})
