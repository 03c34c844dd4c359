/**
 * The reference console's calls (lina 3.2.2, `git show v3.2.2:src/...` of jumpserver/lina) sent to our server, each
 * checked for its status and the shape lina reads — the workbench (My assets, the home page), Settings → Interface,
 * the cloud pages (issue 37) and the ticket pages (issue 32). Each call below names the lina file that makes it and
 * the keys that file reads. How lina's generic components call:
 * - a table (`components/AutoDataTable`, `AutoDataSearch`) asks `OPTIONS <url>?draw=1&display=1` and reads
 *   `actions.GET` (AutoDataSearch reads `data.actions['GET']` unguarded: no `actions` throws), then `GET <url>` with
 *   `limit`/`offset` and reads `{count, results}`;
 * - a form (`components/AutoDataForm`) asks `OPTIONS <url>` (create) or `OPTIONS <url><id>/` (update) and reads
 *   `actions.POST` / `actions.PUT`;
 * - a detail page `GET <url><id>/`.
 * The OPTIONS of every parameterless list is proved in general by options.test.ts; here are the calls lina makes
 * with their query strings and on detail sub-resources, which that suite does not reach.
 */
import { createServer, type Server } from 'node:net'
import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ORG_IDS, ROLE_IDS } from '../rbac/catalog.ts'
import { dbKind, type TestClient } from '../testing.ts'
import { freePort } from '../testing/sshd.ts'
import { openSystemTicket } from '../tickets/gate.ts'
import { useTestServer } from '../use-test-server.ts'

type Json = any

/** Every dotted key path of `paths` exists in `obj` (null allowed: lina formats a missing value, not a missing key). */
function missing(obj: Json, paths: readonly string[]): string[] {
  return paths.filter((p) => {
    let cur = obj
    for (const part of p.split('.')) {
      if (cur === null || typeof cur !== 'object' || !(part in cur)) return true
      cur = cur[part]
    }
    return false
  })
}

/** lina's table: OPTIONS with `draw=1&display=1` answering `actions.GET` with the columns, then a `{count, results}` page. */
async function table(c: TestClient, url: string, columns: readonly string[], rowKeys: readonly string[] = columns): Promise<Json[]> {
  const sep = url.includes('?') ? '&' : '?'
  const o = await c.options(`${url}${sep}draw=1&display=1`)
  expect(o.statusCode, `OPTIONS ${url}: ${o.body.slice(0, 200)}`).toBe(200)
  const get = o.json().actions?.GET
  expect(get && typeof get === 'object', `OPTIONS ${url} has actions.GET`).toBe(true)
  expect(missing(get, columns), `OPTIONS ${url} describes lina's columns`).toEqual([])
  const g = await c.get(`${url}${sep}limit=15&offset=0`)
  expect(g.statusCode, `GET ${url}: ${g.body.slice(0, 200)}`).toBe(200)
  const page = g.json()
  expect(typeof page.count, `GET ${url} is a {count, results} page`).toBe('number')
  expect(Array.isArray(page.results), `GET ${url} results`).toBe(true)
  for (const row of page.results) expect(missing(row, rowKeys), `GET ${url} row`).toEqual([])
  return page.results
}

/** lina's form: OPTIONS answering `actions.<method>` with the fields it shows. */
async function form(c: TestClient, url: string, method: 'POST' | 'PUT', fields: readonly string[]): Promise<void> {
  const o = await c.options(url)
  expect(o.statusCode, `OPTIONS ${url}: ${o.body.slice(0, 200)}`).toBe(200)
  const meta = o.json().actions?.[method]
  expect(meta && typeof meta === 'object', `OPTIONS ${url} has actions.${method}`).toBe(true)
  expect(missing(meta, fields), `OPTIONS ${url} actions.${method}`).toEqual([])
}

async function ok(r: { statusCode: number; body: string; json(): Json }, status = 200, what = ''): Promise<Json> {
  expect(r.statusCode, `${what} ${r.body.slice(0, 300)}`).toBe(status)
  return r.body ? r.json() : undefined
}

