/**
 * Engine behaviour through the real app and database, using the user-group resource (org-scoped, simple)
 * and users (relations, computed fields) as subjects.
 */
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { resourceByName } from './registry.ts'
import { searchExpression } from './query.ts'
import { createTestServer, dbKind, type TestClient, type TestServer } from '../testing.ts'

const GROUPS = '/api/v1/users/groups/'

describe(`resource engine (${dbKind()})`, () => {
  let t: TestServer
  let admin: TestClient
  const userIds: string[] = []

  beforeAll(async () => {
    t = await createTestServer()
    admin = await t.as('admin')
    admin.headers['accept-language'] = 'en'
    for (const name of ['ann', 'ben', 'cat']) userIds.push(await t.createUser({ username: name }))
    const r = await admin.post(GROUPS, ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta_x', 'the%te'].map((name, i) => ({ name, comment: `c${i}`, users: i < 2 ? userIds : [] })))
    expect(r.statusCode).toBe(201)
  })
  afterAll(async () => { await t.close() })

  describe('list', () => {
    it('paginates with absolute next/previous links and a bare array otherwise', async () => {
      const r = await admin.get(`${GROUPS}?limit=3&offset=3&order=name`)
      expect(r.statusCode).toBe(200)
      const body = r.json()
      expect(body.count).toBe(8)
      expect(body.results.map((g: { name: string }) => g.name)).toEqual(['epsilon', 'eta_x', 'gamma'])
      expect(body.next).toBe('http://localhost:80/api/v1/users/groups/?limit=3&offset=6&order=name')
      expect(body.previous).toBe('http://localhost:80/api/v1/users/groups/?limit=3&order=name')
      const second = (await admin.get(`${GROUPS}?limit=3&offset=6&order=name`)).json()
      expect(second.next).toBeNull()
      expect(second.previous).toBe('http://localhost:80/api/v1/users/groups/?limit=3&offset=3&order=name')
      for (const q of ['', '?limit=0', '?limit=abc', '?limit=-1']) {
        const bare = (await admin.get(`${GROUPS}${q}`)).json()
        expect(Array.isArray(bare)).toBe(true)
        expect(bare).toHaveLength(8)
      }
    })

    it('caps the page size at 100 and survives huge offsets', async () => {
      const r = await admin.get(`${GROUPS}?limit=100000&offset=99999999999999999999`)
      expect(r.statusCode).toBe(200)
      expect(r.json().results).toHaveLength(8)
      expect((await admin.get(`${GROUPS}?limit=2&offset=1000`)).json()).toMatchObject({ count: 8, results: [], next: null })
    })

    it('searches every term, case-insensitively, with % and _ taken literally', async () => {
      const names = async (q: string) => ((await admin.get(`${GROUPS}?search=${encodeURIComponent(q)}`)).json() as { name: string }[]).map((g) => g.name).sort()
      expect(await names('ALPH')).toEqual(['alpha'])
      expect(await names('eta')).toEqual(['beta', 'eta_x', 'zeta'])
      expect(await names('eta, z')).toEqual(['zeta'])
      expect(await names('eta  x')).toEqual(['eta_x'])
      expect(await names('%')).toEqual(['the%te'])
      expect(await names('_')).toEqual(['eta_x'])
      expect(await names('nothing-matches')).toEqual([])
    })

    it('orders by several fields, ignores unknown ones and falls back to the default', async () => {
      const order = async (q: string) => ((await admin.get(`${GROUPS}?order=${q}`)).json() as { name: string }[]).map((g) => g.name)
      expect((await order('-name'))[0]).toBe('zeta')
      expect((await order('-users_amount,name')).slice(0, 3)).toEqual(['alpha', 'beta', 'delta'])
      expect(await order('bogus')).toEqual(await order('name'))
      expect((await order('bogus'))[0]).toBe('alpha')
    })

    it('filters exactly, ignores unknown parameters and refuses bad values with field errors', async () => {
      expect((await admin.get(`${GROUPS}?name=beta&whatever=1&draw=1&display=1`)).json()).toHaveLength(1)
      expect((await admin.get(`${GROUPS}?users=${userIds[0]}`)).json()).toHaveLength(2)
      const bad = await admin.get(`${GROUPS}?id=not-a-uuid`)
      expect(bad.statusCode).toBe(400)
      expect(bad.json()).toEqual({ id: ['Enter a valid UUID.'] })
      const badUser = await admin.get(`${GROUPS}?users=nope`)
      expect(badUser.statusCode).toBe(400)
      expect(badUser.json().users[0]).toMatch(/Select a valid choice/)
      const badChoice = await admin.get('/api/v1/users/users/?source=martian')
      expect(badChoice.statusCode).toBe(400)
      expect(badChoice.json()).toEqual({ source: ['Select a valid choice. martian is not one of the available choices.'] })
    })

    it('keeps only the listed ids, and honours spm (unknown or expired spm → empty)', async () => {
      const all = (await admin.get(GROUPS)).json() as { id: string; name: string }[]
      const two = all.slice(0, 2).map((g) => g.id)
      expect((await admin.get(`${GROUPS}?ids=${two.join(',')},garbage`)).json()).toHaveLength(2)
      const spm = (await admin.post('/api/v1/common/resources/cache/', { resources: [two[0], { id: two[1] }] })).json().spm
      expect((await admin.get(`${GROUPS}?spm=${spm}`)).json().map((g: { id: string }) => g.id).sort()).toEqual([...two].sort())
      expect((await admin.get(`${GROUPS}?spm=00000000-1111-2222-3333-444444444444`)).json()).toEqual([])
      expect((await admin.get(`${GROUPS}?spm=junk`)).json()).toEqual([])
      await t.database.db.updateTable('resource_cache').set({ expires_at: new Date(Date.now() - 1000) }).where('id', '=', spm).execute()
      expect((await admin.get(`${GROUPS}?spm=${spm}`)).json()).toEqual([])
      expect((await admin.post('/api/v1/common/resources/cache/', {})).json().spm).toMatch(/^[0-9a-f-]{36}$/)
    })

    it('shrinks rows with fields_size, fields and fields!', async () => {
      const mini = (await admin.get('/api/v1/users/users/?fields_size=mini&username=ann')).json()
      expect(mini).toEqual([{ id: userIds[0], name: 'ann', username: 'ann' }])
      const some = (await admin.get(`${GROUPS}?fields=id,name&name=alpha`)).json()
      expect(Object.keys(some[0])).toEqual(['id', 'name'])
      const without = (await admin.get(`${GROUPS}?fields!=users,comment&name=alpha`)).json()
      expect(without[0]).not.toHaveProperty('users')
      expect(without[0]).toHaveProperty('users_amount', 3)
    })

    it('renders related objects as {id, name} and datetimes in the X-TZ zone', async () => {
      const [g] = (await admin.get(`${GROUPS}?name=alpha`, { 'x-tz': 'UTC' })).json()
      expect(g.users.map((u: { name: string }) => u.name).sort()).toEqual(['ann', 'ben', 'cat'])
      expect(g.users[0]).toEqual({ id: expect.any(String), name: expect.any(String), username: expect.any(String) })
      expect(g.date_created).toMatch(/^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2} \+0000$/)
      const [sh] = (await admin.get(`${GROUPS}?name=alpha`, { 'x-tz': 'Asia/Shanghai' })).json()
      expect(sh.date_created).toMatch(/\+0800$/)
      expect(g.org_id).toBe('00000000-0000-0000-0000-000000000002')
      expect(g.org_name).toBe('DEFAULT')
    })
  })

  describe('metadata', () => {
    it('describes POST/GET/PUT/PATCH with per-field info, filter and order flags on GET only', async () => {
      const r = await admin.options(`${GROUPS}?draw=1&display=1`)
      expect(r.statusCode).toBe(200)
      const m = r.json()
      expect(Object.keys(m)).toEqual(['name', 'description', 'renders', 'parses', 'actions'])
      expect(m.name).toBe('User group List')
      expect(m.renders).toEqual(['application/json', 'text/csv', 'application/xlsx'])
      expect(Object.keys(m.actions)).toEqual(['POST', 'GET', 'PUT', 'PATCH'])
      expect(m.actions.POST.id).toEqual({ type: 'string', required: false, read_only: true, write_only: false, label: 'ID' })
      expect(m.actions.POST.name).toEqual({ type: 'string', required: true, read_only: false, write_only: false, label: 'Name', max_length: 128 })
      expect(m.actions.POST.users).toMatchObject({ type: 'm2m_related_field', required: false, label: 'User' })
      expect(m.actions.POST.org_id.label).toBe('Organization ID')
      expect(m.actions.GET.name).toMatchObject({ filter: true, order: true })
      expect(m.actions.GET.comment).not.toHaveProperty('filter')
      expect(m.actions.POST.name).not.toHaveProperty('filter')
    })

    it('translates labels by language, needs authentication only, and describes detail URLs', async () => {
      const zh = (await admin.options(GROUPS, { 'accept-language': 'zh-CN' })).json()
      expect(zh.actions.POST.name.label).toBe('名称')
      expect(zh.actions.POST.id.label).toBe('ID')
      expect((await t.client().options(GROUPS)).statusCode).toBe(401)
      await t.createUser({ username: 'plain' })
      const plain = await t.as('plain')
      expect((await plain.options(GROUPS)).statusCode).toBe(200)
      expect((await plain.get(GROUPS)).statusCode).toBe(403)
      const [g] = (await admin.get(`${GROUPS}?name=alpha`)).json()
      expect(Object.keys((await admin.options(`${GROUPS}${g.id}/`)).json().actions)).toEqual(['GET', 'PUT', 'PATCH'])
      expect(Object.keys((await admin.options(`${GROUPS}00000000-1111-2222-3333-444444444444/`)).json().actions)).toEqual(['GET', 'PATCH'])
      const users = (await admin.options('/api/v1/users/users/')).json()
      expect(users.actions.POST.mfa_level.choices[2]).toEqual({ value: 2, label: 'Force enable' })
      expect(users.actions.POST.date_expired.default).toMatch(/^\d{4}-\d{2}-\d{2}T/)
      expect(users.actions.POST.is_active.default).toBe(true)
    })
  })

  describe('writes', () => {
    it('creates (201), retrieves, updates, partially updates and deletes (204) with operate logs', async () => {
      const created = await admin.post(GROUPS, { name: 'ops', comment: 'x', users: [{ id: userIds[0] }, { pk: userIds[1] }], users_amount: 99, id: 'ignored' })
      expect(created.statusCode).toBe(201)
      const g = created.json()
      expect(g.users_amount).toBe(2)
      expect(g.id).not.toBe('ignored')
      expect((await admin.get(`${GROUPS}${g.id}/`)).json().name).toBe('ops')
      const put = await admin.put(`${GROUPS}${g.id}/`, { name: 'ops2', users: [userIds[2]] })
      expect(put.statusCode).toBe(200)
      expect(put.json()).toMatchObject({ name: 'ops2', comment: 'x', users_amount: 1 })
      const patch = await admin.patch(`${GROUPS}${g.id}/`, { comment: 'y' })
      expect(patch.json()).toMatchObject({ name: 'ops2', comment: 'y' })
      const logs = (await admin.get(`/api/v1/audits/activities/?resource_id=${g.id}`)).json()
      expect(logs.map((l: { content: string }) => l.content)).toEqual([
        'User Administrator(admin) Update this resource', 'User Administrator(admin) Update this resource', 'User Administrator(admin) Create this resource'])
      const diff = (await admin.get(logs[1].detail_url)).json().diff
      expect(diff).toEqual(expect.arrayContaining([{ field: 'Name', before: 'ops', after: 'ops2' }, { field: 'User', before: 'ann, ben', after: 'cat' }]))
      expect((await admin.delete(`${GROUPS}${g.id}/`)).statusCode).toBe(204)
      expect((await admin.get(`${GROUPS}${g.id}/`)).statusCode).toBe(404)
      expect((await admin.get(`${GROUPS}${g.id}/`)).json()).toEqual({ detail: 'User group object does not exist.', code: 'object_does_not_exist' })
      expect((await admin.get(`${GROUPS}not-an-id/`)).statusCode).toBe(404)
      const ops = (await admin.get(`/api/v1/audits/operate-logs/?resource_type=User group&action=delete`)).json()
      expect(ops.some((l: { resource: string }) => l.resource === 'ops2')).toBe(true)
    })

    it('refuses bad input with DRF field errors and writes nothing', async () => {
      const before = (await admin.get(GROUPS)).json().length
      const r = await admin.post(GROUPS, { name: 'x'.repeat(129), users: ['00000000-1111-2222-3333-444444444444'], comment: 5 })
      expect(r.statusCode).toBe(400)
      expect(r.json()).toEqual({
        name: ['Ensure this field has no more than 128 characters.'],
        users: ['Invalid pk "00000000-1111-2222-3333-444444444444" - object does not exist.'],
      })
      expect((await admin.post(GROUPS, { name: 'alpha' })).json()).toEqual({ name: ['This field must be unique.'] })
      expect((await admin.post(GROUPS, {})).json()).toEqual({ name: ['This field is required.'] })
      expect((await admin.post(GROUPS, { name: '   ' })).json()).toEqual({ name: ['This field may not be blank.'] })
      expect((await admin.post(GROUPS, { name: null })).json()).toEqual({ name: ['This field may not be null.'] })
      expect((await admin.post(GROUPS, { name: ['a'] })).json()).toEqual({ name: ['Not a valid string.'] })
      expect((await admin.post(GROUPS, { name: 'nul\u0000' })).json()).toEqual({ name: ['Null characters are not allowed.'] })
      expect((await admin.post(GROUPS, { name: 'ok', users: 'x' })).json()).toEqual({ users: ['Invalid pk "x" - object does not exist.'] })
      expect((await admin.post(GROUPS, { name: 'ok', users: { a: 1 } })).json()).toEqual({ users: ['Expected a list of items but got type "dict".'] })
      expect((await admin.post(GROUPS, 'text')).statusCode).toBe(400)
      expect((await admin.get(GROUPS)).json().length).toBe(before)
    })

    it('bulk creates and updates all-or-nothing with errors aligned to the input', async () => {
      const bad = await admin.post(GROUPS, [{ name: 'b1' }, { name: 'alpha' }, { name: 'b1' }])
      expect(bad.statusCode).toBe(400)
      expect(bad.json()).toEqual([{}, { name: ['This field must be unique.'] }, { name: ['This field must be unique.'] }])
      expect((await admin.get(`${GROUPS}?name=b1`)).json()).toEqual([])
      const made = (await admin.post(GROUPS, [{ name: 'b1' }, { name: 'b2' }])).json()
      expect(made.map((g: { name: string }) => g.name)).toEqual(['b1', 'b2'])
      const upd = await admin.patch(GROUPS, [{ id: made[0].id, comment: 'one' }, { id: made[1].id, name: 'b1' }])
      expect(upd.statusCode).toBe(400)
      expect(upd.json()).toEqual([{}, { name: ['This field must be unique.'] }])
      const missing = await admin.patch(GROUPS, [{ comment: 'x' }, { id: '00000000-1111-2222-3333-444444444444', comment: 'x' }])
      expect(missing.json()).toEqual([{ id: ['This field is required.'] }, { id: ['Invalid pk "00000000-1111-2222-3333-444444444444" - object does not exist.'] }])
      const ok = await admin.patch(GROUPS, [{ id: made[0].id, comment: 'one' }, { pk: made[1].id, comment: 'two' }])
      expect(ok.statusCode).toBe(200)
      expect(ok.json().map((g: { comment: string }) => g.comment)).toEqual(['one', 'two'])
      expect((await admin.put(GROUPS, { id: made[0].id })).statusCode).toBe(400)
    })

    it('bulk deletes the filtered set behind the guard', async () => {
      const all = (await admin.get(GROUPS)).json() as { id: string; name: string }[]
      expect((await admin.delete(GROUPS)).statusCode).toBe(400)
      expect((await admin.delete(GROUPS)).body).toBe('')
      const targets = all.filter((g) => g.name.startsWith('b')).map((g) => g.id)
      const spm = (await admin.post('/api/v1/common/resources/cache/', { resources: targets })).json().spm
      expect((await admin.delete(`${GROUPS}?spm=${spm}`)).statusCode).toBe(204)
      expect((await admin.get(GROUPS)).json().length).toBe(all.length - targets.length)
      const allSpm = (await admin.post('/api/v1/common/resources/cache/', { resources: all.map((g) => g.id) })).json().spm
      // org-scoped: an spm is enough even when it names every row; users must be a strict subset.
      const users = (await admin.get('/api/v1/users/users/')).json() as { id: string }[]
      const usersSpm = (await admin.post('/api/v1/common/resources/cache/', { resources: users.map((u) => u.id) })).json().spm
      expect((await admin.delete(`/api/v1/users/users/?spm=${usersSpm}`)).statusCode).toBe(400)
      expect(allSpm).toBeTruthy()
    })

    it('answers 405 for verbs a resource does not serve', async () => {
      const r = await admin.post('/api/v1/audits/operate-logs/', { user: 'x' })
      expect(r.statusCode).toBe(405)
      expect(r.json()).toEqual({ detail: 'Method "POST" not allowed.', code: 'method_not_allowed' })
      expect((await t.client().post('/api/v1/audits/operate-logs/', {})).statusCode).toBe(401)
    })
  })

  describe('files', () => {
    it('exports CSV with BOM, labels, * on required fields, name(id), JSON m2m, Yes/No and -', async () => {
      const r = await admin.get(`${GROUPS}?format=csv&name=alpha`)
      expect(r.statusCode).toBe(200)
      expect(r.headers['content-type']).toMatch(/^text\/csv/)
      expect(r.headers['content-disposition']).toMatch(/^attachment; filename="usergroup_\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}\.csv"$/)
      const text = r.rawPayload.toString('utf8')
      expect(text.charCodeAt(0)).toBe(0xfeff)
      const [header, row] = text.slice(1).trim().split('\r\n')
      expect(header).toBe('ID,*Name,Comment,User,Users amount,Created by,Date created,Date updated')
      expect(row).toContain('"[""ann(')
      const users = (await admin.get('/api/v1/users/users/?format=csv&username=ann')).rawPayload.toString('utf8')
      expect(users).toContain(',No,') // booleans
      expect(users).toMatch(/,-,/) // nulls
      expect(users).not.toContain('Avatar url')
    })

    it('writes import and update templates and XLSX files, and reads them back with render-to-json', async () => {
      const tpl = (await admin.get(`${GROUPS}?format=csv&template=import&limit=1`)).rawPayload.toString('utf8')
      expect(tpl.slice(1).split('\r\n')[0]).toBe('*Name,Comment,User')
      expect(tpl.slice(1).trim().split('\r\n')).toHaveLength(2)
      const upd = (await admin.get(`${GROUPS}?format=csv&template=update`)).rawPayload.toString('utf8')
      expect(upd.slice(1).split('\r\n')[0]).toBe('ID,*Name,Comment,User')
      const xlsx = await admin.get(`${GROUPS}?format=xlsx&template=update&name=alpha`)
      expect(xlsx.headers['content-type']).toBe('application/xlsx')
      const back = await admin.request({ method: 'POST', url: `${GROUPS}render-to-json/`, payload: xlsx.rawPayload, headers: { 'content-type': 'text/xlsx' } })
      expect(back.statusCode).toBe(200)
      const body = back.json()
      expect(body.title).toEqual([['ID', 'id'], ['*Name', 'name'], ['Comment', 'comment'], ['User', 'users']])
      expect(body.data[0].name).toBe('alpha')
      expect(body.data[0].users[0]).toEqual({ pk: expect.any(String), name: expect.any(String) })
    })

    it('parses CSV in UTF-8 or GB18030, maps labels or names, and refuses empty or broken files', async () => {
      const post = (payload: Buffer | string, type = 'text/csv') => admin.request({ method: 'POST', url: `${GROUPS}render-to-json/`, payload, headers: { 'content-type': type } })
      const utf8 = await post('\ufeff*名称,comment,Unknown\n团队,"a, b",z\n\n-,x,y\n')
      expect(utf8.json()).toEqual({ title: [['*名称', 'name'], ['comment', 'comment']], data: [{ name: '团队', comment: 'a, b' }, { name: '-', comment: 'x' }] })
      const gb = Buffer.from([0x2a, 0x4e, 0x61, 0x6d, 0x65, 0x0a, 0xc4, 0xe3, 0xba, 0xc3, 0x0a]) // "*Name\n你好\n" in GB18030
      expect((await post(gb)).json().data).toEqual([{ name: '你好' }])
      expect((await post('a,b\n')).json()).toEqual({ error: 'Request file format may be wrong' })
      expect((await post('*Name\n')).statusCode).toBe(400)
      const broken = await post(Buffer.from('PK\u0003\u0004garbage'), 'text/xlsx')
      expect(broken.statusCode).toBe(400)
      expect(broken.json()).toMatchObject({ code: 'parse_error', detail: expect.stringMatching(/^Parse file error: /) })
      const big = await post(Buffer.alloc(10 * 1024 * 1024 + 10, 0x41))
      expect(big.statusCode).toBe(400)
      expect(big.json().code).toBe('file_content_overflowed')
    })
  })

  describe('database support', () => {
    it('searches through the trigram index when pg_trgm is available (the expressions match exactly)', async () => {
      const db = t.database.db
      const hasTrgm = (await sql`select 1 from pg_extension where extname = 'pg_trgm'`.execute(db)).rows.length > 0
      const expr = searchExpression(resourceByName('users.user'))
      const plan = await db.transaction().execute(async (tx) => {
        await sql`set local enable_seqscan = off`.execute(tx)
        const r = await sql<{ 'QUERY PLAN': string }>`explain select id from users as t where ${sql.raw(expr)} ilike '%abc%'`.execute(tx)
        return r.rows.map((x) => x['QUERY PLAN']).join('\n')
      })
      if (hasTrgm) expect(plan).toContain('users_search_trgm')
      else expect(plan).not.toContain('users_search_trgm')
      expect(expr).toBe("(coalesce(t.username::text, '') || ' ' || coalesce(t.email::text, '') || ' ' || coalesce(t.name::text, ''))")
    })

    it('keeps users.org_ids in step with org role bindings', async () => {
      const db = t.database.db
      const orgs = async () => (await sql<{ org_ids: string[] }>`select org_ids from users where id = ${userIds[0]}`.execute(db)).rows[0]!.org_ids
      expect(await orgs()).toEqual(['00000000-0000-0000-0000-000000000002'])
      await sql`insert into organizations (id, name) values ('00000000-0000-0000-0000-0000000000ee', 'E')`.execute(db)
      await sql`insert into role_bindings (id, user_id, role_id, scope, org_id) values (gen_random_uuid(), ${userIds[0]}, '00000000-0000-0000-0000-000000000006', 'org', '00000000-0000-0000-0000-0000000000ee')`.execute(db)
      expect([...(await orgs())].sort()).toEqual(['00000000-0000-0000-0000-000000000002', '00000000-0000-0000-0000-0000000000ee'])
      await sql`update role_bindings set org_id = '00000000-0000-0000-0000-000000000002' where user_id = ${userIds[0]} and org_id = '00000000-0000-0000-0000-0000000000ee'`.execute(db)
      expect(await orgs()).toEqual(['00000000-0000-0000-0000-000000000002'])
      await sql`delete from role_bindings where user_id = ${userIds[0]} and scope = 'org'`.execute(db)
      expect(await orgs()).toEqual([])
      expect((await admin.get(`/api/v1/users/users/${userIds[0]}/`)).statusCode).toBe(404)
    })
  })
})
