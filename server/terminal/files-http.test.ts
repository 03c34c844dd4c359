import { randomBytes } from 'node:crypto'
import { chownSync, existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { multipart } from '../resources/terminal/test-support.ts'
import { setSettings } from '../settings/store.ts'
import { FILE_MANAGER_URL } from './files-http.ts'
import { useTerminalFixture, type Granted } from './test-support.ts'

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
})
