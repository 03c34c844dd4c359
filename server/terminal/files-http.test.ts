import { randomBytes } from 'node:crypto'
import { chownSync, existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { multipart } from '../resources/terminal/test-support.ts'
import { setSettings } from '../settings/store.ts'
import { FILE_MANAGER_URL } from './files-http.ts'
import { terminalManager, useTerminalFixture, type Granted } from './test-support.ts'

describe('the web file manager\'s API (real sshd)', () => {
  const f = useTerminalFixture()

  function hostDir(): string {
    const dir = mkdtempSync(join(tmpdir(), 'fm-host-'))
    const uid = Number(readFileSync('/etc/passwd', 'utf8').split('\n').find((l) => l.startsWith(`${f.host.username}:`))!.split(':')[2])
    chownSync(dir, uid, uid)
    return dir
  }
  const logs = async (g: Granted) => (await sql<{ operate: string; filename: string; is_success: boolean }>`select operate, filename, is_success from ftp_logs
    where "user" like ${`%(${g.username})`} order by date_start, id`.execute(f.t.database.db)).rows.map((r) => [r.operate, r.filename, r.is_success])
  const q = (path: string) => `?path=${encodeURIComponent(path)}`
  const upload = (g: Granted, folder: string, name: string, data: Buffer) => {
    const m = multipart('file', name, data)
    return g.c.request({ method: 'POST', url: `${FILE_MANAGER_URL}upload/${q(folder)}`, payload: m.payload, headers: { 'content-type': m.contentType } })
  }

  it('browses the tree, uploads, downloads (same bytes), renames, makes and deletes folders and files; each logged once; no secret in any answer', async () => {
    const g = await f.grantedUser('fmall', { actions: ['all'] })
    const host = hostDir()
    const root = (await g.c.get(FILE_MANAGER_URL)).json()
    expect(root).toMatchObject({ path: '/', level: 'root', entries: [{ name: 'DEFAULT', type: 'dir' }], actions: null, upload_max: 100 * 1024 * 1024 })
    const org = (await g.c.get(`${FILE_MANAGER_URL}${q('/DEFAULT')}`)).json()
    expect(org.entries.map((e: { name: string }) => e.name)).toEqual([g.assetName])
    const asset = (await g.c.get(`${FILE_MANAGER_URL}${q(`/DEFAULT/${g.assetName}`)}`)).json()
    expect(asset.entries.map((e: { name: string }) => e.name)).toEqual([`${g.username}-acc`])
    const folder = `/DEFAULT/${g.assetName}/${g.username}-acc${host}`
    const data = randomBytes(700_000)
    const up = await upload(g, folder, 'data.bin', data)
    expect(up.statusCode, up.body).toBe(201)
    expect(up.json()).toEqual({ path: `${folder}/data.bin`, size: data.length })
    expect(readFileSync(join(host, 'data.bin')).equals(data)).toBe(true)
    const list = await g.c.get(`${FILE_MANAGER_URL}${q(folder)}`)
    expect(list.json()).toMatchObject({ level: 'remote', actions: { upload: true, download: true, delete: true }, entries: [{ name: 'data.bin', type: 'file', size: data.length }] })
    const down = await g.c.get(`${FILE_MANAGER_URL}download/${q(`${folder}/data.bin`)}`)
    expect(down.statusCode).toBe(200)
    expect(down.headers['content-disposition']).toContain('data.bin')
    expect(down.rawPayload.equals(data)).toBe(true)
    expect((await g.c.post(`${FILE_MANAGER_URL}rename/`, { path: `${folder}/data.bin`, to: `${folder}/renamed.bin` })).statusCode).toBe(200)
    expect(existsSync(join(host, 'renamed.bin'))).toBe(true)
    expect((await g.c.post(`${FILE_MANAGER_URL}mkdir/`, { path: `${folder}/dir` })).statusCode).toBe(200)
    expect(statSync(join(host, 'dir')).isDirectory()).toBe(true)
    expect((await g.c.post(`${FILE_MANAGER_URL}delete/`, { path: `${folder}/dir` })).statusCode).toBe(200)
    expect((await g.c.post(`${FILE_MANAGER_URL}delete/`, { path: `${folder}/renamed.bin` })).statusCode).toBe(200)
    expect(existsSync(join(host, 'dir')) || existsSync(join(host, 'renamed.bin'))).toBe(false)
    expect(await logs(g)).toEqual([
      ['upload', `${host}/data.bin`, true], ['download', `${host}/data.bin`, true], ['rename', `${host}/data.bin => ${host}/renamed.bin`, true],
      ['mkdir', `${host}/dir`, true], ['rmdir', `${host}/dir`, true], ['delete', `${host}/renamed.bin`, true],
    ])
    for (const body of [root, org, asset, list.json()]) expect(JSON.stringify(body)).not.toContain(f.host.password)
  })

  it('its host connection is a session of the audit (sftp, from the web) with its FTP logs; a file of several MB moves whole (read-ahead, write-behind); terminate closes it', async () => {
    const g = await f.grantedUser('fmsess', { actions: ['all'] })
    const host = hostDir()
    const folder = `/DEFAULT/${g.assetName}/${g.username}-acc${host}`
    // not a multiple of any chunk size, larger than the read-ahead window
    const data = randomBytes(6 * 1024 * 1024 + 12345)
    const up = await upload(g, folder, 'big.bin', data)
    expect(up.statusCode, up.body).toBe(201)
    expect(readFileSync(join(host, 'big.bin')).equals(data)).toBe(true)
    const down = await g.c.get(`${FILE_MANAGER_URL}download/${q(`${folder}/big.bin`)}`)
    expect(down.statusCode).toBe(200)
    expect(down.rawPayload.equals(data)).toBe(true)
    const rows = (await f.admin.get(`/api/v1/terminal/sessions/?user_id=${g.userId}`)).json() as Array<Record<string, unknown>>
    expect(rows).toHaveLength(1)
    const row = rows[0]!
    expect(row).toMatchObject({ protocol: 'sftp', is_finished: false, asset: `${g.assetName}(${f.sshd.host})`, account: `${g.username}-acc(${f.host.username})`, user_id: g.userId })
    expect(row.login_from).toMatchObject({ value: 'WT' })
    const ftpRows = async () => (await sql<{ operate: string; session: string }>`select operate, session from ftp_logs where "user" like ${`%(${g.username})`} order by date_start, id`.execute(f.t.database.db)).rows
    // the download is logged when its stream is closed, just after the answer ends
    let ftp = await ftpRows()
    for (let i = 0; ftp.length < 2 && i < 200; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25))
      ftp = await ftpRows()
    }
    expect(ftp).toEqual([{ operate: 'upload', session: row.id }, { operate: 'download', session: row.id }])
    const held = terminalManager(f.t.app).fileSessions.get(String(row.id))!
    const closed = new Promise((resolve) => held.once('close', resolve))
    expect((await f.admin.post('/api/v1/terminal/tasks/kill-session/', [row.id])).statusCode).toBe(200)
    await closed
    expect((await f.admin.get(`/api/v1/terminal/sessions/${String(row.id)}/`)).json()).toMatchObject({ is_finished: true })
    // the next request is a new connection, and a new session
    expect((await g.c.get(`${FILE_MANAGER_URL}${q(folder)}`)).statusCode).toBe(200)
    const again = (await f.admin.get(`/api/v1/terminal/sessions/?user_id=${g.userId}&is_finished=0`)).json() as Array<{ id: string }>
    expect(again).toHaveLength(1)
    expect(again[0]!.id).not.toBe(row.id)
  })

  it('an upload the host refuses midway (/dev/full: no space) is never answered as a success, whatever was written behind; it is logged failed', async () => {
    const g = await f.grantedUser('fmfull', { actions: ['all'] })
    const r = await upload(g, `/DEFAULT/${g.assetName}/${g.username}-acc/dev`, 'full', randomBytes(3 * 1024 * 1024 + 7))
    expect(r.statusCode, r.body).toBe(400)
    expect(r.json()).toMatchObject({ code: 'host_error' })
    expect(await logs(g)).toEqual([['upload', '/dev/full', false]])
  })

  it('without download the file is refused (403) and the refusal logged; without upload nothing is written; bad input is a 400 with the field', async () => {
    const g = await f.grantedUser('fmnodl', { actions: ['connect', 'upload'] })
    const host = hostDir()
    writeFileSync(join(host, 'keep.txt'), 'private bytes')
    const folder = `/DEFAULT/${g.assetName}/${g.username}-acc${host}`
    const r = await g.c.get(`${FILE_MANAGER_URL}download/${q(`${folder}/keep.txt`)}`)
    expect(r.statusCode).toBe(403)
    expect(r.body).not.toContain('private bytes')
    expect(r.json().detail).toBe('You are not allowed to download files from this asset.')
    const del = await g.c.post(`${FILE_MANAGER_URL}delete/`, { path: `${folder}/keep.txt` })
    expect(del.statusCode).toBe(403)
    expect(existsSync(join(host, 'keep.txt'))).toBe(true)
    expect(await logs(g)).toEqual([['download', `${host}/keep.txt`, false], ['delete', `${host}/keep.txt`, false]])
    const ro = await f.grantedUser('fmnoup', { actions: ['connect', 'download'] })
    const roFolder = `/DEFAULT/${ro.assetName}/${ro.username}-acc${host}`
    const up = await upload(ro, roFolder, 'new.txt', Buffer.from('x'))
    expect(up.statusCode).toBe(403)
    expect(existsSync(join(host, 'new.txt'))).toBe(false)
    expect((await ro.c.post(`${FILE_MANAGER_URL}mkdir/`, { path: `${roFolder}/d` })).statusCode).toBe(403)
    expect(await logs(ro)).toEqual([['upload', host, false], ['mkdir', `${host}/d`, false]])
    const bad = await ro.c.post(`${FILE_MANAGER_URL}mkdir/`, { path: 42 })
    expect(bad.statusCode).toBe(400)
    expect(bad.json()).toHaveProperty('path')
    expect((await ro.c.post(`${FILE_MANAGER_URL}rename/`, { path: `${roFolder}/a` })).json()).toHaveProperty('to')
  })

  it('paths outside the user\'s tree are not found: ../, another user\'s asset, the tree\'s own folders are read-only', async () => {
    const g = await f.grantedUser('fmtrav', { actions: ['all'] })
    const other = await f.grantedUser('fmother', { actions: ['all'] })
    for (const p of ['/etc/passwd', `/DEFAULT/${g.assetName}/../../../etc/passwd`, `/DEFAULT/${other.assetName}/${other.username}-acc/etc/passwd`, `/DEFAULT/${g.assetName}/etc/passwd`]) {
      const r = await g.c.get(`${FILE_MANAGER_URL}download/${q(p)}`)
      expect(r.statusCode, p).toBe(404)
    }
    expect((await g.c.get(`${FILE_MANAGER_URL}${q(`/DEFAULT/${other.assetName}`)}`)).statusCode).toBe(404)
    expect((await g.c.post(`${FILE_MANAGER_URL}mkdir/`, { path: '/DEFAULT/new' })).statusCode).toBe(404)
    expect((await g.c.post(`${FILE_MANAGER_URL}delete/`, { path: `/DEFAULT/${g.assetName}` })).statusCode).toBe(403)
    expect((await g.c.get(`${FILE_MANAGER_URL}${q('/a\0b')}`)).statusCode).toBe(400)
    // the other user's asset does not appear in the organization folder
    expect(JSON.stringify((await g.c.get(`${FILE_MANAGER_URL}${q('/DEFAULT')}`)).json())).not.toContain(other.assetName)
    // a rename to another account folder is refused and logged
    const host = hostDir()
    writeFileSync(join(host, 'a.txt'), 'a')
    const r = await g.c.post(`${FILE_MANAGER_URL}rename/`, { path: `/DEFAULT/${g.assetName}/${g.username}-acc${host}/a.txt`, to: `/DEFAULT/${other.assetName}/${other.username}-acc${host}/b.txt` })
    expect(r.statusCode).toBe(400)
    expect(existsSync(join(host, 'a.txt'))).toBe(true)
  })

  it('an upload larger than FTP_FILE_MAX_STORE is refused with 413 and leaves nothing on the host; anonymous callers get 401', async () => {
    const g = await f.grantedUser('fmbig', { actions: ['all'] })
    const host = hostDir()
    await setSettings(f.t.database.db, { FTP_FILE_MAX_STORE: 1 })
    try {
      const r = await upload(g, `/DEFAULT/${g.assetName}/${g.username}-acc${host}`, 'big.bin', randomBytes(1024 * 1024 + 10))
      expect(r.statusCode, r.body).toBe(413)
      expect(r.json().detail).toBe('The file is larger than the upload limit of 1 MB.')
      expect(existsSync(join(host, 'big.bin'))).toBe(false)
    } finally {
      await setSettings(f.t.database.db, { FTP_FILE_MAX_STORE: 100 })
    }
    expect((await f.t.client().get(FILE_MANAGER_URL)).statusCode).toBe(401)
  })

  it('the grant is read on every call: download taken from the permission refuses the next download; a disabled permission empties the tree', async () => {
    const g = await f.grantedUser('fmlive', { actions: ['all'] })
    const host = hostDir()
    writeFileSync(join(host, 'f.txt'), 'live')
    const file = `/DEFAULT/${g.assetName}/${g.username}-acc${host}/f.txt`
    expect((await g.c.get(`${FILE_MANAGER_URL}download/${q(file)}`)).body).toBe('live')
    const p = await f.admin.patch(`/api/v1/perms/asset-permissions/${g.permId}/`, { actions: ['connect', 'upload'] })
    expect(p.statusCode, p.body).toBe(200)
    expect((await g.c.get(`${FILE_MANAGER_URL}download/${q(file)}`)).statusCode).toBe(403)
    expect((await f.admin.patch(`/api/v1/perms/asset-permissions/${g.permId}/`, { is_active: false })).statusCode).toBe(200)
    expect((await g.c.get(FILE_MANAGER_URL)).json().entries).toEqual([])
    expect((await g.c.get(`${FILE_MANAGER_URL}download/${q(file)}`)).statusCode).toBe(404)
  })

  it('a user without the file manager (no organization role) is refused every call, granted assets or not', async () => {
    const g = await f.grantedUser('fmnorole', { actions: ['all'] })
    await sql`delete from role_bindings where user_id = ${g.userId} and scope = 'org'`.execute(f.t.database.db)
    const folder = `/DEFAULT/${g.assetName}/${g.username}-acc/tmp`
    expect((await g.c.get(FILE_MANAGER_URL)).statusCode).toBe(403)
    expect((await g.c.get(`${FILE_MANAGER_URL}download/${q('/DEFAULT/x/y/etc/hostname')}`)).statusCode).toBe(403)
    expect((await g.c.post(`${FILE_MANAGER_URL}mkdir/`, { path: `${folder}/fmnorole` })).statusCode).toBe(403)
    expect((await upload(g, folder, 'x.txt', Buffer.from('x'))).statusCode).toBe(403)
    expect(existsSync('/tmp/fmnorole') || existsSync('/tmp/x.txt')).toBe(false)
  })
})

