/**
 * Settings → Terminal over HTTP: replay and command storages (kinds validated, secrets sealed and never answered,
 * one default, "test" checked for real — the replay directory written, an Elasticsearch-like HTTP server on
 * loopback asked, an unreachable endpoint refused), endpoints and endpoint rules with the endpoint a connection
 * goes to, replay files removed with their sessions by the clean-up, and the dashboard's job-log totals.
 */
import { existsSync, mkdtempSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ORG_IDS, ROLE_IDS } from '../../rbac/catalog.ts'
import { runCleanup } from '../../tasks/cleanup.ts'
import { dbKind } from '../../testing.ts'
import { useTestServer } from '../../use-test-server.ts'
import { castOf, multipart, signed } from './test-support.ts'

const BOOTSTRAP = 'bootstrap-token-for-settings-tests'
const dataDir = mkdtempSync(join(tmpdir(), 'bastion-terminal-settings-'))

describe(`Settings → Terminal (${dbKind()})`, () => {
  const s = useTestServer({ bootstrapToken: BOOTSTRAP, dataDir })
  // An Elasticsearch stand-in is not needed: a real HTTP server answering its root as ES does (200 + JSON).
  let es: Server
  let esUrl = ''
  const hits: string[] = []
  beforeAll(async () => {
    es = createServer((req, res) => {
      hits.push(`${req.method} ${req.url}`)
      res.writeHead(req.url === '/' ? 200 : 404, { 'content-type': 'application/json' }).end('{"version":{"number":"7.17.0"}}')
    })
    await new Promise<void>((r) => es.listen(0, '127.0.0.1', r))
    esUrl = `http://127.0.0.1:${(es.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((r) => es.close(() => r())))

  it('lists the built-in default storages, tests the server kinds for real and refuses to delete them', async () => {
    const replay = (await s.admin.get('/api/v1/terminal/replay-storages/')).json()
    expect(replay).toEqual([expect.objectContaining({ name: 'default', type: { value: 'server', label: 'Server' }, is_default: true, meta: {} })])
    const test = await s.admin.get(`/api/v1/terminal/replay-storages/${replay[0].id}/test-connective/`)
    expect(test.json()).toEqual({ is_valid: true, msg: 'The replay directory is writable.' })
    expect(existsSync(join(dataDir, 'replays'))).toBe(true)
    const command = (await s.admin.get('/api/v1/terminal/command-storages/')).json()
    expect((await s.admin.get(`/api/v1/terminal/command-storages/${command[0].id}/test-connective/`)).json()).toMatchObject({ is_valid: true })
    const del = await s.admin.delete(`/api/v1/terminal/replay-storages/${replay[0].id}/`)
    expect(del.statusCode).toBe(400)
    expect(del.json()).toMatchObject({ code: 'storage_default' })
  })

  it('validates each kind, seals secrets and never answers them, keeps one default', async () => {
    const url = '/api/v1/terminal/replay-storages/'
    const bad = await s.admin.post(url, { name: 's3-a', type: 's3', meta: { BUCKET: '', ENDPOINT: 'http://s3.example.com/path', WHAT: 1 } })
    expect(bad.statusCode).toBe(400)
    expect(bad.json()).toEqual({ meta: { BUCKET: [expect.any(String)], ENDPOINT: ['Endpoint invalid: remove path `/path`'], WHAT: ['Unknown key for this type.'] } })
    const badType = await s.admin.post(url, { name: 'x', type: 'ftp' })
    expect(Object.keys(badType.json())).toEqual(['type'])
    expect((await s.admin.get(url)).json()).toHaveLength(1)

    const ok = await s.admin.post(url, { name: 's3-a', type: 's3', is_default: true,
      meta: { BUCKET: 'replays', ENDPOINT: 'http://127.0.0.1:9', ACCESS_KEY: 'AKIA1', SECRET_KEY: 'very-secret-key' } })
    expect(ok.statusCode, ok.body).toBe(201)
    const created = ok.json()
    expect(created.meta).toEqual({ BUCKET: 'replays', ENDPOINT: 'http://127.0.0.1:9', ACCESS_KEY: 'AKIA1', SECRET_KEY_SET: true })
    expect(JSON.stringify((await s.admin.get(url)).json())).not.toContain('very-secret-key')
    const stored = (await sql<{ meta: Record<string, string> }>`select meta from replay_storages where id = ${created.id}`.execute(s.t.database.db)).rows[0]!
    expect(stored.meta.SECRET_KEY).toMatch(/^v1:/)
    // The operate log shows no secret either.
    const logs = (await s.admin.get('/api/v1/audits/operate-logs/?resource_type=Replay storage')).body
    expect(logs).not.toContain('very-secret-key')
    // One default: the new one took it.
    const all = (await s.admin.get(url)).json() as Array<{ name: string; is_default: boolean }>
    expect(all.filter((x) => x.is_default).map((x) => x.name)).toEqual(['s3-a'])
    // An edit without the secret keeps it; a new bucket is kept.
    const edit = await s.admin.patch(`${url}${created.id}/`, { meta: { BUCKET: 'other', ENDPOINT: 'http://127.0.0.1:9' } })
    expect(edit.json().meta).toMatchObject({ BUCKET: 'other', SECRET_KEY_SET: true })
    // "Test" asks the endpoint for real: nothing listens on port 9.
    const test = (await s.admin.get(`${url}${created.id}/test-connective/`)).json()
    expect(test).toMatchObject({ is_valid: false, msg: expect.stringContaining('cannot be reached') })
  })

  it('tests an Elasticsearch command storage against a real HTTP server', async () => {
    const url = '/api/v1/terminal/command-storages/'
    expect((await s.admin.post(url, { name: 'es-bad', type: 'es', meta: { HOSTS: ['es.local'] } })).json()).toEqual({ meta: { HOSTS: ['The address format is incorrect'] } })
    // the kind's keys are engine fields: parsed by the engine's own rules and messages
    expect((await s.admin.post(url, { name: 'es-bad', type: 'es', meta: { HOSTS: [esUrl], INDEX_BY_DATE: 'sometimes', INDEX: 'x'.repeat(1025) } })).json())
      .toEqual({ meta: { INDEX_BY_DATE: ['Must be a valid boolean.'], INDEX: ['Ensure this field has no more than 1024 characters.'] } })
    const r = await s.admin.post(url, { name: 'es', type: 'es', meta: { HOSTS: esUrl, INDEX: ' jms ', IGNORE_VERIFY_CERTS: 'true' } })
    expect(r.statusCode, r.body).toBe(201)
    expect(r.json().meta).toEqual({ HOSTS: [esUrl], INDEX: 'jms', INDEX_BY_DATE: false, IGNORE_VERIFY_CERTS: true })
    const test = (await s.admin.get(`${url}${r.json().id}/test-connective/`)).json()
    expect(test).toEqual({ is_valid: true, msg: 'The storage endpoint answered 200.' })
    expect(hits).toContain('GET /')
    // A storage used by a terminal is not deleted.
    await sql`insert into terminals (id, name, command_storage) values (gen_random_uuid(), 'koko-x', 'es')`.execute(s.t.database.db)
    expect((await s.admin.delete(`${url}${r.json().id}/`)).json()).toMatchObject({ code: 'storage_in_use' })
  })

  it("answers lina's command storage tree: the database storage with its commands counted by the list's filters, others invalid", async () => {
    const db = s.t.database.db
    const now = Math.floor(Date.now() / 1000)
    for (const [user, ago] of [['tree-a', 60], ['tree-a', 120], ['tree-b', 180], ['tree-b', 10 * 86400]] as const) {
      await sql`insert into commands (id, "user", asset, input, session, timestamp, org_id)
        values (gen_random_uuid(), ${user}, 'web1', 'ls', 's', ${now - ago}, ${ORG_IDS.DEFAULT})`.execute(db)
    }
    const es = await s.admin.post('/api/v1/terminal/command-storages/', { name: 'es-tree', type: 'es', meta: { HOSTS: [esUrl], INDEX: 'jumpserver' } })
    expect(es.statusCode).toBe(201)
    const from = new Date((now - 7 * 86400) * 1000).toISOString()
    const to = new Date((now + 86400) * 1000).toISOString()
    const tree = await s.admin.get(`/api/v1/terminal/command-storages/tree/?real=1&date_from=${from}&date_to=${to}`)
    expect(tree.statusCode).toBe(200)
    const nodes = tree.json() as Array<{ id: string; name: string; pId: string; valid?: boolean }>
    expect(nodes.at(-1)).toMatchObject({ id: 'root', name: 'Command storages', pId: '', isParent: true })
    expect(nodes.find((n) => n.name.startsWith('default(server)'))).toMatchObject({ name: 'default(server) (3)', pId: 'root', valid: true })
    expect(nodes.find((n) => n.id === es.json().id)).toMatchObject({ name: 'es-tree(es) *Invalid', valid: false })
    const one = (await s.admin.get(`/api/v1/terminal/command-storages/tree/?date_from=${from}&date_to=${to}&user=tree-b`)).json() as typeof nodes
    expect(one.find((n) => n.valid)?.name).toBe('default(server) (1)')
    // the page lina then lists
    const listed = await s.admin.get(`/api/v1/terminal/commands/?command_storage_id=${nodes[0]!.id}&date_from=${from}&date_to=${to}&limit=15`)
    expect(listed.json().count).toBe(3)
    // an ordinary user reads neither storages nor commands
    await s.t.createUser({ username: 'tree-nobody' })
    const user = await s.t.as('tree-nobody')
    expect((await user.get('/api/v1/terminal/command-storages/tree/')).statusCode).toBe(403)
  })

  it('matches the endpoint of a connection by the target IP and protocol', async () => {
    const eps = '/api/v1/terminal/endpoints/'
    const def = (await s.admin.get(eps)).json()
    expect(def).toEqual([expect.objectContaining({ id: '00000000-0000-0000-0000-000000000001', name: 'Default', host: '', ssh_port: 2222, oracle_port_range: '30000-30030' })])
    expect((await s.admin.delete(`${eps}${def[0].id}/`)).statusCode).toBe(400)
    expect(Object.keys((await s.admin.post(eps, { name: 'e', ssh_port: 70000, host: 'bad host!' })).json()).sort()).toEqual(['host', 'ssh_port'])
    const dmz = (await s.admin.post(eps, { name: 'dmz', host: 'jump.dmz.example', ssh_port: 2223, rdp_port: 0 })).json()
    const rules = '/api/v1/terminal/endpoint-rules/'
    const badRule = await s.admin.post(rules, { name: 'r', ip_group: ['10.0.0.300'], priority: 101, endpoint: dmz.id })
    expect(Object.keys(badRule.json()).sort()).toEqual(['ip_group', 'priority'])
    const rule = await s.admin.post(rules, { name: 'dmz-net', ip_group: ['10.1.0.0/16'], priority: 10, endpoint: dmz.id })
    expect(rule.statusCode, rule.body).toBe(201)
    expect(rule.json()).toMatchObject({ endpoint: { id: dmz.id, name: 'dmz' }, ip_group: ['10.1.0.0/16'] })
    expect((await s.admin.post(rules, { name: 'dup', ip_group: ['*'], priority: 10 })).json()).toHaveProperty('priority')

    const user = await s.t.createUser({ username: 'conn-user', systemRoles: [ROLE_IDS.User], orgRoles: [] })
    expect(user).toBeTruthy()
    const u = await s.t.as('conn-user')
    const smart = (q: string) => u.get(`/api/v1/terminal/endpoints/smart/?${q}`).then((r) => r.json())
    expect(await smart('target_ip=10.1.2.3&protocol=ssh')).toMatchObject({ name: 'dmz', host: 'jump.dmz.example', ssh_port: 2223 })
    // RDP is not offered through that endpoint (port 0): the default one, with the request's host.
    expect(await smart('target_ip=10.1.2.3&protocol=rdp')).toMatchObject({ name: 'Default', host: 'localhost' })
    expect(await smart('target_ip=192.168.1.1&protocol=ssh')).toMatchObject({ name: 'Default' })
    // Deleting the endpoint leaves the rule without one (JumpServer's SET_NULL): it no longer matches.
    expect((await s.admin.delete(`${eps}${dmz.id}/`)).statusCode).toBe(204)
    expect(await smart('target_ip=10.1.2.3&protocol=ssh')).toMatchObject({ name: 'Default' })
    // Ordinary users may read the match, never the lists.
    expect((await u.get(eps)).statusCode).toBe(403)
    expect((await u.post(rules, { name: 'x', priority: 5 })).statusCode).toBe(403)
    expect((await s.t.client().get('/api/v1/terminal/endpoints/smart/?target_ip=1.1.1.1')).statusCode).toBe(401)
  })

  it('lets an auditor read storages but change nothing here', async () => {
    await s.t.createUser({ username: 'auditor2', systemRoles: [ROLE_IDS.SystemAuditor], orgRoles: [] })
    const a = await s.t.as('auditor2')
    expect((await a.get('/api/v1/terminal/replay-storages/')).statusCode).toBe(200)
    expect((await a.get('/api/v1/terminal/command-storages/')).statusCode).toBe(200)
    expect((await a.post('/api/v1/terminal/replay-storages/', { name: 'z', type: 'null' })).statusCode).toBe(403)
    expect((await a.get('/api/v1/terminal/endpoints/')).statusCode).toBe(403)
  })

  it('removes replay files with the sessions the clean-up deletes, and counts job logs on the dashboard', async () => {
    const reg = await s.t.app.inject({ method: 'POST', url: '/api/v1/terminal/terminal-registrations/', headers: { authorization: `BootstrapToken ${BOOTSTRAP}`, 'content-type': 'application/json' }, payload: '{"name":"koko-c"}' })
    const key = reg.json().service_account.access_key
    const ids = ['6c1b5e0a-1f0e-4a57-9d44-0d2f2d2a0d01', '6c1b5e0a-1f0e-4a57-9d44-0d2f2d2a0d02']
    for (const id of ids) {
      await signed(s.t, key, 'POST', '/api/v1/terminal/sessions/', { id, user: 'A(a)', asset: 'h', org_id: ORG_IDS.DEFAULT })
      const m = multipart('file', `${id}.cast.gz`, castOf(['[0.1, "o", "hi"]']))
      expect((await signed(s.t, key, 'POST', `/api/v1/terminal/sessions/${id}/replay/`, m.payload, { 'content-type': m.contentType })).statusCode).toBe(201)
      await signed(s.t, key, 'PATCH', `/api/v1/terminal/sessions/${id}/`, { is_finished: true })
    }
    const db = s.t.database.db
    const paths = (await sql<{ replay_path: string }>`select replay_path from terminal_sessions where id = any(${ids}::uuid[]) order by id`.execute(db)).rows.map((r) => join(dataDir, 'replays', r.replay_path))
    expect(paths.every((p) => existsSync(p))).toBe(true)
    // The first session is past TERMINAL_SESSION_KEEP_DURATION; the second is recent.
    await sql`update terminal_sessions set date_start = now() - interval '400 days' where id = ${ids[0]}`.execute(db)
    const logs: string[] = []
    const result = await runCleanup({ db, now: () => new Date(), log: async (l: string) => { logs.push(l) }, signal: new AbortController().signal } as never)
    expect(result.terminal_sessions).toBe(1)
    expect(existsSync(paths[0]!)).toBe(false)
    expect(existsSync(paths[1]!)).toBe(true)
    expect(logs).toContain('  removed 1 replay files')

    await sql`insert into task_executions (id, task_name, state) values (gen_random_uuid(), 'a', 'SUCCESS'), (gen_random_uuid(), 'b', 'FAILURE'), (gen_random_uuid(), 'c', 'RUNNING')`.execute(db)
    const before = (await sql<{ n: number }>`select count(*)::int n from task_executions where date_published >= now() - interval '7 days'`.execute(db)).rows[0]!.n
    const r = (await s.admin.get('/api/v1/index/?days=7&total_count_job_logs=1&total_count_job_logs_running=1&total_count_job_logs_failed=1')).json()
    expect(r.total_count_job_logs).toBe(before)
    expect(r.total_count_job_logs_running).toBeGreaterThanOrEqual(1)
    expect(r.total_count_job_logs_failed).toBeGreaterThanOrEqual(1)
  })
})
