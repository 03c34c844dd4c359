import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { dbKind } from '../../testing.ts'
import { useTestServer } from '../../use-test-server.ts'

const NODES = '/api/v1/assets/nodes/'
const HOSTS = '/api/v1/assets/hosts/'
const DBS = '/api/v1/assets/databases/'
const ASSETS = '/api/v1/assets/assets/'

describe(`assets and the node tree (${dbKind()})`, () => {
  const s = useTestServer()

  it('creates a nested node path in one call, hosts in nodes, and filters by node with or without descendants', async () => {
    const deep = await s.admin.post(NODES, { full_value: '/DEFAULT/Prod/Web' })
    expect(deep.statusCode).toBe(201)
    expect(deep.json()).toMatchObject({ value: 'Web', name: 'Web', full_value: '/DEFAULT/Prod/Web' })
    expect(deep.json().key).toMatch(/^\d+:\d+:\d+$/)
    const prod = (await s.admin.get(`${NODES}?value=Prod`)).json()[0]
    const h = await s.admin.post(HOSTS, { name: 'web1', address: '10.0.0.1', platform: 1, nodes: [deep.json().id] })
    expect(h.statusCode).toBe(201)
    expect(h.json()).toMatchObject({ category: { value: 'host' }, type: { value: 'linux' }, protocols: [{ name: 'ssh', port: 22 }], nodes_display: ['/DEFAULT/Prod/Web'] })
    const plain = await s.admin.post(HOSTS, { name: 'plain', address: 'db.example.com', platform: 1 })
    expect(plain.json().nodes_display).toEqual(['/DEFAULT'])
    expect((await s.admin.get(`${ASSETS}?node_id=${prod.id}`)).json().map((a: { name: string }) => a.name)).toEqual(['web1'])
    expect((await s.admin.get(`${ASSETS}?node_id=${prod.id}&all=0`)).json()).toEqual([])
    const tree = (await s.admin.get(`${NODES}children/tree/`)).json()
    expect(tree[0]).toMatchObject({ pId: '', open: true, meta: { type: 'node', data: { assets_amount: 2 } } })
    expect(tree.find((n: { title: string }) => n.title === 'Prod')).toMatchObject({ name: 'Prod (1)', isParent: true })
  })

  it('tells the form the defaults it fills on create: the root node, and the platform’s protocols for `?platform=` (issue 35)', async () => {
    const root = (await s.admin.get(`${NODES}?value=DEFAULT`)).json()[0]
    const bare = (await s.admin.options(HOSTS)).json().actions.POST
    expect(bare.nodes.default).toEqual([root.id])
    expect(bare.protocols).toMatchObject({ default_from: 'platform' })
    expect(bare.protocols.default).toBeUndefined()
    const linux = (await s.admin.options(`${HOSTS}?platform=1`)).json().actions.POST
    expect(linux.protocols.default).toEqual([{ name: 'ssh', port: 22 }])
    // what the form shows is what the server does without them
    const made = (await s.admin.post(HOSTS, { name: 'defaults-shown', address: '10.0.0.77', platform: 1 })).json()
    expect(made).toMatchObject({ protocols: linux.protocols.default, nodes: [{ id: root.id }] })
    // an update keeps its own: no defaults offered
    expect((await s.admin.options(`${HOSTS}${made.id}/`)).json().actions.PUT.protocols.default_from).toBeUndefined()
  })

  it('checks protocols against the platform and addresses per kind', async () => {
    const bad = await s.admin.post(HOSTS, { name: 'x', address: 'not an address', platform: 1, protocols: [{ name: 'mysql', port: 3306 }] })
    expect(bad.statusCode).toBe(400)
    expect(bad.json()).toEqual({ address: ['Enter a valid IP address or host name.'], protocols: ['Protocol not allowed by the platform: mysql'] })
    const port = await s.admin.post(HOSTS, { name: 'x', address: '10.0.0.9', platform: 1, protocols: [{ name: 'ssh', port: 70000 }] })
    expect(port.statusCode).toBe(400)
    const wrongKind = await s.admin.post(DBS, { name: 'x', address: '10.0.0.9', platform: 1 })
    expect(wrongKind.statusCode).toBe(400)
    const missing = await s.admin.post(DBS, { name: 'pg', address: '10.0.0.9', platform: 16, protocols: [] })
    expect(missing.json()).toMatchObject({ protocols: { protocols: 'Protocol is required: postgresql' }, db_name: ['This field is required.'] })
    const direct = await s.admin.post(ASSETS, { name: 'x' })
    expect(direct.statusCode).toBe(400)
    expect(direct.json().detail).toMatch(/Cannot create asset directly/)
    // lina's asset pickers: `suggestions`, the first 10 matches with mini fields
    for (let i = 0; i < 11; i++) expect((await s.admin.post(HOSTS, { name: `sug-${i}`, address: `10.1.0.${i + 1}`, platform: 1 })).statusCode).toBe(201)
    const sug = (await s.admin.get(`${ASSETS}suggestions/?search=sug-`)).json() as Record<string, unknown>[]
    expect(sug).toHaveLength(10)
    expect(Object.keys(sug[0]!).sort()).toEqual(['address', 'id', 'name'])
  })

  it('renames and moves subtrees (keys and paths follow), refuses bad moves and deleting non-empty nodes', async () => {
    const a = (await s.admin.post(NODES, { full_value: '/DEFAULT/Move/A/A1' })).json()
    const b = (await s.admin.post(NODES, { full_value: '/DEFAULT/Move/B' })).json()
    const nodeA = (await s.admin.get(`${NODES}?value=A`)).json()[0]
    const moved = await s.admin.put(`${NODES}${b.id}/children/add/`, { nodes: [nodeA.id] })
    expect(moved.statusCode).toBe(200)
    const a1 = (await s.admin.get(`${NODES}${a.id}/`)).json()
    expect(a1.full_value).toBe('/DEFAULT/Move/B/A/A1')
    expect(a1.key.startsWith(`${b.key}:`)).toBe(true)
    const loop = await s.admin.put(`${NODES}${a.id}/children/add/`, { nodes: [b.id] })
    expect(loop.statusCode).toBe(400)
    const renamed = await s.admin.patch(`${NODES}${b.id}/`, { value: 'Bee' })
    expect(renamed.json().full_value).toBe('/DEFAULT/Move/Bee')
    expect((await s.admin.get(`${NODES}${a.id}/`)).json().full_value).toBe('/DEFAULT/Move/Bee/A/A1')
    const slash = await s.admin.patch(`${NODES}${b.id}/`, { value: 'x/y' })
    expect(slash.json()).toEqual({ value: ['Node value cannot contain "/"'] })
    const parentDel = await s.admin.delete(`${NODES}${b.id}/`)
    expect(parentDel.statusCode).toBe(400)
    expect(parentDel.json().detail).toBe('The node "Bee" has child nodes and cannot be deleted')
    const h = (await s.admin.post(HOSTS, { name: 'in-a1', address: '10.1.0.1', platform: 1, nodes: [a.id] })).json()
    const holdDel = await s.admin.delete(`${NODES}${a.id}/`)
    expect(holdDel.json().detail).toBe('The node "A1" holds assets and cannot be deleted')
    // move the asset here (replace), then remove it: it falls back to the org root
    await s.admin.put(`${NODES}${b.id}/assets/replace/`, { assets: [h.id] })
    expect((await s.admin.get(`${HOSTS}${h.id}/`)).json().nodes_display).toEqual(['/DEFAULT/Move/Bee'])
    await s.admin.put(`${NODES}${b.id}/assets/add/`, { assets: [h.id] })
    await s.admin.put(`${NODES}${a.id}/assets/add/`, { assets: [h.id] })
    expect((await s.admin.get(`${HOSTS}${h.id}/`)).json().nodes_display).toEqual(['/DEFAULT/Move/Bee', '/DEFAULT/Move/Bee/A/A1'])
    await s.admin.put(`${NODES}${a.id}/assets/remove/`, { assets: [h.id] })
    await s.admin.put(`${NODES}${b.id}/assets/remove/`, { assets: [h.id] })
    expect((await s.admin.get(`${HOSTS}${h.id}/`)).json().nodes_display).toEqual(['/DEFAULT'])
    expect((await s.admin.delete(`${NODES}${a.id}/`)).statusCode).toBe(204)
    const root = (await s.admin.get(`${NODES}children/tree/`)).json()[0]
    expect((await s.admin.delete(`${NODES}${root.meta.data.id}/`)).json().detail).toBe('The root node cannot be deleted')
    // lazily expanded children with asset leaves
    const kids = (await s.admin.get(`${NODES}children/tree/?key=${b.key}&assets=1`)).json()
    expect(kids.map((n: { title: string }) => n.title)).toEqual(['A'])
  })

  it('keeps cached subtree counts true through adds, moves, removals and deletes', async () => {
    const db = s.t.database.db
    const p = (await s.admin.post(NODES, { full_value: '/DEFAULT/CntP/Q/R' })).json()
    const q = (await s.admin.get(`${NODES}?value=Q`)).json()[0]
    const cntP = (await s.admin.get(`${NODES}?value=CntP`)).json()[0]
    const other = (await s.admin.post(NODES, { full_value: '/DEFAULT/CntS' })).json()
    const amount = async (id: string) => (await s.admin.get(`${NODES}${id}/`)).json().assets_amount as number
    const cached = async (id: string) => (await sql<{ n: number | null }>`select members_amount as n from nodes where id = ${id}`.execute(db)).rows[0]!.n
    expect([await amount(cntP.id), await amount(other.id)]).toEqual([0, 0])
    expect(await cached(cntP.id)).toBe(0)
    // one host in R and in Q (same subtree: counted once), one in S
    const h1 = (await s.admin.post(HOSTS, { name: 'cnt-1', address: '10.9.0.1', platform: 1, nodes: [p.id, q.id] })).json()
    const h2 = (await s.admin.post(HOSTS, { name: 'cnt-2', address: '10.9.0.2', platform: 1, nodes: [other.id] })).json()
    expect(await cached(cntP.id)).toBeNull()
    expect([await amount(cntP.id), await amount(q.id), await amount(p.id), await amount(other.id)]).toEqual([1, 1, 1, 1])
    expect(await cached(cntP.id)).toBe(1)
    // Q (with R) moves under S: counts above both places follow, and so do the links' paths
    expect((await s.admin.put(`${NODES}${other.id}/children/add/`, { nodes: [q.id] })).statusCode).toBe(200)
    expect([await amount(cntP.id), await amount(other.id), await amount(q.id)]).toEqual([0, 2, 1])
    expect((await s.admin.get(`${ASSETS}?node_id=${other.id}`)).json().map((a: { name: string }) => a.name)).toEqual(['cnt-1', 'cnt-2'])
    expect((await s.admin.get(`${ASSETS}?node_id=${cntP.id}`)).json()).toEqual([])
    // removal from one node, then deleting the asset
    await s.admin.put(`${NODES}${q.id}/assets/remove/`, { assets: [h1.id] })
    expect([await amount(q.id), await amount(p.id), await amount(other.id)]).toEqual([1, 1, 2])
    expect((await s.admin.delete(`${HOSTS}${h1.id}/`)).statusCode).toBe(204)
    expect([await amount(q.id), await amount(other.id)]).toEqual([0, 1])
    expect((await s.admin.delete(`${HOSTS}${h2.id}/`)).statusCode).toBe(204)
    expect(await amount(other.id)).toBe(0)
  })

  it('custom platforms declare typed custom fields; custom assets are checked and completed against them', async () => {
    const PLATFORMS = '/api/v1/assets/platforms/'
    const bad = await s.admin.post(PLATFORMS, { name: 'cf-bad', category: 'custom', type: 'custom', protocols: [{ name: 'tcp', port: 7 }],
      custom_fields: [{ name: '1x', type: 'str' }, { name: 'ok', type: 'float' }, { name: 'pick', type: 'choice' }] })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().custom_fields).toHaveLength(3)
    // a field's default is checked by the engine's parsing of the field it declares, named by its label
    const badDefault = await s.admin.post(PLATFORMS, { name: 'cf-bad', category: 'custom', type: 'custom', protocols: [{ name: 'tcp', port: 7 }],
      custom_fields: [{ name: 'n', label: 'Slots', type: 'int', default: 'x' }, { name: 'c', label: 'Tier', type: 'choice', choices: ['a'], default: 'b' }] })
    expect(badDefault.json().custom_fields).toEqual(['Field 1: Slots: A valid integer is required.', 'Field 2: Tier: "b" is not a valid choice.'])
    expect((await s.admin.get(`${PLATFORMS}?name=cf-bad`)).json()).toEqual([])
    const plat = await s.admin.post(PLATFORMS, { name: 'cf-app', category: 'custom', type: 'custom', protocols: [{ name: 'tcp', port: 7 }], custom_fields: [
      { name: 'owner', label: 'Owner', type: 'str', required: true },
      { name: 'slots', label: 'Slots', type: 'int', default: '4' },
      { name: 'tier', label: 'Tier', type: 'choice', choices: ['gold', { value: 'silver', label: 'Silver' }] },
      { name: 'managed', label: 'Managed', type: 'bool' },
    ] })
    expect(plat.statusCode, plat.body).toBe(201)
    expect(plat.json().custom_fields[1]).toMatchObject({ name: 'slots', type: 'int', default: 4 })
    const CUSTOMS = '/api/v1/assets/customs/'
    const wrong = await s.admin.post(CUSTOMS, { name: 'app-x', address: 'anything', platform: plat.json().id, custom_info: { slots: 'many', tier: 'bronze', other: 1, managed: 'maybe' } })
    expect(wrong.statusCode).toBe(400)
    // each problem under its sub-field's key (as DRF answers for a nested serializer), so a form can place it
    expect(wrong.json().custom_info).toEqual({ other: ['Unknown field: other'], owner: ['This field is required.'], slots: ['A valid integer is required.'],
      tier: ['"bronze" is not a valid choice.'], managed: ['Must be a valid boolean.'] })
    expect((await s.admin.get(`${CUSTOMS}?name=app-x`)).json()).toEqual([])
    const ok = await s.admin.post(CUSTOMS, { name: 'app-x', address: 'anything', platform: plat.json().id, custom_info: { owner: 'ops', tier: 'silver', managed: true } })
    expect(ok.statusCode, ok.body).toBe(201)
    expect(ok.json().custom_info).toEqual({ owner: 'ops', slots: 4, tier: 'silver', managed: true })
    const patched = await s.admin.patch(`${CUSTOMS}${ok.json().id}/`, { custom_info: { owner: '', slots: '8' } })
    expect(patched.json()).toEqual({ custom_info: { owner: ['This field is required.'] } })
    // OPTIONS describes custom_info by the platform (`?platform=` on create, the asset's own on update) as typed
    // sub-fields; without a platform it stays JSON; both carry the hint of the field they depend on
    const sub = (await s.admin.options(`${CUSTOMS}?platform=${plat.json().id}`)).json().actions.POST.custom_info
    expect(sub).toMatchObject({ type: 'nested object', children_from: 'platform', children: {
      owner: { type: 'string', required: true, label: 'Owner', max_length: 1024 }, slots: { type: 'integer', required: false, default: 4 },
      tier: { type: 'choice', choices: [{ value: 'gold', label: 'gold' }, { value: 'silver', label: 'Silver' }] }, managed: { type: 'boolean' } } })
    expect((await s.admin.options(`${CUSTOMS}${ok.json().id}/`)).json().actions.PUT.custom_info.children.owner.required).toBe(true)
    expect((await s.admin.options(CUSTOMS)).json().actions.POST.custom_info).toMatchObject({ type: 'json', children_from: 'platform' })
    expect((await s.admin.options(`${CUSTOMS}?platform=1`)).json().actions.POST.custom_info.type).toBe('json')
    // gone again: the category list of the next test has no custom platform
    expect((await s.admin.delete(`${CUSTOMS}${ok.json().id}/`)).statusCode).toBe(204)
    expect((await s.admin.delete(`${PLATFORMS}${plat.json().id}/`)).statusCode).toBe(204)
  })

  it('serves categories with constraints, platforms and a new org root node', async () => {
    const cats = (await s.admin.get('/api/v1/assets/categories/')).json()
    expect(cats.map((c: { value: string }) => c.value)).toEqual(['host', 'device', 'database', 'cloud', 'web'])
    const linux = cats[0].types.find((x: { value: string }) => x.value === 'linux')
    expect(linux.constraints.protocols[0]).toMatchObject({ name: 'ssh', port: 22, default: true })
    expect((await s.admin.get('/api/v1/assets/categories/constraints/?category=database&type=mysql')).json().protocols).toEqual([
      { name: 'mysql', port: 3306, secret_types: ['password'], setting: {}, required: true, default: true }])
    const clone = await s.admin.post('/api/v1/assets/platforms/', { name: 'MyLinux', category: 'host', type: 'linux' })
    expect(clone.statusCode).toBe(201)
    expect(clone.json().protocols.map((p: { name: string }) => p.name)).toEqual(['ssh', 'telnet', 'vnc', 'rdp'])
    const fromForm = await s.admin.post('/api/v1/assets/platforms/', { name: 'FormLinux', category: 'host', type: 'linux', protocols: [] })
    expect(fromForm.json().protocols.map((p: { name: string }) => p.name)).toEqual(['ssh', 'telnet', 'vnc', 'rdp'])
    expect((await s.admin.patch(`/api/v1/assets/platforms/${fromForm.json().id}/`, { protocols: [] })).json()).toEqual({ protocols: ['This field is required.'] })
    const builtin = await s.admin.patch('/api/v1/assets/platforms/1/', { comment: 'x' })
    expect(builtin.statusCode).toBe(400)
    const custom = await s.admin.post('/api/v1/assets/platforms/', { name: 'Appliance', category: 'custom', type: 'custom', protocols: [{ name: 'tcp9', port: 9 }] })
    expect(custom.statusCode).toBe(201)
    expect((await s.admin.get('/api/v1/assets/categories/')).json().map((c: { value: string }) => c.value)).toContain('custom')
    const used = (await s.admin.post('/api/v1/assets/customs/', { name: 'box', address: 'anything', platform: custom.json().id })).json()
    expect(used.protocols).toEqual([{ name: 'tcp9', port: 9 }])
    expect((await s.admin.delete(`/api/v1/assets/platforms/${custom.json().id}/`)).json().detail).toBe('The platform is used by 1 assets and cannot be deleted')
    // the automation methods a platform's switches choose from (lina's platform form reads them)
    const methods = (await s.admin.get('/api/v1/assets/platform-automation-methods/')).json() as { id: string; method: string; category: string[]; type: string[] }[]
    expect(methods.length).toBeGreaterThan(0)
    expect(methods.some((m) => m.method === 'ping' && m.type.includes('linux'))).toBe(true)
    expect(new Set(methods.map((m) => m.id)).size).toBe(methods.length)
    const org = (await s.admin.post('/api/v1/orgs/orgs/', { name: 'Branch' })).json()
    const tree = (await s.admin.get(`${NODES}children/tree/`, { 'x-jms-org': org.id })).json()
    expect(tree).toMatchObject([{ title: 'Branch', pId: '', meta: { data: { assets_amount: 0 } } }])
    expect((await s.admin.delete(`/api/v1/orgs/orgs/${org.id}/`)).statusCode).toBe(204)
  })
})
