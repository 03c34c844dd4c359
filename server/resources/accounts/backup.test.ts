/**
 * Account backup for real: a plan's execution writes the accounts with their secrets into a workbook inside a zip
 * archive encrypted with the plan's password (AES-256), keeps it for download and mails it to the recipients
 * through a real SMTP server on loopback (server/testing/smtp.ts). The test opens the received attachment with the
 * password, reads the workbook and finds the secrets; without the password the archive does not open.
 */
import ExcelJS from 'exceljs'
import { openZip } from '../../testing/zip.ts'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { invalidateSettingsCache } from '../../settings/store.ts'
import { dbKind } from '../../testing.ts'
import { attachments, startSmtp, type TestSmtp } from '../../testing/smtp.ts'
import { useTestServer } from '../../use-test-server.ts'
import { bindOtp, TEST_SECRET_KEY } from '../../auth/test-support.ts'
import { totp } from '../../auth/totp.ts'

const A = '/api/v1/accounts/'
const FINAL = ['success', 'failed', 'error', 'canceled']
const ORG_USER = '00000000-0000-0000-0000-000000000007'
const ORG_ADMIN = '00000000-0000-0000-0000-000000000005'

async function sheetRows(xlsx: Uint8Array): Promise<Map<string, string[][]>> {
  const wb = new ExcelJS.Workbook()
  await wb.xlsx.load(Buffer.from(xlsx) as unknown as ArrayBuffer)
  const out = new Map<string, string[][]>()
  wb.eachSheet((ws) => {
    const rows: string[][] = []
    ws.eachRow((r) => rows.push((r.values as unknown[]).slice(1).map((v) => String(v ?? ''))))
    out.set(ws.name, rows)
  })
  return out
}

