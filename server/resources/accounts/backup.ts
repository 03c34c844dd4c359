/**
 * Account backup (issue 15): a backup plan's execution writes every chosen account of the plan's organization
 * with its secret into a workbook (one sheet per asset type, as JumpServer writes it), puts the workbook in a zip
 * archive encrypted with the plan's password (WinZip AES-256, which 7-Zip, WinRAR, macOS and JumpServer's
 * pyzipper open), keeps the archive on the execution for download by an authorised user, and mails it to each
 * recipient through the mail server of the Email settings. The secrets exist in plain text only in this
 * process's memory while the archive is written; the archive on disk, in the database and in the mail is
 * encrypted.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import ExcelJS from 'exceljs'
import { configure, Uint8ArrayReader, Uint8ArrayWriter, ZipWriter } from '@zip.js/zip.js'
import { sql } from 'kysely'
import type { ServerConfig } from '../../config.ts'
import type { Database, RowOf } from '../../db/connection.ts'
import { requirePerm, requireUser } from '../../http/context.ts'
import { notFound } from '../../http/errors.ts'
import type { Lang } from '../../http/request-context.ts'
import { addMessages, tr } from '../../i18n.ts'
import { mailConfigured, sendMail } from '../../mail/sender.ts'
import { ORG_IDS } from '../../rbac/catalog.ts'
import type { TaskContext } from '../../tasks/kinds.ts'
import { openSecret } from './secrets.ts'

// zip.js runs in this process (no web workers in Node); compression through the platform's CompressionStream
configure({ useWebWorkers: false })

const BM = {
  subject: 'Account backup: {plan}',
  body: 'Hello {name},\n\nThe account backup plan "{plan}" ran at {date}: {count} account(s) in the attached file {file}.\nThe file is a zip archive encrypted with the plan\'s password (AES-256); ask the plan\'s administrator for it.',
} as const
addMessages({
  [BM.subject]: ['账号备份：{plan}', 'アカウントバックアップ: {plan}'],
  [BM.body]: ['{name}，您好：\n\n账号备份计划“{plan}”已于 {date} 执行：附件 {file} 中有 {count} 个账号。\n该文件是用计划密码加密的 zip 压缩包（AES-256），请向计划管理员索取密码。',
    '{name} 様\n\nアカウントバックアップ計画「{plan}」を {date} に実行しました: 添付ファイル {file} に {count} 件のアカウントがあります。\nファイルは計画のパスワードで暗号化された zip アーカイブ (AES-256) です。パスワードは計画の管理者にお問い合わせください。'],
  'Asset': ['资产', '資産'],
  'Address': ['地址', 'アドレス'],
  'Platform': ['系统平台', 'プラットフォーム'],
  'Source': ['来源', 'ソース'],
})

/** The server configuration of each database (its SECRET_KEY opens the mail server's password). */
const configs = new WeakMap<Database, ServerConfig>()

export function registerBackup(app: FastifyInstance): void {
  configs.set(app.services.database, app.services.config)
  // The encrypted archive of an execution: the plan's view permission and the secret view permission (it holds
  // secrets, even if encrypted). The archive is encrypted; this answer does not need a fresh confirmation.
  const handler = async (req: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) => {
    requireUser(req)
    await requirePerm(req, 'accounts.view_accountbackupautomation')
    await requirePerm(req, 'accounts.view_accountsecret')
    const id = req.params.id
    const ctx = req.ctx
    const inOrg = ctx.orgId === ORG_IDS.ROOT ? sql`` : sql`and org_id = ${ctx.orgId}`
    const row = /^[0-9a-f-]{36}$/i.test(id)
      ? (await sql<{ artifact: Uint8Array | null; artifact_name: string }>`select artifact, artifact_name from account_automation_executions
          where id = ${id} and type = 'backup_account' ${inOrg}`.execute(ctx.db)).rows[0]
      : undefined
    if (!row?.artifact) throw notFound()
    reply.header('Content-Type', 'application/zip')
    reply.header('Content-Disposition', `attachment; filename="${row.artifact_name.replace(/[^\w.-]/g, '_')}"`)
    reply.header('Cache-Control', 'no-store')
    return reply.send(Buffer.from(row.artifact))
  }
  app.get('/api/v1/accounts/account-backup-plan-executions/:id/download/', handler)
}

type BackupRow = Pick<RowOf<'accounts'>, 'id' | 'name' | 'username' | 'secret_type' | 'secret' | 'passphrase' | 'privileged' | 'is_active' | 'source'>
  & { asset_name: string; address: string; asset_type: string; platform: string }

const COLUMNS: Array<{ key: string; header: string; width: number }> = [
  { key: 'name', header: 'Name', width: 24 },
  { key: 'username', header: 'Username', width: 20 },
  { key: 'asset_name', header: 'Asset', width: 24 },
  { key: 'address', header: 'Address', width: 18 },
  { key: 'platform', header: 'Platform', width: 14 },
  { key: 'secret_type', header: 'Secret type', width: 12 },
  { key: 'secret', header: 'Secret', width: 36 },
  { key: 'passphrase', header: 'Passphrase', width: 16 },
  { key: 'privileged', header: 'Privileged', width: 10 },
  { key: 'is_active', header: 'Active', width: 8 },
  { key: 'source', header: 'Source', width: 10 },
]

