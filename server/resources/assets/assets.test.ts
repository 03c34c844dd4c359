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
  })
})
