import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { ORG_IDS, ROLE_IDS } from '../../rbac/catalog.ts'
import { dbKind } from '../../testing.ts'
import { useTestServer } from '../../use-test-server.ts'

const LOGS = '/api/v1/audits/operate-logs/'
const OTHER_ORG = '00000000-0000-0000-0000-0000000000cc'

describe(`operate logs and activities (${dbKind()})`, () => {
  let group: { id: string }

  const s = useTestServer({}, async ({ t, admin }) => {
    await sql`insert into organizations (id, name) values (${OTHER_ORG}, 'Other')`.execute(t.database.db)
    group = (await admin.post('/api/v1/users/groups/', { name: 'audited' })).json()
    await admin.patch(`/api/v1/users/groups/${group.id}/`, { name: 'audited-2', comment: 'note' })
    await admin.post('/api/v1/users/groups/', { name: 'elsewhere' }, { 'x-jms-org': OTHER_ORG })
  })

  it('lists operate logs of the current org, newest first, filtered, searchable and dated', async () => {
    const list = (await s.admin.get(`${LOGS}?limit=10`)).json()
    expect(list.results.map((l: { action: { value: string } }) => l.action.value)).toEqual(['update', 'create'])
    expect(list.results[0]).toMatchObject({ user: 'Administrator(admin)', resource_type: 'User group', resource: 'audited-2', remote_addr: expect.any(String), org_name: 'DEFAULT' })
    expect((await s.admin.get(LOGS, { 'x-jms-org': 'ROOT' })).json()).toHaveLength(3)
    expect((await s.admin.get(`${LOGS}?action=create`)).json()).toHaveLength(1)
    expect((await s.admin.get(`${LOGS}?action=fly`)).statusCode).toBe(400)
    expect((await s.admin.get(`${LOGS}?search=audited-2`)).json()).toHaveLength(1)
    expect((await s.admin.get(`${LOGS}?date_from=2999-01-01T00:00:00.000Z`)).json()).toHaveLength(0)
    expect((await s.admin.get(`${LOGS}?date_to=${encodeURIComponent('2000/01/01 00:00:00 +0800')}`)).json()).toHaveLength(0)
    expect((await s.admin.get(`${LOGS}?date_from=${encodeURIComponent('2000-01-01 00:00:00 +0800')}`)).json()).toHaveLength(2)
    expect((await s.admin.get(`${LOGS}?date_from=garbage`)).json()).toHaveLength(2)
    const zh = (await s.admin.get(LOGS, { 'accept-language': 'zh' })).json()
    expect(zh[0].resource_type).toBe('用户组')
  })

  it('is read-only', async () => {
    const [log] = (await s.admin.get(LOGS)).json()
    for (const r of [await s.admin.post(LOGS, {}), await s.admin.patch(`${LOGS}${log.id}/`, {}), await s.admin.delete(`${LOGS}${log.id}/`), await s.admin.delete(`${LOGS}?ids=${log.id}`)]) {
      expect(r.statusCode).toBe(405)
    }
  })

  it('answers the action detail with translated fields and "empty" sides', async () => {
    const [update] = (await s.admin.get(`${LOGS}?action=update`)).json()
    const detail = await s.admin.get(`${LOGS}${update.id}/?type=action_detail`)
    expect(detail.json()).toEqual({ diff: [{ field: 'Name', before: 'audited', after: 'audited-2' }, { field: 'Comment', before: 'empty', after: 'note' }] })
    const ja = (await s.admin.get(`${LOGS}${update.id}/?type=action_detail`, { 'accept-language': 'ja' })).json()
    expect(ja.diff[0].field).toBe('名前')
    expect(ja.diff[1].before).toBe('空')
  })

  it('gives the activity timeline of an object (current org + SYSTEM), newest first, at most 30', async () => {
    for (let i = 0; i < 35; i++) await s.admin.patch(`/api/v1/users/groups/${group.id}/`, { comment: `c${i}` })
    await sql`insert into activity_logs (id, type, resource_id, detail, detail_url, org_id, datetime)
      values (gen_random_uuid(), 'L', ${group.id}, 'Login', '/ui/#/audit/audits/login-logs/1', ${ORG_IDS.SYSTEM}, now() + interval '1 minute')`.execute(s.t.database.db)
    const acts = (await s.admin.get(`/api/v1/audits/activities/?resource_id=${group.id}`)).json()
    expect(acts).toHaveLength(30)
    expect(acts[0]).toMatchObject({ r_type: 'L', detail_url: '/ui/#/audit/audits/login-logs/1' })
    expect(acts[1]).toMatchObject({ r_type: 'O', content: 'User Administrator(admin) Update this resource' })
    expect(acts[1].timestamp).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
    expect((await s.admin.get(`/api/v1/audits/activities/?resource_id=${group.id}`, { 'x-jms-org': OTHER_ORG })).json()).toHaveLength(1)
    expect((await s.admin.get('/api/v1/audits/activities/')).json()).toEqual([])
    await s.t.createUser({ username: 'plain' })
    expect((await (await s.t.as('plain')).get(`/api/v1/audits/activities/?resource_id=${group.id}`)).statusCode).toBe(403)
    await s.t.createUser({ username: 'auditor', orgRoles: [ROLE_IDS.OrgAuditor] })
    expect((await (await s.t.as('auditor')).get(`/api/v1/audits/activities/?resource_id=${group.id}`)).statusCode).toBe(200)
  })
})