describe('the file tree across organizations', () => {
  const f = useTerminalFixture()

  it('an asset of another organization is under that organization\'s folder; its FTP log is that organization\'s, which the other organization does not list', async () => {
    const g = await f.grantedUser('fmorg', { actions: ['all'] })
    const org = await f.admin.post('/api/v1/orgs/orgs/', { name: 'FilesOrgB' })
    expect(org.statusCode, org.body).toBe(201)
    const orgB = org.json().id as string
    const h = { 'x-jms-org': orgB }
    // the user is a member (OrgUser) of org B
    await sql`insert into role_bindings (id, user_id, role_id, scope, org_id) values (gen_random_uuid(), ${g.userId}, '00000000-0000-0000-0000-000000000007', 'org', ${orgB})`.execute(f.t.database.db)
    const asset = await f.admin.request({ method: 'POST', url: '/api/v1/assets/hosts/', json: { name: 'fmorg-b-host', address: f.sshd.host, platform: 1, protocols: [{ name: 'ssh', port: f.sshd.port }] }, headers: h })
    expect(asset.statusCode, asset.body).toBe(201)
    const acc = await f.admin.request({ method: 'POST', url: '/api/v1/accounts/accounts/', json: { asset: asset.json().id, name: 'fmorg-b-acc', username: f.host.username, secret_type: 'password', secret: f.host.password }, headers: h })
    expect(acc.statusCode, acc.body).toBe(201)
    const perm = await f.admin.request({ method: 'POST', url: '/api/v1/perms/asset-permissions/', json: { name: 'fmorg-b', users: [g.userId], assets: [asset.json().id], accounts: ['@ALL'], actions: ['connect', 'upload'] }, headers: h })
    expect(perm.statusCode, perm.body).toBe(201)
    const root = (await g.c.get(FILE_MANAGER_URL)).json() as { entries: Array<{ name: string }> }
    expect(root.entries.map((e) => e.name).sort()).toEqual(['DEFAULT', 'FilesOrgB'])
    expect((await g.c.get(`${FILE_MANAGER_URL}?path=/FilesOrgB`)).json().entries.map((e: { name: string }) => e.name)).toEqual(['fmorg-b-host'])
    // the asset of org B is not under DEFAULT, and org B's actions (no download) hold there
    expect((await g.c.get(`${FILE_MANAGER_URL}?path=/DEFAULT/fmorg-b-host`)).statusCode).toBe(404)
    const refused = await g.c.get(`${FILE_MANAGER_URL}download/?path=${encodeURIComponent('/FilesOrgB/fmorg-b-host/fmorg-b-acc/etc/hostname')}`)
    expect(refused.statusCode).toBe(403)
    const rows = (await sql<{ org_id: string; operate: string; is_success: boolean }>`select org_id, operate, is_success from ftp_logs where "user" like '%(fmorg)'`.execute(f.t.database.db)).rows
    expect(rows).toEqual([{ org_id: orgB, operate: 'download', is_success: false }])
    // the FTP logs list is organization-scoped: DEFAULT does not show it, org B does
    const inDefault = (await f.admin.get('/api/v1/audits/ftp-logs/?user=fmorg(fmorg)')).json() as unknown[]
    const inB = (await f.admin.request({ method: 'GET', url: '/api/v1/audits/ftp-logs/?user=fmorg(fmorg)', headers: h })).json() as unknown[]
    expect([inDefault.length, inB.length]).toEqual([0, 1])
  })
})