describe(`account backup: an encrypted archive, mailed (${dbKind()})`, () => {
  const s = useTestServer({ secretKey: TEST_SECRET_KEY })
  let smtp: TestSmtp
  let host: string
  let plan: string
  const keeper = `keeper${Date.now().toString(36)}`

  beforeAll(async () => {
    invalidateSettingsCache()
    smtp = await startSmtp()
    const c = s.admin
    // Backup plans, their runs and archives need what viewing a secret needs: an MFA confirmation (issue 36).
    const seed = await bindOtp(s.t, s.t.adminId)
    expect((await c.post('/api/v1/authentication/confirm/', { confirm_type: 'mfa', mfa_type: 'otp', secret_key: totp(seed) })).json()).toBe('ok')
    host = (await c.post('/api/v1/assets/hosts/', { name: 'backup-host', address: '10.0.0.9', platform: 1 })).json().id
    for (const [username, secret] of [['root', 'Root-Secret-1!'], ['deploy', 'Deploy-Secret-2!']]) {
      expect((await c.post(`${A}accounts/`, { username, secret, asset: host, privileged: username === 'root' })).statusCode).toBe(201)
    }
    await s.t.createUser({ username: keeper, orgRoles: [ORG_ADMIN] })
  }, 60_000)
  afterAll(async () => {
    await smtp?.stop()
  })

  async function execute(automation: string) {
    const r = await s.admin.post(`${A}account-backup-plan-executions/`, { automation })
    expect(r.statusCode, r.body).toBe(201)
    const { id } = r.json() as { id: string }
    const until = Date.now() + 60_000 // a cap for a loaded CI machine, not a speed assertion
    for (;;) {
      const e = (await s.admin.get(`${A}account-backup-plan-executions/${id}/`)).json()
      if (FINAL.includes(e.status.value)) return e
      if (Date.now() > until) throw new Error(`execution still ${e.status.value}`)
      await new Promise((r) => setTimeout(r, 200))
    }
  }

  it('needs an encryption password of 8 characters or more, sealed and never returned', async () => {
    const users = (await s.admin.get(`/api/v1/users/users/?username=${keeper}`)).json()
    const keeperId = (Array.isArray(users) ? users : users.results)[0].id
    const none = await s.admin.post(`${A}account-backup-plans/`, { name: 'nightly', recipients: [keeperId] })
    expect(none.statusCode).toBe(400)
    expect(Object.keys(none.json())).toEqual(['zip_encrypt_password'])
    const short = await s.admin.post(`${A}account-backup-plans/`, { name: 'nightly', recipients: [keeperId], zip_encrypt_password: 'short' })
    expect(short.json()).toEqual({ zip_encrypt_password: ['Ensure this field has at least 8 characters.'] })
    const ok = await s.admin.post(`${A}account-backup-plans/`, { name: 'nightly', recipients: [keeperId], zip_encrypt_password: 'Zip-Password-9' })
    expect(ok.statusCode, ok.body).toBe(201)
    plan = ok.json().id
    for (const body of [ok.body, (await s.admin.get(`${A}account-backup-plans/${plan}/`)).body, (await s.admin.get(`${A}account-backup-plans/`)).body]) {
      expect(body).not.toContain('Zip-Password-9')
      expect(body).not.toContain('zip_encrypt_password')
    }
    const stored = (await sql<{ p: string }>`select zip_encrypt_password as p from account_automations where id = ${plan}`.execute(s.t.database.db)).rows[0]!.p
    expect(stored).not.toContain('Zip-Password-9')
    expect(stored.length).toBeGreaterThan(20)
    // required on create only: an update without the password keeps it (PATCH and PUT), and the metadata says so
    const meta = (await s.admin.options(`${A}account-backup-plans/${plan}/`)).json().actions
    expect(meta.PUT.zip_encrypt_password).toMatchObject({ required: false, write_only: true })
    expect((await s.admin.options(`${A}account-backup-plans/`)).json().actions.POST.zip_encrypt_password.required).toBe(true)
    expect((await s.admin.patch(`${A}account-backup-plans/${plan}/`, { comment: 'kept' })).statusCode).toBe(200)
    const put = await s.admin.put(`${A}account-backup-plans/${plan}/`, { name: 'nightly', recipients: [keeperId], comment: 'kept' })
    expect(put.statusCode, put.body).toBe(200)
    expect((await sql<{ p: string }>`select zip_encrypt_password as p from account_automations where id = ${plan}`.execute(s.t.database.db)).rows[0]!.p).toBe(stored)
  })

  it('without a mail server the archive is kept and the execution says the mail was not sent', async () => {
    const e = await execute(plan)
    expect(e.status.value).toBe('failed')
    expect(e.has_artifact).toBe(true)
    expect(e.recipients).toEqual([expect.objectContaining({ username: keeper, sent: false, error: 'No mail server is configured' })])
  })

  it('mails the encrypted archive to the recipient: the password opens it, the workbook holds every account with its secret', async () => {
    const r = await s.admin.patch('/api/v1/settings/setting/?category=email', { EMAIL_HOST: smtp.host, EMAIL_PORT: String(smtp.port), EMAIL_USE_SSL: false, EMAIL_USE_TLS: false, EMAIL_FROM: 'bastion@example.org' })
    expect(r.statusCode, r.body).toBe(200)
    const mailed = smtp.next(`${keeper}@example.com`, 60_000)
    const e = await execute(plan)
    expect(e).toMatchObject({ status: { value: 'success' }, summary: { total: 2, ok: 2, failed: 0 }, has_artifact: true })
    expect(e.recipients).toEqual([expect.objectContaining({ username: keeper, sent: true })])
    const mail = await mailed
    expect(mail.subject).toBe('[JMS] Account backup: nightly')
    expect(mail.text).toContain('2 account(s)')
    expect(mail.raw).not.toContain('Root-Secret-1!')
    const [zip] = attachments(mail)
    expect(zip).toBeDefined()
    expect(zip!.filename).toMatch(/^nightly-\d{8}-\d{6}\.zip$/)
    expect(zip!.type).toBe('application/zip')
    expect(zip!.content.includes(Buffer.from('Root-Secret-1!'))).toBe(false)

    await expect(openZip(zip!.content)).rejects.toThrow()
    await expect(openZip(zip!.content, 'wrong-password')).rejects.toThrow()
    const files = await openZip(zip!.content, 'Zip-Password-9')
    expect(files.map((f) => f.name)).toEqual([zip!.filename.replace(/\.zip$/, '.xlsx')])
    const sheets = await sheetRows(files[0]!.data)
    expect([...sheets.keys()]).toEqual(['linux'])
    const [header, ...rows] = sheets.get('linux')!
    expect(header!.slice(0, 7)).toEqual(['Name', 'Username', 'Asset', 'Address', 'Platform', 'Secret type', 'Secret'])
    expect(rows.map((x) => [x[1], x[2], x[3], x[6]])).toEqual([
      ['deploy', 'backup-host', '10.0.0.9', 'Deploy-Secret-2!'],
      ['root', 'backup-host', '10.0.0.9', 'Root-Secret-1!'],
    ])

    // the same archive for download, by a user allowed to see secrets only
    const dl = await s.admin.get(`${A}account-backup-plan-executions/${e.id}/download/`)
    expect(dl.statusCode).toBe(200)
    expect(dl.headers['content-type']).toBe('application/zip')
    expect(Buffer.from(dl.rawPayload).equals(zip!.content)).toBe(true)
    await s.t.createUser({ username: `${keeper}-u`, orgRoles: [ORG_USER] })
    const user = await s.t.as(`${keeper}-u`)
    expect((await user.get(`${A}account-backup-plan-executions/${e.id}/download/`)).statusCode).toBe(403)
    expect((await s.admin.get(`${A}account-backup-plan-executions/00000000-0000-0000-0000-0000000000ff/download/`)).statusCode).toBe(404)
  })
})