/** The workbook: one sheet per asset type, headers in the plan's language. */
async function workbook(rows: BackupRow[], lang: Lang): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook()
  wb.creator = 'bastion'
  const byType = new Map<string, BackupRow[]>()
  for (const r of rows) byType.set(r.asset_type, [...(byType.get(r.asset_type) ?? []), r])
  if (!byType.size) byType.set('accounts', [])
  for (const [type, list] of byType) {
    const ws = wb.addWorksheet(type.slice(0, 31))
    ws.columns = COLUMNS.map((c) => ({ key: c.key, header: tr(lang, c.header), width: c.width }))
    for (const r of list) ws.addRow({ ...r, privileged: r.privileged ? 'true' : 'false', is_active: r.is_active ? 'true' : 'false' })
  }
  return new Uint8Array(await wb.xlsx.writeBuffer())
}

/** A zip archive holding `file`, encrypted with WinZip AES-256 under `password`. */
export async function encryptedZip(file: { name: string; data: Uint8Array }, password: string): Promise<Uint8Array> {
  const zip = new ZipWriter(new Uint8ArrayWriter(), { password, encryptionStrength: 3 })
  await zip.add(file.name, new Uint8ArrayReader(file.data))
  return zip.close()
}

const stamp = (d: Date) => d.toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-')
const safeName = (s: string) => s.replace(/[^\p{L}\p{N}_.-]+/gu, '_').slice(0, 80) || 'backup'

interface Tally { total: number; ok: number; failed: number }

/** Runs a backup execution: the archive, kept on the execution, then one mail per recipient. */
export async function runBackup(ctx: TaskContext, execution: RowOf<'account_automation_executions'>, automation: RowOf<'account_automations'>, tally: Tally): Promise<void> {
  const db = ctx.db
  const password = openSecret(db, 'account_automations', String(automation.id), 'zip_encrypt_password', automation.zip_encrypt_password)
  if (!password) throw new Error('the plan has no encryption password')
  const types = ((automation.types ?? []) as string[]).filter(Boolean)
  const rows = (await sql<BackupRow>`select a.id, a.name, a.username, a.secret_type, a.secret, a.passphrase, a.privileged, a.is_active, a.source,
      s.name as asset_name, s.address, s.type as asset_type, p.name as platform
    from accounts a join assets s on s.id = a.asset_id join platforms p on p.id = s.platform_id
    where a.org_id = ${automation.org_id} ${types.length ? sql`and s.type in (${sql.join(types)})` : sql``}
    order by s.type, s.name, a.username`.execute(db)).rows
  await ctx.log(`${rows.length} account(s)${types.length ? ` of the asset types ${types.join(', ')}` : ''}`)
  let unreadable = 0
  for (const r of rows) {
    try {
      r.secret = openSecret(db, 'accounts', r.id, 'secret', r.secret)
      r.passphrase = openSecret(db, 'accounts', r.id, 'passphrase', r.passphrase)
    } catch {
      // a secret sealed under another SECRET_KEY: the account is written without it, and counted
      r.secret = ''
      r.passphrase = ''
      unreadable++
    }
  }
  if (unreadable) await ctx.log(`${unreadable} secret(s) could not be opened with this server's SECRET_KEY and are left empty`)
  const lang: Lang = 'en'
  const now = ctx.now()
  const base = `${safeName(String(automation.name))}-${stamp(now)}`
  const xlsx = await workbook(rows, lang)
  const zip = await encryptedZip({ name: `${base}.xlsx`, data: xlsx }, password)
  const fileName = `${base}.zip`
  await sql`update account_automation_executions set artifact = ${Buffer.from(zip)}, artifact_name = ${fileName} where id = ${execution.id}`.execute(db)
  await ctx.log(`Encrypted archive ${fileName} (${zip.length} bytes) kept for download`)
  tally.total = rows.length
  tally.ok = rows.length - unreadable
  tally.failed = unreadable

  // the mail to each recipient
  const recipients = (await sql<Pick<RowOf<'users'>, 'id' | 'name' | 'username' | 'email'>>`select u.id, u.name, u.username, u.email from account_automation_recipients r join users u on u.id = r.user_id
    where r.automation_id = ${automation.id} order by u.username`.execute(db)).rows
  const results: Array<{ id: string; name: string; username: string; sent: boolean; error?: string }> = []
  if (recipients.length) {
    const config = configs.get(ctx.database)
    const configured = config ? await mailConfigured(db) : false
    for (const u of recipients) {
      const who = { id: u.id, name: u.name, username: u.username }
      if (!config || !configured) { results.push({ ...who, sent: false, error: 'No mail server is configured' }); continue }
      if (!u.email) { results.push({ ...who, sent: false, error: 'The recipient has no email address' }); continue }
      try {
        const vars = { plan: String(automation.name), name: String(u.name || u.username), date: now.toISOString().slice(0, 16).replace('T', ' '), count: String(rows.length), file: fileName }
        await sendMail(db, config, {
          to: String(u.email), subject: tr(lang, BM.subject, vars), text: tr(lang, BM.body, vars),
          attachments: [{ filename: fileName, content: Buffer.from(zip), contentType: 'application/zip' }],
        })
        results.push({ ...who, sent: true, error: '' })
      } catch (e) {
        results.push({ ...who, sent: false, error: (e as Error).message })
      }
    }
    for (const r of results) await ctx.log(`Mail to ${String(r.username)}: ${r.sent ? 'sent' : `not sent (${String(r.error)})`}`)
    await sql`update account_automation_executions set recipients = ${JSON.stringify(results)}::jsonb where id = ${execution.id}`.execute(db)
    const failed = results.filter((r) => !r.sent).length
    if (failed) throw new BackupDeliveryError(`${failed} of ${results.length} mail(s) not sent`)
  } else await ctx.log('No recipients: the archive is only kept for download')
}

/** The archive was written but not every recipient received it: the execution is `failed`, not `error`. */
export class BackupDeliveryError extends Error {}
