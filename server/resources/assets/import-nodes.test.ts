import { describe, expect, it } from 'vitest'
import { dbKind } from '../../testing.ts'
import { useTestServer } from '../../use-test-server.ts'

const HOSTS = '/api/v1/assets/hosts/'
const NODES = '/api/v1/assets/nodes/'

describe(`asset files with node paths (${dbKind()})`, () => {
  const s = useTestServer()

  it('imports node paths or ids from a CSV, refuses unknown paths per row, exports node paths', async () => {
    const web = (await s.admin.post(NODES, { full_value: '/DEFAULT/Imp/Web' })).json()
    const db = (await s.admin.post(NODES, { full_value: '/DEFAULT/Imp/Db' })).json()
    const csv = '\ufeffname,address,platform,nodes\r\n'
      + 'imp1,10.1.0.1,1,/DEFAULT/Imp/Web\r\n'
      + `imp2,10.1.0.2,1,"[""/DEFAULT/Imp/Web"", ""${db.id as string}""]"\r\n`
      + 'imp3,10.1.0.3,1,/DEFAULT/Imp/Nope\r\n'
    const rendered = await s.admin.request({ method: 'POST', url: `${HOSTS}render-to-json/`, payload: csv, headers: { 'content-type': 'text/csv' } })
    expect(rendered.statusCode).toBe(200)
    const rows = rendered.json().data as Array<Record<string, unknown>>
    expect(rows.map((r) => r.nodes)).toEqual([['/DEFAULT/Imp/Web'], ['/DEFAULT/Imp/Web', db.id], ['/DEFAULT/Imp/Nope']])
    // the console sends the rows one at a time
    const [one, two, three] = [await s.admin.post(HOSTS, rows[0]), await s.admin.post(HOSTS, rows[1]), await s.admin.post(HOSTS, rows[2])]
    expect(one.statusCode).toBe(201)
    expect(one.json().nodes).toEqual([{ id: web.id, name: 'Web' }])
    expect(two.json().nodes_display).toEqual(['/DEFAULT/Imp/Db', '/DEFAULT/Imp/Web'])
    expect(three.statusCode).toBe(400)
    expect(three.json()).toEqual({ nodes: ['Object with full_value=/DEFAULT/Imp/Nope does not exist.'] })
    expect((await s.admin.get(`${HOSTS}?name=imp3`)).json()).toEqual([])
    expect((await s.admin.get(`${NODES}?value=Nope`)).json()).toEqual([]) // nothing created

    const exported = (await s.admin.get(`${HOSTS}?format=csv&name=imp2`)).rawPayload.toString('utf8')
    expect(exported).toMatch(/"\[""\/DEFAULT\/Imp\/(Web|Db)"",""\/DEFAULT\/Imp\/(Web|Db)""\]"/)
    expect(exported).not.toContain(`Web(${web.id as string})`)
    // the exported file reads back to the same nodes (update template round trip)
    const back = await s.admin.request({ method: 'POST', url: `${HOSTS}render-to-json/`, payload: exported, headers: { 'content-type': 'text/csv' } })
    expect([...back.json().data[0].nodes].sort()).toEqual(['/DEFAULT/Imp/Db', '/DEFAULT/Imp/Web'])
  })
})