describe(`lina 3.2.2's calls against our server (${dbKind()})`, () => {
  const s = useTestServer()
  let user: TestClient
  let userId = ''
  let host = ''
  let node = ''

  beforeAll(async () => {
    userId = await s.t.createUser({ username: 'lina_user' })
    await sql`update users set email = 'lina_user@example.org' where id = ${userId}`.execute(s.t.database.db)
    user = await s.t.as('lina_user')
    user.headers['accept-language'] = 'en'
    const root = (await s.admin.get('/api/v1/assets/nodes/?limit=1&order=key')).json().results[0].id as string
    node = (await ok(await s.admin.post(`/api/v1/assets/nodes/${root}/children/`, { value: 'lina-node' }), 201)).id
    host = (await ok(await s.admin.post('/api/v1/assets/hosts/', { name: 'lina-host', address: '10.9.0.1', platform: 1, nodes: [node], protocols: [{ name: 'ssh', port: 22 }] }), 201)).id
    await ok(await s.admin.post('/api/v1/accounts/accounts/', { asset: host, username: 'root', secret_type: 'password', secret: 'pw' }), 201)
    await ok(await s.admin.post('/api/v1/perms/asset-permissions/', { name: 'lina-grant', users: [userId], assets: [host], accounts: ['@ALL'], actions: ['all'] }), 201)
  })

  describe('workbench (views/myassets, views/myhome) and Settings → Interface (views/settings/Interface.vue)', () => {
    it('My assets: the node tree, the asset table, a node\'s assets, an asset\'s accounts, favorites', async () => {
      // treeUrl: an array of zTree nodes; a node's `meta.data.id` opens its assets
      const tree = await ok(await user.get('/api/v1/perms/users/self/nodes/children/tree/'), 200, 'tree')
      expect(Array.isArray(tree)).toBe(true)
      const nodeItem = tree.find((n: Json) => n.meta?.type === 'node' && n.meta.data.id !== 'favorite' && n.meta.data.assets_amount > 0)
      expect(nodeItem, JSON.stringify(tree).slice(0, 300)).toBeDefined()
      expect(missing(nodeItem, ['id', 'name', 'pId', 'meta.type', 'meta.data.id'])).toEqual([])
      await ok(await user.get('/api/v1/perms/users/self/nodes/'), 200, 'nodeUrl')
      // tableConfig: columns name, address, platform, accounts, comment, actions (actions is lina's own)
      const rows = await table(user, '/api/v1/perms/users/self/assets/', ['name', 'address', 'platform', 'comment'], ['id', 'name', 'address', 'platform', 'comment'])
      expect(rows.map((r) => r.id)).toContain(host)
      const inNode = await table(user, `/api/v1/perms/users/self/nodes/${nodeItem.meta.data.id}/assets/?cache_policy=1`, ['name', 'address'])
      expect(inNode.length).toBeGreaterThan(0)
      // the accounts column's dialog
      const accounts = await ok(await user.get(`/api/v1/perms/users/self/assets/${host}/accounts/?cache_policy=1`), 200, 'accounts')
      expect(Array.isArray(accounts)).toBe(true)
      expect(accounts.map((a: Json) => a.username)).toContain('root')
      expect(missing(accounts[0], ['name', 'username', 'has_secret'])).toEqual([])
      // favorites: GET the list of {asset}, POST one, DELETE ?asset=
      await ok(await user.post('/api/v1/assets/favorite-assets/', { asset: host }), 201, 'favorite')
      const favs = await ok(await user.get('/api/v1/assets/favorite-assets/'), 200, 'favorites')
      expect((Array.isArray(favs) ? favs : favs.results).map((f: Json) => f.asset)).toContain(host)
      await ok(await user.delete(`/api/v1/assets/favorite-assets/?asset=${host}`), 204, 'unfavorite')
      expect(JSON.stringify((await user.get('/api/v1/assets/favorite-assets/')).json())).not.toContain(host)
    })

    it('the home page: my last logins, my sessions, the tickets waiting for me', async () => {
      await table(user, '/api/v1/audits/my-login-logs/?limit=5', ['ip', 'city', 'datetime', 'status'])
      await table(user, '/api/v1/terminal/my-sessions/?limit=5', ['asset', 'account', 'date_start', 'protocol'])
      await table(user, `/api/v1/tickets/tickets/?assignees__id=${userId}&state=pending`, ['title', 'type', 'state', 'date_created'])
    })

    it('Settings → Interface: the form\'s metadata (PUT), the values, the themes, restore', async () => {
      const fields = ['login_title', 'theme', 'favicon', 'login_image', 'logo_index', 'logo_logout']
      await form(s.admin, '/api/v1/xpack/interface/setting/', 'PUT', fields)
      const values = await ok(await s.admin.get('/api/v1/xpack/interface/setting/'), 200, 'interface')
      expect(missing(values, fields)).toEqual([])
      // previewThemes(): [{name, colors}], the page looks the selected theme's colors up by name
      const themes = await ok(await s.admin.get('/api/v1/xpack/interface/setting/themes/'), 200, 'themes')
      expect(Array.isArray(themes)).toBe(true)
      expect(themes.map((t: Json) => t.name)).toContain(values.theme)
      for (const t of themes) expect(typeof t.colors, t.name).toBe('object')
      expect((await ok(await s.admin.put('/api/v1/xpack/interface/setting/restore/'), 200, 'restore')).success).toEqual(expect.any(String))
    })
  })

  describe('cloud (views/assets/Cloud, xpack)', () => {
    const C = '/api/v1/xpack/cloud'
    let listener: Server
    let port = 0
    let account = ''
    let task = ''

    beforeAll(async () => {
      port = await freePort()
      listener = createServer((sock) => sock.on('error', () => undefined))
      await new Promise<void>((r) => listener.listen(port, '127.0.0.8', r))
    })
    afterAll(async () => { await new Promise((r) => listener?.close(r)) })

    it('accounts: list, create form, create, detail, test-connective, regions', async () => {
      await form(s.admin, `${C}/accounts/`, 'POST', ['name', 'provider', 'attrs', 'comment'])
      account = (await ok(await s.admin.post(`${C}/accounts/`, { name: 'lina-lan', provider: 'lan', attrs: { ip_group: ['127.0.0.8'], port: [port] } }), 201, 'account')).id
      // AccountList: the provider column, the row's id for test-connective
      const rows = await table(s.admin, `${C}/accounts/`, ['name', 'provider', 'validity', 'comment'], ['id', 'name', 'provider'])
      expect(rows.map((r) => r.id)).toContain(account)
      await form(s.admin, `${C}/accounts/${account}/`, 'PUT', ['name', 'attrs'])
      expect(missing(await ok(await s.admin.get(`${C}/accounts/${account}/`)), ['id', 'name', 'provider', 'attrs', 'comment'])).toEqual([])
      const tested = await ok(await s.admin.get(`${C}/accounts/${account}/test-connective/`), 200, 'test-connective')
      expect(missing(tested, ['msg'])).toEqual([])
      // SyncInstanceTaskCreateUpdate: `data.regions.map`
      const regions = await ok(await s.admin.get(`${C}/regions/?account_id=${account}`), 200, 'regions')
      expect(regions.regions).toEqual([{ id: '127.0.0.8', name: '127.0.0.8' }])
      expect((await s.admin.get(`${C}/regions/`)).statusCode).toBeLessThan(500)
    })

    it('sync tasks: form, list, detail, run (GET → {task}), history, instances, released assets', async () => {
      await form(s.admin, `${C}/sync-instance-tasks/`, 'POST', ['name', 'account', 'regions', 'node', 'hostname_strategy', 'protocols', 'ip_network_segment_group', 'sync_ip_type', 'is_always_update', 'release_assets', 'is_periodic', 'crontab', 'interval', 'comment'])
      task = (await ok(await s.admin.post(`${C}/sync-instance-tasks/`, { name: 'lina-sync', account, regions: ['127.0.0.8'], node, hostname_strategy: 'ip', protocols: [{ name: 'ssh', port: 22 }] }), 201, 'task')).id
      // SyncInstanceTaskList: row.account, row.hostname_strategy.label
      const rows = await table(s.admin, `${C}/sync-instance-tasks/`, ['name', 'account', 'hostname_strategy'], ['id', 'account', 'hostname_strategy.label'])
      expect(rows.map((r) => r.id)).toContain(task)
      // detail.vue: the fields of its card
      const detail = await ok(await s.admin.get(`${C}/sync-instance-tasks/${task}/`))
      expect(missing(detail, ['name', 'account_display', 'node_display', 'protocols', 'ip_network_segment_group', 'is_always_update', 'is_periodic', 'periodic_display', 'date_last_sync', 'date_created', 'regions', 'comment'])).toEqual([])
      await form(s.admin, `${C}/sync-instance-tasks/${task}/`, 'PUT', ['name', 'account', 'regions', 'node'])
      // run: GET, `res['task']` opens the task log page
      const run = await ok(await s.admin.get(`${C}/sync-instance-tasks/${task}/run/`), 200, 'run')
      expect(typeof run.task).toBe('string')
      await expect.poll(async () => (await s.admin.get(`/api/v1/ops/celery/task/x/task-execution/${run.task}/result/`)).json().state, { timeout: 60_000 }).toBe('SUCCESS')
      // HistoryList: summary.{new,unsync,sync,released}, status (1 ok), date_sync
      const history = await table(s.admin, `${C}/sync-instance-tasks/${task}/history/`, ['status', 'date_sync'], ['id', 'summary.new', 'summary.unsync', 'summary.sync', 'summary.released', 'status', 'date_sync'])
      expect(history).toHaveLength(1)
      expect(history[0].status).toBe(1)
      expect(history[0].summary).toEqual({ new: 1, sync: 0, unsync: 0, released: 0 })
      // AssetList: instance_id, asset_ip, region, status (0–3), date_sync
      const instances = await table(s.admin, `${C}/sync-instance-tasks/${task}/instances/`, ['instance_id', 'asset_ip', 'region', 'status', 'date_sync'])
      expect(instances.map((i) => [i.instance_id, i.asset_ip, i.status])).toEqual([['127.0.0.8', '127.0.0.8', 0]])
      // "release assets": DELETE
      await ok(await s.admin.delete(`${C}/sync-instance-tasks/${task}/released-assets/`), 204, 'released-assets')
      // the rows' delete
      await ok(await s.admin.delete(`${C}/sync-instance-tasks/${task}/`), 204, 'delete task')
      await ok(await s.admin.delete(`${C}/accounts/${account}/`), 204, 'delete account')
    }, 120_000)
  })

  describe('tickets (views/tickets)', () => {
    const T = '/api/v1/tickets'
    const LIST_COLUMNS = ['title', 'serial_num', 'type', 'state', 'status', 'date_created', 'applicant']
    // BaseTicketList reads row.state.{label,value}, row.status.value, row.type.{label,value}
    const ROW_KEYS = ['id', 'title', 'serial_num', 'type.label', 'type.value', 'state.label', 'state.value', 'status.value', 'date_created']
    // GenericTicketDetail, Steps, Comments
    const DETAIL_KEYS = [...ROW_KEYS, 'comment', 'org_id', 'org_name', 'rel_snapshot.applicant', 'applicant', 'approval_step.value', 'process_map', 'date_updated']
    const STEP_KEYS = ['approval_level', 'state', 'assignees', 'assignees_display', 'processor_display', 'approval_date']

    it('the request form, open, the lists (header badge, home, mine, assigned), detail, comments, approve with edits', async () => {
      // RequestAssetPerm/CreateUpdate: the form's url and its pickers
      await form(user, `${T}/apply-asset-tickets/?state=pending`, 'POST', ['title', 'org_id', 'apply_nodes', 'apply_assets', 'apply_accounts', 'apply_actions', 'apply_date_start', 'apply_date_expired', 'comment'])
      await ok(await user.get(`/api/v1/assets/assets/suggestions/?oid=${ORG_IDS.DEFAULT}`), 200, 'asset suggestions')
      await ok(await user.get(`/api/v1/assets/nodes/suggestions/?oid=${ORG_IDS.DEFAULT}`), 200, 'node suggestions')
      const opened = await ok(await user.post(`${T}/apply-asset-tickets/open/`, {
        title: 'lina asks for a host', org_id: ORG_IDS.DEFAULT, apply_nodes: [], apply_assets: [host], apply_accounts: ['root'], apply_actions: ['connect'],
        apply_date_start: '2026-01-01T00:00:00Z', apply_date_expired: '2099-01-01T00:00:00Z', comment: 'please',
      }), 201, 'open')
      const id = opened.id as string
      // MyTicketList (?applicant=), AssignedTicketList (?assignees__id=), the badge (&status=open), home (&state=pending)
      const me = (await s.admin.get('/api/v1/users/profile/')).json().id as string
      expect((await table(user, `${T}/tickets/?applicant=${userId}`, LIST_COLUMNS, ROW_KEYS)).map((r) => r.id)).toContain(id)
      expect((await table(s.admin, `${T}/tickets/?assignees__id=${me}`, LIST_COLUMNS, ROW_KEYS)).map((r) => r.id)).toContain(id)
      expect((await table(s.admin, `${T}/tickets/?assignees__id=${me}&status=open`, LIST_COLUMNS, ROW_KEYS)).map((r) => r.id)).toContain(id)
      expect((await table(s.admin, `${T}/tickets/?assignees__id=${me}&state=pending`, LIST_COLUMNS, ROW_KEYS)).map((r) => r.id)).toContain(id)
      // TicketDetail/index.vue: GET tickets/<id>/ for its type, then the typed detail
      const generic = await ok(await s.admin.get(`${T}/tickets/${id}/`), 200, 'generic detail')
      expect(generic.type.value).toBe('apply_asset')
      const detail = await ok(await s.admin.get(`${T}/apply-asset-tickets/${id}/`), 200, 'detail')
      expect(missing(detail, [...DETAIL_KEYS, 'apply_nodes', 'apply_assets', 'apply_accounts', 'apply_actions', 'apply_date_start', 'apply_date_expired', 'apply_permission_name'])).toEqual([])
      expect(detail.process_map.length).toBeGreaterThan(0)
      for (const step of detail.process_map) expect(missing(step, STEP_KEYS)).toEqual([])
      // the asset pickers of the approver's edit: assets.map(item.id, item.name/address), nodes (item.full_value)
      expect(missing(detail.apply_assets[0], ['id', 'name', 'address'])).toEqual([])
      await ok(await s.admin.get(`/api/v1/assets/nodes/?oid=${ORG_IDS.DEFAULT}&protocol__in=rdp,vnc,ssh,telnet`), 200, 'approver node picker')
      await ok(await s.admin.get(`/api/v1/assets/assets/?oid=${ORG_IDS.DEFAULT}&protocol__in=rdp,vnc,ssh,telnet`), 200, 'approver asset picker')
      // Comments.vue: list, then POST {body, ticket}; items read id, user_display, body, date_created, approval_level
      await ok(await user.post(`${T}/comments/?ticket_id=${id}`, { body: 'still need it', ticket: id }), 201, 'comment')
      const comments = await ok(await s.admin.get(`${T}/comments/?ticket_id=${id}`), 200, 'comments')
      const list = Array.isArray(comments) ? comments : comments.results
      expect(list.map((c: Json) => c.body)).toContain('still need it')
      for (const c of list) expect(missing(c, ['id', 'user_display', 'body', 'date_created'])).toEqual([])
      // RequestAssetPerm/Detail: PATCH approve with the edited fields; its answer is not read beyond success
      await ok(await s.admin.patch(`${T}/apply-asset-tickets/${id}/approve/`, {
        apply_nodes: [], apply_assets: [host], apply_accounts: ['root'], apply_actions: ['connect', 'upload'],
        apply_date_start: '2026-01-01T00:00:00Z', apply_date_expired: '2099-01-01T00:00:00Z', apply_permission_name: 'lina-approved',
      }), 200, 'approve')
      const after = await ok(await s.admin.get(`${T}/apply-asset-tickets/${id}/`))
      expect([after.state.value, after.status.value]).toEqual(['approved', 'closed'])
      // the session tab: no linked session → 404, which lina shows as "no session"
      expect((await s.admin.get(`${T}/tickets/${id}/session/`)).statusCode).toBe(404)
    })

    it('reject and close by PUT with no body (Comments.vue, RequestAssetPerm/Detail)', async () => {
      const open = async () => (await ok(await user.post(`${T}/apply-asset-tickets/open/`, {
        title: `lina ${randomUUID().slice(0, 6)}`, org_id: ORG_IDS.DEFAULT, apply_assets: [host], apply_accounts: ['root'], apply_actions: ['connect'],
        apply_date_start: '2026-01-01T00:00:00Z', apply_date_expired: '2099-01-01T00:00:00Z',
      }), 201)).id as string
      const a = await open()
      await ok(await s.admin.request({ method: 'PUT', url: `${T}/apply-asset-tickets/${a}/reject/` }), 200, 'reject')
      expect((await s.admin.get(`${T}/tickets/${a}/`)).json().state.value).toBe('rejected')
      const b = await open()
      await ok(await user.request({ method: 'PUT', url: `${T}/apply-asset-tickets/${b}/close/` }), 200, 'close')
      expect((await s.admin.get(`${T}/tickets/${b}/`)).json().state.value).toBe('closed')
    })

    it('the system-opened types: login, login-asset and command confirm details, their session, approve/reject by PUT', async () => {
      const reviewer = await s.t.createUser({ username: 'lina_reviewer', orgRoles: [ROLE_IDS.OrgAdmin] })
      const rc = await s.t.as('lina_reviewer')
      const services = { database: s.t.database, config: s.t.config }
      const log = { warn: () => undefined }
      const sessionId = randomUUID()
      await sql`insert into terminal_sessions (id, "user", asset, account, user_id, asset_id, org_id, protocol) values (${sessionId}, 'lina_user', 'lina-host', 'root', ${userId}, ${host}, ${ORG_IDS.DEFAULT}, 'ssh')`.execute(s.t.database.db)
      const login = await openSystemTicket(services, { type: 'login_confirm', orgId: ORG_IDS.ROOT, userId, reviewerIds: [reviewer], columns: { apply_login_ip: '10.1.2.3', apply_login_city: 'LAN', apply_login_datetime: new Date() } }, log)
      const loginAsset = await openSystemTicket(services, { type: 'login_asset_confirm', orgId: ORG_IDS.DEFAULT, userId, reviewerIds: [reviewer], columns: { apply_login_user_id: userId, apply_login_asset_id: host, apply_login_account: 'root' } }, log)
      const command = await openSystemTicket(services, {
        type: 'command_confirm', orgId: ORG_IDS.DEFAULT, userId, reviewerIds: [reviewer], sessionId,
        columns: { apply_run_user_id: userId, apply_run_asset: 'lina-host(10.9.0.1)', apply_run_account: 'root', apply_run_command: 'reboot', apply_from_session_id: sessionId, apply_from_cmd_filter_acl_id: null },
      }, log)
      const cases: Array<[string, string, string[]]> = [
        ['apply-login-tickets', login, ['apply_login_ip', 'apply_login_city', 'apply_login_datetime']],
        // LoginAssetConfirm/Detail reads apply_login_user.name, apply_login_asset, apply_login_account
        ['apply-login-asset-tickets', loginAsset, ['apply_login_user.name', 'apply_login_asset', 'apply_login_account']],
        // CommandConfirm/Detail reads rel_snapshot.apply_run_user, apply_run_asset/account/command, apply_from_session,
        // apply_from_cmd_filter(_rule) (its links)
        ['apply-command-tickets', command, ['rel_snapshot.apply_run_user', 'apply_run_asset', 'apply_run_account', 'apply_run_command', 'apply_from_session', 'apply_from_cmd_filter_acl']],
      ]
      for (const [path, id, keys] of cases) {
        const d = await ok(await rc.get(`${T}/${path}/${id}/`), 200, path)
        expect(missing(d, [...DETAIL_KEYS, ...keys]), path).toEqual([])
        expect(d.state.value).toBe('pending')
      }
      // components/Session.vue: the command ticket's session (session.id, asset, account, protocol, is_finished, can_join…)
      const session = await ok(await rc.get(`${T}/tickets/${command}/session/`), 200, 'session')
      expect(session.id).toBe(sessionId)
      expect(missing(session, ['id', 'asset', 'account', 'protocol', 'remote_addr', 'is_finished', 'can_join', 'can_terminate'])).toEqual([])
      await ok(await rc.request({ method: 'PUT', url: `${T}/apply-login-tickets/${login}/approve/` }), 200, 'approve login')
      await ok(await rc.request({ method: 'PUT', url: `${T}/apply-login-asset-tickets/${loginAsset}/reject/` }), 200, 'reject login asset')
      await ok(await rc.request({ method: 'PUT', url: `${T}/apply-command-tickets/${command}/close/` }), 200, 'close command')
      expect((await rc.get(`${T}/tickets/${login}/`)).json().state.value).toBe('approved')
      expect((await rc.get(`${T}/tickets/${loginAsset}/`)).json().state.value).toBe('rejected')
      expect((await rc.get(`${T}/tickets/${command}/`)).json().state.value).toBe('closed')
    })

    it('flows: the list (row.org_name, row.type.label), the form, an edit; FlowRuleField\'s user picker', async () => {
      const rows = await table(s.admin, `${T}/flows/`, ['type', 'approval_level', 'org_name'], ['id', 'org_name', 'type.label', 'type.value', 'approval_level', 'rules'])
      expect(rows.length).toBeGreaterThan(0)
      const flow = rows[0]
      await form(s.admin, `${T}/flows/${flow.id}/`, 'PUT', ['type', 'approval_level', 'rules'])
      const detail = await ok(await s.admin.get(`${T}/flows/${flow.id}/`))
      expect(missing(detail, ['id', 'type', 'approval_level', 'rules', 'org_id', 'org_name'])).toEqual([])
      await ok(await s.admin.put(`${T}/flows/${flow.id}/`, { type: flow.type.value, approval_level: 1, rules: [{ strategy: 'super_admin' }] }), 200, 'edit flow')
      const users = await ok(await s.admin.get('/api/v1/users/users/?oid=root'), 200, 'users picker')
      expect((Array.isArray(users) ? users : users.results).length).toBeGreaterThan(0)
    })
  })
})
