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
import type { FileSession } from './session.ts'
import { OpenSftp } from './sftp-support.ts'
import { terminalManager, useTerminalFixture, type Granted } from './test-support.ts'

/** Runs Debian's OpenSSH `sftp` in batch mode (password through sshpass); its exit code and output. */
function sftp(port: number, login: string, password: string, commands: string[], cwd: string, extra: string[] = []): Promise<{ code: number; out: string }> {
  const batch = join(cwd, `batch-${randomBytes(4).toString('hex')}`)
  writeFileSync(batch, `${commands.join('\n')}\n`)
  return new Promise((resolve) => {
    execFile('sshpass', ['-p', password, 'sftp', '-o', 'BatchMode=no', '-o', 'StrictHostKeyChecking=no', '-o', 'UserKnownHostsFile=/dev/null',
      '-o', 'LogLevel=ERROR', '-o', 'NumberOfPasswordPrompts=1', ...extra, '-P', String(port), '-b', batch, `${login}@127.0.0.1`],
    { cwd, timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, out: `${stdout}${stderr}` })
    })
  })
}

interface FtpRow { operate: string; filename: string; is_success: boolean; user: string; asset: string; account: string; org_id: string; session: string }

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

  const logs = async (g: Granted) => (await sql<FtpRow>`select operate, filename, is_success, "user", asset, account, org_id, session from ftp_logs
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

  it('a write the host refuses (/dev/full: no space) fails the upload for OpenSSH\'s sftp and is logged failed: the relay answers a WRITE with the host\'s answer', async () => {
    const g = await f.grantedUser('sftpfull', { actions: ['all'] })
    writeFileSync(join(local, 'full-up.bin'), randomBytes(2 * 1024 * 1024))
    const r = await sftp(port, g.username, g.password, [`put full-up.bin /DEFAULT/${g.assetName}/${g.username}-acc/dev/full`], local)
    expect(r.code, r.out).not.toBe(0)
    expect(r.out).toMatch(/Couldn't write|Failure|No space/i)
    expect((await logs(g)).map((x) => [x.operate, x.filename, x.is_success])).toEqual([['upload', '/dev/full', false]])
  })

  it('a client asking far more than the relay holds (512 requests of 128 KiB: 64 MiB) gets every byte: its READs wait in line beyond 16 MiB', async () => {
    const g = await f.grantedUser('sftpwide', { actions: ['all'] })
    const host = hostDir()
    const payload = randomBytes(24 * 1024 * 1024 + 333)
    writeFileSync(join(local, 'wide.bin'), payload)
    const base = `/DEFAULT/${g.assetName}/${g.username}-acc${host}`
    const r = await sftp(port, g.username, g.password, [`put wide.bin ${base}/wide.bin`, `get ${base}/wide.bin wide-down.bin`], local, ['-B', '131072', '-R', '512'])
    expect(r.code, r.out).toBe(0)
    expect(readFileSync(join(host, 'wide.bin')).equals(payload)).toBe(true)
    expect(readFileSync(join(local, 'wide-down.bin')).equals(payload)).toBe(true)
    expect((await logs(g)).map((x) => [x.operate, x.is_success])).toEqual([['upload', true], ['download', true]])
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

  /** The open file sessions of a user in this process (the SFTP connections' sessions). */
  const fileSessionsOf = (g: Granted): FileSession[] => [...terminalManager(f.t.app).fileSessions.values()].filter((s) => s.user.id === g.userId)
  const sessionRows = async (g: Granted) => (await f.admin.get(`/api/v1/terminal/sessions/?user_id=${g.userId}`)).json() as Array<Record<string, unknown>>

  it('an SFTP connection to an asset is a session of the audit while it is open (protocol sftp, from ST), finished when it closes; its FTP logs carry its id', async () => {
    const g = await f.grantedUser('sftpsess', { actions: ['all'] })
    const host = hostDir()
    writeFileSync(join(local, 'sess-up.txt'), 'session upload')
    const c = new OpenSftp(port, g.username, g.password, local)
    try {
      // the tree's own folders reach no host: no session yet
      await c.run('ls /DEFAULT')
      expect(await sessionRows(g)).toEqual([])
      await c.run(`cd /DEFAULT/${g.assetName}/${g.username}-acc${host}`, 'put sess-up.txt', '-rename sess-up.txt /DEFAULT/elsewhere.txt')
      const rows = await sessionRows(g)
      expect(rows).toHaveLength(1)
      const row = rows[0]!
      expect(row).toMatchObject({
        user: `${g.username}(${g.username})`, user_id: g.userId, asset: `${g.assetName}(${f.sshd.host})`, asset_id: g.assetId,
        account: `${g.username}-acc(${f.host.username})`, account_id: g.accountId, protocol: 'sftp', remote_addr: '127.0.0.1', is_finished: false,
        org_id: '00000000-0000-0000-0000-000000000002',
      })
      expect(row.login_from).toMatchObject({ value: 'ST' })
      const one = (await f.admin.get(`/api/v1/terminal/sessions/${String(row.id)}/`)).json() as Record<string, unknown>
      // online: it can be terminated; it has no screen to monitor or join
      expect(one).toMatchObject({ is_finished: false, can_terminate: true, can_join: false })
      const online = (await f.admin.get(`/api/v1/terminal/sessions/?is_finished=0&protocol=sftp&user_id=${g.userId}`)).json() as Array<{ id: string }>
      expect(online.map((x) => x.id)).toEqual([row.id])
      // every FTP log of the connection names the session: the upload and the refused move out of the account folder
      expect((await logs(g)).map((x) => [x.operate, x.is_success, x.session])).toEqual([['upload', true, row.id], ['rename', false, row.id]])
      // the audit's FTP logs filter by session, as JumpServer's
      const bySession = (await f.admin.get(`/api/v1/audits/ftp-logs/?session=${String(row.id)}`)).json() as Array<{ operate: { value: string } | string }>
      expect(bySession).toHaveLength(2)
      const [held] = fileSessionsOf(g)
      expect(held?.id).toBe(row.id)
      const closed = new Promise((resolve) => held!.once('close', resolve))
      c.child.stdin.end('bye\n')
      await c.until(() => c.exit !== null, 'sftp exits')
      await closed
      const after = (await f.admin.get(`/api/v1/terminal/sessions/${String(row.id)}/`)).json() as Record<string, unknown>
      expect(after).toMatchObject({ is_finished: true, can_terminate: false })
      expect(after.date_end).toEqual(expect.any(String))
      expect(fileSessionsOf(g)).toEqual([])
      expect(readFileSync(join(host, 'sess-up.txt'), 'utf8')).toBe('session upload')
    } finally {
      c.child.kill()
    }
  })

  it('two assets through one SFTP connection are two sessions; terminating one from the audit ends the SFTP connection and both sessions, recorded', async () => {
    const g = await f.grantedUser('sftpkill', { actions: ['all'] })
    const second = await f.admin.post('/api/v1/assets/hosts/', { name: 'sftpkill-second', address: f.sshd.host, platform: 1, protocols: [{ name: 'ssh', port: f.sshd.port }] })
    const acc = await f.admin.post('/api/v1/accounts/accounts/', { asset: second.json().id, name: 'second-acc', username: f.host.username, secret_type: 'password', secret: f.host.password })
    expect(acc.statusCode, acc.body).toBe(201)
    const perm = await f.admin.post('/api/v1/perms/asset-permissions/', { name: 'sftpkill-second', users: [g.userId], assets: [second.json().id], accounts: ['@ALL'], actions: ['all'] })
    expect(perm.statusCode, perm.body).toBe(201)
    const host = hostDir()
    const c = new OpenSftp(port, g.username, g.password, local)
    try {
      await c.run(`ls /DEFAULT/${g.assetName}/${g.username}-acc${host}`, `ls /DEFAULT/sftpkill-second/second-acc${host}`)
      const rows = await sessionRows(g)
      expect(rows.map((r) => [r.asset, r.protocol, r.is_finished]).sort()).toEqual([
        [`${g.assetName}(${f.sshd.host})`, 'sftp', false], [`sftpkill-second(${f.sshd.host})`, 'sftp', false],
      ])
      const held = fileSessionsOf(g)
      expect(held).toHaveLength(2)
      const closed = held.map((s) => new Promise((resolve) => s.once('close', resolve)))
      const target = rows.find((r) => r.asset === `${g.assetName}(${f.sshd.host})`)!
      // the user cannot terminate; an auditor with the permission can
      expect((await g.c.post('/api/v1/terminal/tasks/kill-session/', [target.id])).statusCode).toBe(403)
      const r = await f.admin.post('/api/v1/terminal/tasks/kill-session/', [target.id])
      expect(r.statusCode, r.body).toBe(200)
      expect(r.json()).toEqual({ ok: [target.id] })
      await Promise.all(closed)
      // the client learns it with its next command (OpenSSH's sftp waits on its input meanwhile)
      c.child.stdin.write(`ls /DEFAULT/${g.assetName}\n`)
      await c.until(() => c.exit !== null, 'the SFTP connection ends')
      expect(c.exit).not.toBe(0)
      const after = await sessionRows(g)
      expect(after.map((x) => x.is_finished)).toEqual([true, true])
      const killed = (await f.admin.get(`/api/v1/terminal/sessions/${String(target.id)}/`)).json() as Record<string, unknown>
      expect(String(killed.comment)).toContain('Terminated by')
      const ops = (await f.admin.get(`/api/v1/audits/operate-logs/?resource_type=Session&action=terminate`)).json() as unknown
      expect(JSON.stringify(ops)).toContain(`${g.username}(${g.username}) → ${g.assetName}(${f.sshd.host})`)
    } finally {
      c.child.kill()
    }
  })

  it('an SFTP session is held like a terminal\'s: idle past SECURITY_MAX_IDLE_TIME it is closed (injected clock), and the next operation opens a new one', async () => {
    const g = await f.grantedUser('sftpidle', { actions: ['all'] })
    const c = new OpenSftp(port, g.username, g.password, local)
    try {
      await c.run(`ls /DEFAULT/${g.assetName}/${g.username}-acc/tmp`)
      const [held] = fileSessionsOf(g)
      expect(held).toBeDefined()
      const closed = new Promise((resolve) => held!.once('close', resolve))
      const manager = terminalManager(f.t.app)
      const realNow = manager.now
      // the enforcement pass with a clock 31 minutes on (the default idle limit is 30)
      manager.now = () => realNow() + 31 * 60_000
      try {
        await manager.check()
      } finally {
        manager.now = realNow
      }
      await closed
      expect((await f.admin.get(`/api/v1/terminal/sessions/${held!.id}/`)).json()).toMatchObject({ is_finished: true })
      // the SFTP channel stays; the next operation reaches the host on a new connection: a new session
      await c.run(`ls /DEFAULT/${g.assetName}/${g.username}-acc/tmp`)
      expect(c.exit).toBeNull()
      const now = fileSessionsOf(g)
      expect(now).toHaveLength(1)
      expect(now[0]!.id).not.toBe(held!.id)
    } finally {
      c.child.kill()
    }
  })

  it('its messages are translated', () => {
    for (const text of Object.keys(FILE_MESSAGES)) for (const lang of ['zh', 'ja'] as const) expect(tr(lang, text), text).not.toBe(text)
  })
})
