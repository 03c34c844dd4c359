import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { ORG_IDS, ROLE_IDS } from '../../rbac/catalog.ts'
import { dbKind, type TestClient } from '../../testing.ts'
import { useTestServer } from '../../use-test-server.ts'
import { cacheStats } from './grants.ts'

const PERMS = '/api/v1/perms/asset-permissions/'
const SELF = '/api/v1/perms/users/self/'
const TOKENS = '/api/v1/authentication/connection-token/'

const values = (list: { value: string }[]) => list.map((x) => x.value).sort()

describe(`asset permissions and grants (${dbKind()})`, () => {
  const s = useTestServer()

  /** A node under DEFAULT's root, hosts in it (each with a root and a web account). */
  async function fixture(tag: string) {
    const node = async (name: string, parent?: string) => (await s.admin.post(`/api/v1/assets/nodes/${parent ?? (await root())}/children/`, { value: name })).json() as { id: string; key: string }
    const root = async () => ((await s.admin.get('/api/v1/assets/nodes/?limit=1&order=key')).json() as { results: { id: string }[] }).results[0]!.id
    const host = async (name: string, nodeId: string) => {
      const r = await s.admin.post('/api/v1/assets/hosts/', { name, address: '10.9.0.1', platform: 1, nodes: [nodeId], protocols: [{ name: 'ssh', port: 22 }] })
      expect(r.statusCode, r.body).toBe(201)
      const id = r.json().id as string
      for (const username of ['root', 'web']) expect((await s.admin.post('/api/v1/accounts/accounts/', { asset: id, username, secret_type: 'password', secret: 'pw' })).statusCode).toBe(201)
      return id
    }
    const top = await node(`${tag}-top`)
    const sub = await node(`${tag}-sub`, top.id)
    const other = await node(`${tag}-other`)
    const a1 = await host(`${tag}-a1`, top.id)
    const a2 = await host(`${tag}-a2`, sub.id)
    const a3 = await host(`${tag}-a3`, other.id)
    return { top, sub, other, a1, a2, a3 }
  }

  async function user(name: string): Promise<{ id: string; c: TestClient }> {
    const id = await s.t.createUser({ username: name })
    const c = await s.t.as(name)
    c.headers['accept-language'] = 'en'
    return { id, c }
  }

  const myAssets = async (c: TestClient) => ((await c.get(`${SELF}assets/?limit=100`)).json() as { results: { name: string }[] }).results.map((r) => r.name).sort()

  it('creates, validates and lists permissions; actions are bits shown as choices; validity is computed', async () => {
    const f = await fixture('crud')
    const bad = await s.admin.post(PERMS, { name: 'bad', accounts: ['@NOPE', `%${randomUUID()}`], actions: ['fly'], date_start: '2030-01-01 00:00:00', date_expired: '2029-01-01 00:00:00' })
    expect(bad.statusCode).toBe(400)
    expect(Object.keys(bad.json()).sort()).toEqual(['actions'])
    const bad2 = await s.admin.post(PERMS, { name: 'bad', accounts: ['@NOPE'], date_start: '2030-01-01 00:00:00', date_expired: '2029-01-01 00:00:00' })
    expect(Object.keys(bad2.json()).sort()).toEqual(['accounts', 'date_expired'])
    const r = await s.admin.post(PERMS, { name: 'crud', nodes: [f.top.id], accounts: ['@ALL'], actions: ['connect', 'upload'] })
    expect(r.statusCode, r.body).toBe(201)
    const p = r.json()
    expect(values(p.actions)).toEqual(['connect', 'upload'])
    expect(p.is_valid).toBe(true)
    expect(p.is_expired).toBe(false)
    expect((await s.admin.post(PERMS, { name: 'crud' })).statusCode).toBe(400)
    const all = (await s.admin.get(`${PERMS}${p.id}/assets/all/?limit=10`)).json()
    expect(all.count).toBe(2)
    const expired = await s.admin.patch(`${PERMS}${p.id}/`, { date_expired: '2001-01-01 00:00:00', date_start: '2000-01-01 00:00:00' })
    expect(expired.json().is_expired).toBe(true)
    expect(expired.json().is_valid).toBe(false)
    expect((await s.admin.get(`${PERMS}?is_valid=0`)).json().map((x: { name: string }) => x.name)).toContain('crud')
    expect((await s.admin.delete(`${PERMS}${p.id}/`)).statusCode).toBe(204)
  })

  it('a new permission starts with every action (JumpServer: actions.default = all choices), in OPTIONS and when left out', async () => {
    const all = ['connect', 'copy', 'delete', 'download', 'paste', 'share', 'upload']
    const meta = (await s.admin.request({ method: 'OPTIONS', url: PERMS })).json()
    expect([...meta.actions.POST.actions.default].sort()).toEqual(all)
    const r = await s.admin.post(PERMS, { name: 'default-actions' })
    expect(r.statusCode, r.body).toBe(201)
    expect(values(r.json().actions)).toEqual(all)
    await s.admin.delete(`${PERMS}${r.json().id}/`)
  })

  it('grants a group\'s nodes (subtrees) and a user\'s assets, merging actions; accounts and protocols per asset', async () => {
    const f = await fixture('grant')
    const u = await user('granted')
    const g = (await s.admin.post('/api/v1/users/groups/', { name: 'grant-g', users: [u.id] })).json()
    await s.admin.post(PERMS, { name: 'grant-nodes', user_groups: [g.id], nodes: [f.top.id], accounts: ['@ALL'], actions: ['connect', 'upload'] })
    await s.admin.post(PERMS, { name: 'grant-asset', users: [u.id], assets: [f.a2], accounts: ['web', '@INPUT'], actions: ['download'], protocols: ['ssh'] })
    expect(await myAssets(u.c)).toEqual(['grant-a1', 'grant-a2'])
    const list = (await u.c.get(`${SELF}assets/?limit=100&search=a2`)).json()
    expect(list.count).toBe(1)
    expect(values(list.results[0].actions)).toEqual(['connect', 'download', 'upload'])
    const detail = (await u.c.get(`${SELF}assets/${f.a2}/`)).json()
    const byAlias = Object.fromEntries(detail.permed_accounts.map((a: { alias: string; actions: { value: string }[] }) => [a.alias, values(a.actions)]))
    expect(byAlias).toEqual({ root: ['connect', 'upload'], web: ['connect', 'download', 'upload'], '@INPUT': ['download'] })
    expect(detail.permed_protocols.map((p: { name: string }) => p.name)).toEqual(['ssh'])
    expect(JSON.stringify(detail)).not.toContain('"pw"')
    expect((await u.c.get(`${SELF}assets/${f.a3}/`)).statusCode).toBe(404)
    // the tree: DEFAULT's root open with the granted top node below it, the sub node lazily
    const tree = (await u.c.get(`${SELF}nodes/children/tree/`)).json() as { id: string; name: string; pId: string; isParent: boolean }[]
    const top = tree.find((n) => n.id === f.top.key)!
    expect(top.name).toBe('grant-top (2)')
    expect(top.isParent).toBe(true)
    expect(tree.some((n) => n.id === f.other.key)).toBe(false)
    const children = (await u.c.get(`${SELF}nodes/children/tree/?key=${f.top.key}`)).json()
    expect(children.map((n: { name: string }) => n.name)).toEqual(['grant-sub (1)'])
    expect((await u.c.get(`${SELF}nodes/${f.sub.id}/assets/`)).json().map((a: { name: string }) => a.name)).toEqual(['grant-a2'])
    // the admin's view of the same user and of the group
    expect((await s.admin.get(`/api/v1/perms/users/${u.id}/assets/?limit=10`)).json().count).toBe(2)
    expect((await s.admin.get(`/api/v1/perms/user-groups/${g.id}/assets/`)).json().map((a: { name: string }) => a.name).sort()).toEqual(['grant-a1', 'grant-a2'])
    // an ordinary user cannot look at someone else's grants
    expect((await u.c.get(`/api/v1/perms/users/${s.t.adminId}/assets/`)).statusCode).toBe(403)
  })

  it('expired, not yet valid and inactive permissions grant nothing, and stop granting at their time', async () => {
    const f = await fixture('valid')
    const u = await user('validity')
    const base = { users: [u.id], assets: [f.a1], accounts: ['@ALL'] }
    await s.admin.post(PERMS, { ...base, name: 'v-expired', date_start: '2000-01-01 00:00:00', date_expired: '2001-01-01 00:00:00' })
    await s.admin.post(PERMS, { ...base, name: 'v-future', date_start: '2100-01-01 00:00:00', date_expired: '2101-01-01 00:00:00' })
    await s.admin.post(PERMS, { ...base, name: 'v-inactive', is_active: false })
    expect(await myAssets(u.c)).toEqual([])
    const soon = new Date(Date.now() + 1500).toISOString()
    await s.admin.post(PERMS, { ...base, name: 'v-soon', date_expired: soon })
    expect(await myAssets(u.c)).toEqual(['valid-a1'])
    await new Promise((r) => setTimeout(r, 1700))
    expect(await myAssets(u.c)).toEqual([])
  })

  it('the cache follows every change that can change a grant, and only those', async () => {
    const f = await fixture('cache')
    /**
     * The granted names, checking on the way that the counts the cache answers (the unfiltered list's and each
     * node's, kept with the cache: migration 031) equal the rows listed and a count made live (a search is a filter,
     * so it is counted, not read from the cache).
     */
    const myAssets = async (c: TestClient) => {
      const page = (await c.get(`${SELF}assets/?limit=100`)).json() as { count: number; results: { name: string }[] }
      expect(page.count, 'cached count = rows').toBe(page.results.length)
      // read again: the first read after a change rebuilds the cache; this one answers the stored count
      expect(((await c.get(`${SELF}assets/?limit=1`)).json() as { count: number }).count, 'stored count = rows').toBe(page.results.length)
      expect(page.count, 'cached count = live count').toBe(((await c.get(`${SELF}assets/?limit=1&search=cache-`)).json() as { count: number }).count)
      for (const n of [f.top, f.sub, f.other]) {
        const under = (await c.get(`${SELF}nodes/${n.id}/assets/?limit=100`)).json() as { count: number; results: unknown[] }
        const live = (await c.get(`${SELF}nodes/${n.id}/assets/?limit=1&search=cache-`)).json() as { count: number }
        expect([under.count, under.count], `node ${n.key}: cached count = rows, live count`).toEqual([under.results.length, live.count])
      }
      return page.results.map((r) => r.name).sort()
    }
    const u = await user('cached')
    const g = (await s.admin.post('/api/v1/users/groups/', { name: 'cache-g', users: [u.id] })).json()
    const p = (await s.admin.post(PERMS, { name: 'cache-p', user_groups: [g.id], nodes: [f.top.id], accounts: ['@ALL'] })).json()
    expect(await myAssets(u.c)).toEqual(['cache-a1', 'cache-a2'])
    const before = cacheStats.rebuilds
    expect(await myAssets(u.c)).toEqual(['cache-a1', 'cache-a2'])
    // a change that grants nothing new (an asset renamed, a comment) keeps the cache
    await s.admin.patch(`/api/v1/assets/hosts/${f.a1}/`, { comment: 'x' })
    expect(await myAssets(u.c)).toEqual(['cache-a1', 'cache-a2'])
    expect(cacheStats.rebuilds).toBe(before)
    // asset moved out of the granted subtree (asset ↔ node link)
    await s.admin.patch(`/api/v1/assets/hosts/${f.a2}/`, { nodes: [f.other.id] })
    expect(await myAssets(u.c)).toEqual(['cache-a1'])
    // a new asset under a granted node
    const r = await s.admin.post('/api/v1/assets/hosts/', { name: 'cache-new', address: '10.9.0.9', platform: 1, nodes: [f.sub.id] })
    expect(await myAssets(u.c)).toEqual(['cache-a1', 'cache-new'])
    // a node moved under a granted node brings its assets
    expect((await s.admin.put(`/api/v1/assets/nodes/${f.top.id}/children/add/`, { nodes: [f.other.id] })).statusCode).toBe(200)
    expect(await myAssets(u.c)).toEqual(['cache-a1', 'cache-a2', 'cache-a3', 'cache-new'])
    // the asset deleted
    await s.admin.delete(`/api/v1/assets/hosts/${r.json().id}/`)
    expect(await myAssets(u.c)).toEqual(['cache-a1', 'cache-a2', 'cache-a3'])
    // permission's members changed: the node taken off, an asset given directly
    await s.admin.patch(`${PERMS}${p.id}/`, { nodes: [], assets: [f.a3] })
    expect(await myAssets(u.c)).toEqual(['cache-a3'])
    // group membership: the user leaves the group
    await s.admin.patch(`/api/v1/users/groups/${g.id}/`, { users: [] })
    expect(await myAssets(u.c)).toEqual([])
    // the relations endpoints (as lina adds members)
    expect((await s.admin.post('/api/v1/perms/asset-permissions-users-relations/', [{ user: u.id, assetpermission: p.id }])).statusCode).toBe(201)
    expect(await myAssets(u.c)).toEqual(['cache-a3'])
    // the permission deactivated
    await s.admin.patch(`${PERMS}${p.id}/`, { is_active: false })
    expect(await myAssets(u.c)).toEqual([])
    await s.admin.patch(`${PERMS}${p.id}/`, { is_active: true })
    expect(await myAssets(u.c)).toEqual(['cache-a3'])
    // the permission deleted
    await s.admin.delete(`${PERMS}${p.id}/`)
    expect(await myAssets(u.c)).toEqual([])
  })

  it('invalidation is targeted: a change that reaches one user keeps another user\'s cache', async () => {
    const f = await fixture('tgt')
    const a = await user('tgt-a')
    const b = await user('tgt-b')
    const pa = (await s.admin.post(PERMS, { name: 'tgt-pa', users: [a.id], assets: [f.a1], accounts: ['@ALL'] })).json()
    await s.admin.post(PERMS, { name: 'tgt-pb', users: [b.id], assets: [f.a2], accounts: ['@ALL'] })
    expect(await myAssets(a.c)).toEqual(['tgt-a1'])
    expect(await myAssets(b.c)).toEqual(['tgt-a2'])
    const before = cacheStats.rebuilds
    await s.admin.patch(`${PERMS}${pa.id}/`, { assets: [f.a1, f.a3] })
    expect(await myAssets(b.c)).toEqual(['tgt-a2'])
    expect(cacheStats.rebuilds).toBe(before)
    expect(await myAssets(a.c)).toEqual(['tgt-a1', 'tgt-a3'])
    expect(cacheStats.rebuilds).toBe(before + 1)
  })

  it("lina's calls: an asset's authorized users and groups with their permissions, a permission's accounts, a platform by name", async () => {
    const f = await fixture('who')
    const u = await user('who-u')
    const v = await user('who-v')
    const g = (await s.admin.post('/api/v1/users/groups/', { name: 'who-g', users: [v.id] })).json() as { id: string }
    const byNode = (await s.admin.post(PERMS, { name: 'who-node', user_groups: [g.id], nodes: [f.top.id], accounts: ['root'] })).json() as { id: string }
    const direct = (await s.admin.post(PERMS, { name: 'who-direct', users: [u.id], assets: [f.a2], accounts: ['@ALL'], is_active: false })).json() as { id: string }
    await s.admin.post(PERMS, { name: 'who-elsewhere', users: [u.id], assets: [f.a3], accounts: ['@ALL'] })
    const names = async (url: string, key = 'name') => ((await s.admin.get(url)).json() as { results: Record<string, string>[] }).results.map((r) => r[key]).sort()
    const A = '/api/v1/assets/assets/'
    // a2 lies under `sub`, under `top`: reached by the node permission (an ancestor) and the direct one (inactive too)
    expect(await names(`${A}${f.a2}/perm-users/?limit=20`, 'username')).toEqual(['who-u', 'who-v'])
    expect(await names(`${A}${f.a2}/perm-user-groups/?limit=20`)).toEqual(['who-g'])
    expect(await names(`${A}${f.a2}/perm-users/${u.id}/permissions/?limit=20`)).toEqual(['who-direct'])
    expect(await names(`${A}${f.a2}/perm-users/${v.id}/permissions/?limit=20`)).toEqual(['who-node'])
    expect(await names(`${A}${f.a2}/perm-user-groups/${g.id}/permissions/?limit=20`)).toEqual(['who-node'])
    expect(await names(`${A}${f.a3}/perm-users/?limit=20`, 'username')).toEqual(['who-u'])
    expect(await names(`${A}${f.a3}/perm-user-groups/?limit=20`)).toEqual([])
    expect((await s.admin.get(`${A}${randomUUID()}/perm-users/`)).statusCode).toBe(404)
    expect((await u.c.get(`${A}${f.a2}/perm-users/`)).statusCode).toBe(403)
    // a permission's accounts: those it names on the assets it reaches (every one with @ALL); never a secret
    const accounts = async (id: string) => ((await s.admin.get(`${PERMS}${id}/accounts/?limit=50`)).json() as { results: Record<string, unknown>[] }).results
    const nodeAccounts = await accounts(byNode.id)
    expect(nodeAccounts.map((a) => `${(a.asset as { name: string }).name}:${a.username}`).sort()).toEqual(['who-a1:root', 'who-a2:root'])
    expect(nodeAccounts.every((a) => !('secret' in a))).toBe(true)
    expect((await accounts(direct.id)).map((a) => a.username).sort()).toEqual(['root', 'web'])
    expect((await u.c.get(`${PERMS}${byNode.id}/accounts/`)).statusCode).toBe(403)
    // JumpServer's platforms answer by name too (lina's applet host form reads /platforms/RemoteAppHost/)
    const linux = (await s.admin.get('/api/v1/assets/platforms/Linux/')).json() as { id: number; name: string }
    expect(linux.name).toBe('Linux')
    expect(((await s.admin.get(`/api/v1/assets/platforms/${linux.id}/`)).json() as { name: string }).name).toBe('Linux')
    expect((await s.admin.get('/api/v1/assets/platforms/No such platform/')).statusCode).toBe(404)
    // the platforms of assets and of nodes' subtrees (lina's account push form)
    const FILTER = '/api/v1/assets/platforms/filter-nodes-assets/'
    const platformsOf = async (body: unknown) => ((await s.admin.post(FILTER, body)).json() as { name: string }[]).map((p) => p.name)
    expect(await platformsOf({ node_ids: [f.top.id] })).toEqual(['Linux'])
    expect(await platformsOf({ asset_ids: [f.a3], node_ids: ['nope'] })).toEqual(['Linux'])
    expect(await platformsOf({})).toEqual([])
    expect((await u.c.post(FILTER, { node_ids: [f.top.id] })).statusCode).toBe(403)
  })

  it('connection tokens: only for a granted asset, account and protocol with connect; own tokens only; expire and delete', async () => {
    const f = await fixture('tok')
    const u = await user('tokener')
    const v = await user('tokviewer')
    await s.admin.post(PERMS, { name: 'tok-p', users: [u.id], assets: [f.a1], accounts: ['web'], actions: ['connect'] })
    await s.admin.post(PERMS, { name: 'tok-noconnect', users: [u.id], assets: [f.a2], accounts: ['@ALL'], actions: ['upload'] })
    const cases: [string, Record<string, unknown>, number, string?][] = [
      ['granted', { asset: f.a1, account: 'web', protocol: 'ssh' }, 201],
      ['ungranted asset', { asset: f.a3, account: 'web', protocol: 'ssh' }, 400, 'asset'],
      ['ungranted account', { asset: f.a1, account: 'root', protocol: 'ssh' }, 400, 'account'],
      ['no connect action', { asset: f.a2, account: 'root', protocol: 'ssh' }, 400, 'account'],
      ['protocol the asset lacks', { asset: f.a1, account: 'web', protocol: 'rdp' }, 400, 'protocol'],
      ['unknown asset', { asset: randomUUID(), account: 'web', protocol: 'ssh' }, 400, 'asset'],
      ['garbage', { asset: 'x', account: '', protocol: '' }, 400],
    ]
    let tokenId = ''
    for (const [name, body, status, field] of cases) {
      const r = await u.c.post(TOKENS, body)
      expect(r.statusCode, `${name}: ${r.body}`).toBe(status)
      if (field) expect(Object.keys(r.json()), name).toContain(field)
      if (status === 201) {
        expect(r.json().value).toMatch(/^[\w-]{30,}$/)
        expect(values(r.json().actions)).toEqual(['connect'])
        tokenId = r.json().id
      }
    }
    const mine = (await u.c.get(TOKENS)).json()
    expect(mine.length).toBe(1)
    expect(mine[0].value).toBe('******')
    expect((await v.c.get(TOKENS)).json()).toEqual([])
    expect((await v.c.get(`${TOKENS}${tokenId}/`)).statusCode).toBe(404)
    expect((await u.c.patch(`${TOKENS}${tokenId}/expire/`, {})).statusCode).toBe(204)
    expect((await u.c.get(`${TOKENS}${tokenId}/`)).json().is_expired).toBe(true)
    expect((await u.c.delete(`${TOKENS}${tokenId}/`)).statusCode).toBe(204)
    // the admin has no permission on the asset either: no token
    expect((await s.admin.post(TOKENS, { asset: f.a1, account: 'web', protocol: 'ssh' })).statusCode).toBe(400)
  })

  it('security: across organizations a user sees nothing no valid permission grants; an org admin manages only their org', async () => {
    const f = await fixture('sec')
    const org = (await s.admin.post('/api/v1/orgs/orgs/', { name: 'sec-org' })).json()
    const u = await user('secuser')
    await sql`insert into role_bindings (id, user_id, role_id, scope, org_id) values (${randomUUID()}, ${u.id}, ${ROLE_IDS.OrgUser}, 'org', ${org.id})`.execute(s.t.database.db)
    await s.t.createUser({ username: 'sec-orgadmin', orgRoles: [ROLE_IDS.OrgAdmin], orgId: org.id })
    const oa = await s.t.as('sec-orgadmin')
    oa.headers['x-jms-org'] = org.id
    // a permission in DEFAULT for the user
    const p = (await s.admin.post(PERMS, { name: 'sec-p', users: [u.id], assets: [f.a1], accounts: ['@ALL'] })).json()
    // every way of asking, in each org
    for (const orgId of [ORG_IDS.DEFAULT, org.id]) {
      u.c.headers['x-jms-org'] = orgId
      const expected = orgId === ORG_IDS.DEFAULT ? ['sec-a1'] : []
      expect(await myAssets(u.c)).toEqual(expected)
      for (const asset of [f.a2, f.a3]) {
        expect((await u.c.get(`${SELF}assets/${asset}/`)).statusCode).toBe(404)
        expect((await u.c.post(TOKENS, { asset, account: 'root', protocol: 'ssh' })).statusCode).toBe(400)
      }
      const tree = (await u.c.get(`${SELF}nodes/children/tree/`)).json() as { id: string }[]
      expect(tree.some((n) => n.id === f.other.key)).toBe(false)
    }
    // the org admin of another org neither sees nor changes DEFAULT's permission
    expect((await oa.get(`${PERMS}${p.id}/`)).statusCode).toBe(404)
    expect((await oa.patch(`${PERMS}${p.id}/`, { name: 'taken' })).statusCode).toBe(404)
    expect((await oa.get(PERMS)).json()).toEqual([])
    expect((await oa.get(`/api/v1/perms/users/${u.id}/assets/`)).json()).toEqual([])
  })
})
