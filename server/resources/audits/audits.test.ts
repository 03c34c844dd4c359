import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ORG_IDS, ROLE_IDS } from '../../rbac/catalog.ts'
import { createTestServer, dbKind, type TestClient, type TestServer } from '../../testing.ts'

const LOGS = '/api/v1/audits/operate-logs/'
const OTHER_ORG = '00000000-0000-0000-0000-0000000000cc'

describe(`operate logs and activities (${dbKind()})`, () => {
  let t: TestServer
  let admin: TestClient
  let group: { id: string }

  beforeAll(async () => {
    t = await createTestServer()
    admin = await t.as('admin')
    admin.headers['accept-language'] = 'en'
    await sql`insert into organizations (id, name) values (${OTHER_ORG}, 'Other')`.execute(t.database.db)
    group = (await admin.post('/api/v1/users/groups/', { name: 'audited' })).json()
    await admin.patch(`/api/v1/users/groups/${group.id}/`, { name: 'audited-2', comment: 'note' })
    await admin.post('/api/v1/users/groups/', { name: 'elsewhere' }, { 'x-jms-org': OTHER_ORG })
  })
  afterAll(async () => { await t.close() })

  it('lists operate logs of the current org, newest first, filtered, searchable and dated', async () => {
    const list = (await admin.get(`${LOGS}?limit=10`)).json()
    expect(list.results.map((l: { action: { value: string } }) => l.action.value)).toEqual(['update', 'create'])
    expect(list.results[0]).toMatchObject({ user: 'Administrator(admin)', resource_type: 'User group', resource: 'audited-2', remote_addr: expect.any(String), org_name: 'DEFAULT' })
    expect((await admin.get(LOGS, { 'x-jms-org': 'ROOT' })).json()).toHaveLength(3)
    expect((await admin.get(`${LOGS}?action=create`)).json()).toHaveLength(1)
    expect((await admin.get(`${LOGS}?action=fly`)).statusCode).toBe(400)
    expect((await admin.get(`${LOGS}?search=audited-2`)).json()).toHaveLength(1)
    expect((await admin.get(`${LOGS}?date_from=2999-01-01T00:00:00.000Z`)).json()).toHaveLength(0)
    expect((await admin.get(`${LOGS}?date_to=${encodeURIComponent('2000/01/01 00:00:00 +0800')}`)).json()).toHaveLength(0)
    expect((await admin.get(`${LOGS}?date_from=${encodeURIComponent('2000-01-01 00:00:00 +0800')}`)).json()).toHaveLength(2)
    expect((await admin.get(`${LOGS}?date_from=garbage`)).json()).toHaveLength(2)
    const zh = (await admin.get(LOGS, { 'accept-language': 'zh' })).json()
    expect(zh[0].resource_type).toBe('用户组')
  })

  it('is read-only', async () => {
    const [log] = (await admin.get(LOGS)).json()
    for (const r of [await admin.post(LOGS, {}), await admin.patch(`${LOGS}${log.id}/`, {}), await admin.delete(`${LOGS}${log.id}/`), await admin.delete(`${LOGS}?ids=${log.id}`)]) {
      expect(r.statusCode).toBe(405)
    }
  })

  it('answers the action detail with translated fields and "empty" sides', async () => {
    const [update] = (await admin.get(`${LOGS}?action=update`)).json()
    const detail = await admin.get(`${LOGS}${update.id}/?type=action_detail`)
    expect(detail.json()).toEqual({ diff: [{ field: 'Name', before: 'audited', after: 'audited-2' }, { field: 'Comment', before: 'empty', after: 'note' }] })
    const ja = (await admin.get(`${LOGS}${update.id}/?type=action_detail`, { 'accept-language': 'ja' })).json()
    expect(ja.diff[0].field).toBe('名前')
    expect(ja.diff[1].before).toBe('空')
  })

  it('gives the activity timeline of an object (current org + SYSTEM), newest first, at most 30', async () => {
    for (let i = 0; i < 35; i++) await admin.patch(`/api/v1/users/groups/${group.id}/`, { comment: `c${i}` })
    await sql`insert into activity_logs (id, type, resource_id, detail, detail_url, org_id, datetime)
      values (gen_random_uuid(), 'L', ${group.id}, 'Login', '/ui/#/audit/audits/login-logs/1', ${ORG_IDS.SYSTEM}, now() + interval '1 minute')`.execute(t.database.db)
    const acts = (await admin.get(`/api/v1/audits/activities/?resource_id=${group.id}`)).json()
    expect(acts).toHaveLength(30)
    expect(acts[0]).toMatchObject({ r_type: 'L', detail_url: '/ui/#/audit/audits/login-logs/1' })
    expect(acts[1]).toMatchObject({ r_type: 'O', content: 'User Administrator(admin) Update this resource' })
    expect(acts[1].timestamp).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
    expect((await admin.get(`/api/v1/audits/activities/?resource_id=${group.id}`, { 'x-jms-org': OTHER_ORG })).json()).toHaveLength(1)
    expect((await admin.get('/api/v1/audits/activities/')).json()).toEqual([])
    await t.createUser({ username: 'plain' })
    expect((await (await t.as('plain')).get(`/api/v1/audits/activities/?resource_id=${group.id}`)).statusCode).toBe(403)
    await t.createUser({ username: 'auditor', orgRoles: [ROLE_IDS.OrgAuditor] })
    expect((await (await t.as('auditor')).get(`/api/v1/audits/activities/?resource_id=${group.id}`)).statusCode).toBe(200)
  })
})
