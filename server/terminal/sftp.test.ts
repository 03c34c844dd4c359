import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { chownSync, existsSync, mkdtempSync, readFileSync, writeFileSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { beforeAll, describe, expect, it } from 'vitest'
import { tr } from '../i18n.ts'
import { FILE_MESSAGES } from './files-messages.ts'
import { startGateway } from './index.ts'
import { useTerminalFixture, type Granted } from './test-support.ts'

/** Runs Debian's OpenSSH `sftp` in batch mode (password through sshpass); its exit code and output. */
function sftp(port: number, login: string, password: string, commands: string[], cwd: string): Promise<{ code: number; out: string }> {
  const batch = join(cwd, `batch-${randomBytes(4).toString('hex')}`)
  writeFileSync(batch, `${commands.join('\n')}\n`)
  return new Promise((resolve) => {
    execFile('sshpass', ['-p', password, 'sftp', '-o', 'BatchMode=no', '-o', 'StrictHostKeyChecking=no', '-o', 'UserKnownHostsFile=/dev/null',
      '-o', 'LogLevel=ERROR', '-o', 'NumberOfPasswordPrompts=1', '-P', String(port), '-b', batch, `${login}@127.0.0.1`],
    { cwd, timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, out: `${stdout}${stderr}` })
    })
  })
}

interface FtpRow { operate: string; filename: string; is_success: boolean; user: string; asset: string; account: string; org_id: string }

describe('SFTP through the SSH gateway (OpenSSH sftp against the built-in gateway and a real sshd)', () => {
  const f = useTerminalFixture()
  let port = 0
  let local = ''
  beforeAll(async () => {
    port = await startGateway(f.t.app, 0, '127.0.0.1')
    local = mkdtempSync(join(tmpdir(), 'sftp-local-'))
  })

  /** A folder on the host (the sshd's machine is this one) owned by the host's account. */
  function hostDir(): string {
    const dir = mkdtempSync(join(tmpdir(), 'sftp-host-'))
    const uid = Number(readFileSync('/etc/passwd', 'utf8').split('\n').find((l) => l.startsWith(`${f.host.username}:`))!.split(':')[2])
    chownSync(dir, uid, uid)
    return dir
  }

  const logs = async (g: Granted) => (await sql<FtpRow>`select operate, filename, is_success, "user", asset, account, org_id from ftp_logs
    where "user" like ${`%(${g.username})`} order by date_start, id`.execute(f.t.database.db)).rows

  it('lists the granted assets as folders, and list, upload, download, rename, mkdir, rmdir, delete each reach the host and are logged once', async () => {
    const g = await f.grantedUser('sftpall', { actions: ['all'] })
    const host = hostDir()
    const payload = randomBytes(300_000)
    writeFileSync(join(local, 'up.bin'), payload)
    const base = `/DEFAULT/${g.assetName}/${g.username}-acc${host}`
    const r = await sftp(port, g.username, g.password, [
      'ls /', 'ls /DEFAULT', `ls /DEFAULT/${g.assetName}`,
      `cd ${base}`, 'put up.bin', 'ls -l', 'rename up.bin moved.bin', 'get moved.bin down.bin', 'mkdir sub', 'rmdir sub', 'mkdir keep', 'rm moved.bin',
    ], local)
    expect(r.code, r.out).toBe(0)
    expect(r.out).toContain('DEFAULT')
    expect(r.out).toContain(g.assetName)
    expect(r.out).toContain(`${g.username}-acc`)
    expect(r.out).toMatch(/up\.bin/)
    expect(readFileSync(join(local, 'down.bin')).equals(payload)).toBe(true)
    expect(existsSync(join(host, 'moved.bin'))).toBe(false)
    expect(statSync(join(host, 'keep')).isDirectory()).toBe(true)
    expect(existsSync(join(host, 'sub'))).toBe(false)
    const rows = await logs(g)
    expect(rows.map((x) => [x.operate, x.filename, x.is_success])).toEqual([
      ['upload', `${host}/up.bin`, true],
      ['rename', `${host}/up.bin => ${host}/moved.bin`, true],
      ['download', `${host}/moved.bin`, true],
      ['mkdir', `${host}/sub`, true],
      ['rmdir', `${host}/sub`, true],
      ['mkdir', `${host}/keep`, true],
      ['delete', `${host}/moved.bin`, true],
    ])
    expect(rows[0]).toMatchObject({ user: `${g.username}(${g.username})`, asset: `${g.assetName}(${f.sshd.host})`, account: `${g.username}-acc(${f.host.username})`, org_id: '00000000-0000-0000-0000-000000000002' })
    // no secret in any log row
    expect(JSON.stringify(rows)).not.toContain(f.host.password)
  })

  it('without download a file cannot be fetched; without upload nothing is written; without delete nothing is removed; each refusal is logged', async () => {
    const g = await f.grantedUser('sftpnodl', { actions: ['connect', 'upload'] })
    const host = hostDir()
    writeFileSync(join(host, 'secret.txt'), 'top secret')
    chownSync(join(host, 'secret.txt'), statSync(host).uid, statSync(host).gid)
    writeFileSync(join(local, 'nodl-up.txt'), 'up')
    const base = `/DEFAULT/${g.assetName}/${g.username}-acc${host}`
    const r = await sftp(port, g.username, g.password, [`cd ${base}`, '-get secret.txt nodl.txt', 'put nodl-up.txt', '-rm secret.txt'], local)
    expect(r.code, r.out).toBe(0)
    expect(r.out).toMatch(/Permission denied/i)
    expect(existsSync(join(local, 'nodl.txt')) && readFileSync(join(local, 'nodl.txt'), 'utf8').includes('secret')).toBe(false)
    expect(readFileSync(join(host, 'nodl-up.txt'), 'utf8')).toBe('up')
    expect(existsSync(join(host, 'secret.txt'))).toBe(true)
    expect((await logs(g)).map((x) => [x.operate, x.filename, x.is_success])).toEqual([
      ['download', `${host}/secret.txt`, false],
      ['upload', `${host}/nodl-up.txt`, true],
      ['delete', `${host}/secret.txt`, false],
    ])
    const ro = await f.grantedUser('sftpnoup', { actions: ['connect', 'download'] })
    const r2 = await sftp(port, ro.username, ro.password, [`cd /DEFAULT/${ro.assetName}/${ro.username}-acc${host}`, '-put nodl-up.txt other.txt', '-mkdir nope', 'get secret.txt ro.txt'], local)
    expect(r2.code, r2.out).toBe(0)
    expect(existsSync(join(host, 'other.txt'))).toBe(false)
    expect(existsSync(join(host, 'nope'))).toBe(false)
    expect(readFileSync(join(local, 'ro.txt'), 'utf8')).toBe('top secret')
    expect((await logs(ro)).map((x) => [x.operate, x.is_success])).toEqual([['upload', false], ['mkdir', false], ['download', true]])
  })

  it('path traversal stays inside the tree: ../ and absolute paths outside the granted folders are not found; another user\'s asset is not visible', async () => {
    const g = await f.grantedUser('sftptrav', { actions: ['all'] })
    const other = await f.grantedUser('sftpother', { actions: ['all'] })
    const r = await sftp(port, g.username, g.password, [
      `cd /DEFAULT/${g.assetName}`, '-get ../../../etc/passwd p1', '-get /etc/passwd p2', '-ls /etc', `-ls /DEFAULT/${other.assetName}`,
      `-get /DEFAULT/${other.assetName}/${other.username}-acc/etc/passwd p3`, '-get ../../../../../../../../etc/hostname p4', 'ls /DEFAULT',
    ], local)
    expect(r.code, r.out).toBe(0)
    for (const p of ['p1', 'p2', 'p3', 'p4']) expect(existsSync(join(local, p)), p).toBe(false)
    expect(r.out).toMatch(/not found|No such file/i)
    // the org folder lists only the user's own asset
    const listed = await sftp(port, g.username, g.password, ['ls -1 /DEFAULT'], local)
    expect(listed.out).toContain(g.assetName)
    expect(listed.out).not.toContain(other.assetName)
  })

  it('a connection token login sees only its asset', async () => {
    const g = await f.grantedUser('sftptok', { actions: ['all'] })
    const second = await f.admin.post('/api/v1/assets/hosts/', { name: 'sftptok-second', address: f.sshd.host, platform: 1, protocols: [{ name: 'ssh', port: f.sshd.port }] })
    const perm = await f.admin.post('/api/v1/perms/asset-permissions/', { name: 'sftptok-second', users: [g.userId], assets: [second.json().id], accounts: ['@ALL'] })
    expect(perm.statusCode, perm.body).toBe(201)
    const tok = await g.c.post('/api/v1/authentication/connection-token/', { asset: g.assetId, account: `${g.username}-acc`, protocol: 'ssh', connect_method: 'ssh_client' })
    const { id, value } = tok.json() as { id: string; value: string }
    const r = await sftp(port, `JMS-${id}`, value, ['ls -1 /DEFAULT'], local)
    expect(r.code, r.out).toBe(0)
    expect(r.out).toContain(g.assetName)
    expect(r.out).not.toContain('sftptok-second')
  })

  it('its messages are translated', () => {
    for (const text of Object.keys(FILE_MESSAGES)) for (const lang of ['zh', 'ja'] as const) expect(tr(lang, text), text).not.toBe(text)
  })
})
