/**
 * The task that runs an account automation execution (`accounts.tasks.execute_automation`, a task family: a
 * periodic automation's schedule row `…:<automation id>` starts a timed execution) and the account verify/push
 * task. Per asset: log in with the asset's privileged account, do the work, record the result. One asset's
 * failure never stops the others; a secret is stored only after the host took it and the new secret logged in.
 *
 * A new secret is never lost between the host and the database: before the host is touched, the candidate is sealed
 * into the execution's record for that account (secret_state 'pending'); after the new secret logged in it is
 * promoted to the account in the same transaction that clears the record's copy ('stored'); when the host may have
 * taken it but the login with it failed, the record keeps it ('unknown') for an administrator to read behind an MFA
 * confirmation (`/change-secret-records/<id>/secret/`, server/resources/accounts/secret-views.ts).
 */
import { setCredentialSource, type AssetCredential } from '../../automation/credentials.ts'
import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { SshError, withSsh } from '../../automation/ssh.ts'
import type { DB, RowOf } from '../../db/connection.ts'
import { addMessages } from '../../i18n.ts'
import { NOTIFICATION_TEXTS } from '../../notifications/catalog.ts'
import { notify } from '../../notifications/notify.ts'
import { defineTask, TaskFailed, type TaskContext } from '../../tasks/kinds.ts'
import { addHistory } from './accounts.ts'
import { BackupDeliveryError, runBackup } from './backup.ts'
import { AUTOMATION_TASK } from './automations.ts'
import { startExecution } from './executions.ts'
import {
  changeSecret, type Credential, type HostAsset, listAccounts, loadHostAsset, Privileged, pushAccount, randomPassword, randomSshKey, sshTarget, verifyLogin,
} from './hostops.ts'
import { openSecret, sealSecret } from './secrets.ts'

addMessages({
  'Execute an account automation': ['执行账号自动化', 'アカウント自動化を実行'],
  'Verify or push accounts': ['验证或推送账号', 'アカウントの検証またはプッシュ'],
})

/** Hosts are worked on this many at a time. */
export const CONCURRENCY = 5

async function pool<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await work(items[next++]!)
  }))
}

type Account = RowOf<'accounts'>
type Automation = RowOf<'account_automations'>
type Execution = RowOf<'account_automation_executions'>

const credOf = (db: DB, a: Account): Credential => ({
  username: String(a.username), secretType: String(a.secret_type),
  secret: openSecret(db, 'accounts', String(a.id), 'secret', a.secret), passphrase: openSecret(db, 'accounts', String(a.id), 'passphrase', a.passphrase) || undefined,
})

/** The asset's privileged account (active, with a secret), root first. */
async function privilegedOf(db: DB, assetId: string): Promise<Account | undefined> {
  return (await sql<Account>`select * from accounts where asset_id = ${assetId} and privileged and is_active and secret <> ''
    order by (username = 'root') desc, date_created limit 1`.execute(db)).rows[0]
}

/**
 * The connectivity tests of assets and gateways (server/automation/connectivity.ts) log in with the same
 * privileged account the automations use: installed once, when this module loads.
 */
setCredentialSource(async (db, assetIds) => {
  const out = new Map<string, AssetCredential>()
  for (const id of assetIds) {
    const priv = await privilegedOf(db, id)
    if (!priv) continue
    const c = credOf(db, priv)
    const key = c.secretType === 'ssh_key'
    out.set(id, { username: c.username, label: String(priv.name ?? c.username), ...(key ? { privateKey: c.secret, passphrase: c.passphrase } : { password: c.secret }) })
  }
  return out
})

/** Logs in as the asset's privileged account and hands a root runner to `work`. */
async function asPrivileged<T>(db: DB, asset: HostAsset, signal: AbortSignal, work: (p: Privileged) => Promise<T>): Promise<T> {
  const priv = await privilegedOf(db, asset.id)
  if (!priv) throw new Error(`no active privileged account with a secret on ${asset.name}`)
  if (asset.gatewayError) throw new Error(asset.gatewayError)
  const cred = credOf(db, priv)
  return withSsh(sshTarget(asset, cred), { timeoutMs: 15_000, signal, gateway: asset.gateway }, (session) => work(new Privileged(session, cred)))
}

const describe = (e: unknown) => (e instanceof SshError ? `${e.kind} (${e.hop}): ${e.message}` : (e as Error).message ?? String(e))

/** Assets of an automation: its assets and the assets under its nodes (in its organization). */
async function automationAssets(db: DB, automation: Automation): Promise<string[]> {
  const r = await sql<{ id: string }>`select a.id from assets a where a.org_id = ${automation.org_id} and a.is_active and (
      a.id in (select asset_id from account_automation_assets where automation_id = ${automation.id})
      or a.id in (select an.asset_id from asset_nodes an join nodes n on n.id = an.node_id join nodes p on p.id in
        (select node_id from account_automation_nodes where automation_id = ${automation.id}) where n.key = p.key or n.key like p.key || ':%'))
    order by a.name`.execute(db)
  return r.rows.map((x) => x.id)
}

async function targetAccounts(db: DB, automation: Automation, assetId: string): Promise<Account[]> {
  const names = (automation.accounts ?? []) as string[]
  const all = !names.length || names.includes('@ALL')
  return (await sql<Account>`select * from accounts where asset_id = ${assetId} and is_active
    ${all ? sql`` : sql`and username in (${sql.join(names)})`} order by username`.execute(db)).rows
}

interface Tally { total: number; ok: number; failed: number }

async function record(db: DB, executionId: string, asset: HostAsset | { id: string; name: string }, account: Account | undefined, started: Date, error: string): Promise<void> {
  await sql`insert into account_automation_records (id, execution_id, asset_id, account_id, asset_name, username, status, is_success, error, date_started, date_finished)
    values (${randomUUID()}, ${executionId}, ${asset.id}, ${account?.id ?? null}, ${asset.name}, ${String(account?.username ?? '')},
      ${error ? 'failed' : 'success'}, ${!error}, ${error.slice(0, 4000)}, ${started}, now())`.execute(db)
}

/** The new secret of one account by the automation's strategy. */
function newSecret(db: DB, automation: Automation): { secretType: string; secret: string; passphrase?: string } {
  const secretType = String(automation.secret_type ?? 'password')
  if (automation.secret_strategy === 'specific') {
    return {
      secretType,
      secret: openSecret(db, 'account_automations', String(automation.id), 'secret', automation.secret),
      passphrase: openSecret(db, 'account_automations', String(automation.id), 'passphrase', automation.passphrase) || undefined,
    }
  }
  return { secretType, secret: secretType === 'ssh_key' ? randomSshKey() : randomPassword(automation.password_rules as Record<string, unknown>) }
}

type NewSecret = { secretType: string; secret: string; passphrase?: string }

/** The record of one account's change, opened before the host is touched with the candidate secret sealed in it. */
async function openPendingRecord(db: DB, executionId: string, asset: HostAsset, account: Account, started: Date, s: NewSecret): Promise<string> {
  const id = randomUUID()
  await db.insertInto('account_automation_records').values({
    id, execution_id: executionId, asset_id: asset.id, account_id: String(account.id), asset_name: asset.name, username: String(account.username ?? ''),
    status: 'running', is_success: false, date_started: started, secret_type: s.secretType, secret_state: 'pending',
    pending_secret: sealSecret(db, 'account_automation_records', id, 'secret', s.secret),
    pending_passphrase: sealSecret(db, 'account_automation_records', id, 'passphrase', s.passphrase ?? ''),
  }).execute()
  return id
}

/** The host may hold the candidate but it was not verified: the record keeps it, its state 'unknown'. */
async function failPendingRecord(db: DB, recordId: string, error: string): Promise<void> {
  await db.updateTable('account_automation_records').set({ status: 'failed', is_success: false, error: error.slice(0, 4000), secret_state: 'unknown', date_finished: new Date() })
    .where('id', '=', recordId).execute()
}

/** Stores a secret the host now has: sealed, version + 1, a history row — and clears the record's pending copy, in one transaction. */
async function storeSecret(db: DB, account: Account, s: NewSecret, by: string, recordId?: string): Promise<void> {
  await db.transaction().execute(async (tx) => {
    if (recordId) {
      await tx.updateTable('account_automation_records').set({ status: 'success', is_success: true, error: '', secret_state: 'stored', pending_secret: '', pending_passphrase: '', date_finished: new Date() })
        .where('id', '=', recordId).execute()
    }
    const version = Number((await sql<{ version: number }>`update accounts set secret = ${sealSecret(db, 'accounts', String(account.id), 'secret', s.secret)},
      passphrase = ${sealSecret(db, 'accounts', String(account.id), 'passphrase', s.passphrase ?? '')}, secret_type = ${s.secretType},
      version = version + 1, connectivity = 'ok', date_verified = now(), date_updated = now() where id = ${account.id} returning version`.execute(tx)).rows[0]!.version)
    await addHistory(tx, db, String(account.id), s.secretType, s.secret, version, by)
  })
}

async function runPushOrChange(ctx: TaskContext, execution: Execution, automation: Automation, tally: Tally): Promise<void> {
  const db = ctx.db
  const change = automation.type === 'change_secret'
  const assets = await automationAssets(db, automation)
  await ctx.log(ctx.t('{n} asset(s), at most {max} at a time', { n: assets.length, max: CONCURRENCY }))
  const via = (a: HostAsset) => (a.gateway ? ` (through gateway ${a.gateway.name})` : '')
  await pool(assets, CONCURRENCY, async (assetId) => {
    const asset = await loadHostAsset(db, assetId)
    if (!asset) return
    const accounts = await targetAccounts(db, automation, assetId)
    const started = new Date()
    if (!accounts.length) { await ctx.log(ctx.t('{asset}: no matching account', { asset: asset.name })); return }
    try {
      await asPrivileged(db, asset, ctx.signal, async (p) => {
        for (const account of accounts) {
          const t0 = new Date()
          tally.total++
          const s = newSecret(db, automation)
          const recordId = await openPendingRecord(db, String(execution.id), asset, account, t0, s)
          try {
            if (change) await changeSecret(p, String(account.username), s.secretType, s.secret, s.passphrase, String(automation.ssh_key_change_strategy ?? 'add'))
            else {
              const params = { ...((asset.platformAutomation.push_account_params ?? {}) as Record<string, unknown>), ...((automation.params ?? {}) as Record<string, unknown>) }
              await pushAccount(p, { username: String(account.username), ...s }, {
                sudo: account.privileged ? String(params.sudo ?? '/bin/whoami') : undefined, shell: params.shell as string | undefined,
                home: params.home as string | undefined, groups: params.groups as string | undefined, keyStrategy: String(automation.ssh_key_change_strategy ?? 'add'),
              })
            }
            const check = await verifyLogin(asset, { username: String(account.username), ...s }, 15_000, ctx.signal)
            if (!check.ok) throw new Error(`the new secret does not log in: ${check.error}`)
            await storeSecret(db, account, s, `${automation.name}`, recordId)
            tally.ok++
            await ctx.log(ctx.t(change ? '{asset} {username}: secret changed, the new secret logs in' : '{asset} {username}: pushed, the new secret logs in', { asset: `${asset.name}${via(asset)}`, username: String(account.username) }))
          } catch (e) {
            tally.failed++
            await failPendingRecord(db, recordId, describe(e))
            await ctx.log(ctx.t("{asset} {username}: failed: {error}; the new secret is kept in the execution's record (the host may have it)", { asset: asset.name, username: String(account.username), error: describe(e) }))
          }
        }
      })
    } catch (e) {
      // the privileged login itself failed: every account of this asset fails, nothing was changed
      for (const account of accounts) {
        const done = (await sql`select 1 from account_automation_records where execution_id = ${execution.id} and account_id = ${account.id}`.execute(db)).rows.length
        if (done) continue
        tally.total++
        tally.failed++
        await record(db, String(execution.id), asset, account, started, describe(e))
      }
      await ctx.log(ctx.t('{asset}: failed: {error}', { asset: asset.name, error: describe(e) }))
    }
  })
}

async function runGather(ctx: TaskContext, execution: Execution, automation: Automation, tally: Tally): Promise<void> {
  const db = ctx.db
  const assets = await automationAssets(db, automation)
  await pool(assets, CONCURRENCY, async (assetId) => {
    const asset = await loadHostAsset(db, assetId)
    if (!asset) return
    const started = new Date()
    tally.total++
    try {
      const found = await asPrivileged(db, asset, ctx.signal, (p) => listAccounts(p))
      await db.transaction().execute(async (tx) => {
        await sql`update gathered_accounts set present = false, date_updated = now() where asset_id = ${asset.id}`.execute(tx)
        for (const a of found) {
          await sql`insert into gathered_accounts (id, org_id, asset_id, username, uid, shell, sudo, address_last_login, date_last_login, present)
            values (${randomUUID()}, ${automation.org_id}, ${asset.id}, ${a.username}, ${a.uid}, ${a.shell}, ${a.sudo}, ${a.lastFrom.slice(0, 64)}, ${a.lastLogin}, true)
            on conflict (asset_id, username) do update set uid = excluded.uid, shell = excluded.shell, sudo = excluded.sudo, present = true,
              address_last_login = excluded.address_last_login, date_last_login = coalesce(excluded.date_last_login, gathered_accounts.date_last_login), date_updated = now()`.execute(tx)
          if (automation.is_sync_account) {
            await sql`insert into accounts (id, org_id, asset_id, name, username, source, source_id, created_by)
              select ${randomUUID()}, ${automation.org_id}, ${asset.id}, ${a.username}, ${a.username}, 'collected', ${String(automation.id)}, ${String(automation.name).slice(0, 128)}
              where not exists (select 1 from accounts where asset_id = ${asset.id} and (username = ${a.username} or name = ${a.username}))`.execute(tx)
          }
        }
      })
      tally.ok++
      await record(db, String(execution.id), asset, undefined, started, '')
      await ctx.log(ctx.t('{asset}: {n} account(s): {names}', { asset: asset.name, n: found.length, names: found.map((a) => a.username).join(', ') }))
    } catch (e) {
      tally.failed++
      await record(db, String(execution.id), asset, undefined, started, describe(e))
      await ctx.log(ctx.t('{asset}: failed: {error}', { asset: asset.name, error: describe(e) }))
    }
  })
}

/** The end of an automation or an account task, as a system message (AccountAutomationResultMsg). */
async function tellSubscribers(ctx: TaskContext, kind: string, name: string, tally: Tally, details: string): Promise<void> {
  try {
    await notify(ctx.database, 'AccountAutomationResultMsg', { subject: NOTIFICATION_TEXTS.accountSubject, message: NOTIFICATION_TEXTS.accountBody,
      vars: { kind, name, ok: tally.ok, failed: tally.failed, details: details || `${tally.total} account(s)` } }, (t) => void ctx.log(t))
  } catch (e) {
    await ctx.log(ctx.t('the result message was not sent: {error}', { error: (e as Error).message }))
  }
}

/** The task's own state follows the execution's: anything but a success fails the task (issue 35). */
function outcome<T extends { status: string } & Tally>(ctx: TaskContext, result: T): T {
  if (result.status !== 'success') throw new TaskFailed(ctx.t('{status}: {ok} of {total} done, {failed} failed', { status: ctx.t(result.status), ok: result.ok, total: result.total, failed: result.failed }), result)
  return result
}

/** Runs one execution to its end state. */
export async function runExecution(ctx: TaskContext, executionId: string): Promise<{ execution: string; status: string } & Tally> {
  const db = ctx.db
  const execution = (await sql<Execution>`select * from account_automation_executions where id = ${executionId}`.execute(db)).rows[0]
  if (!execution) throw new Error(`no execution ${executionId}`)
  const automation = (await sql<Automation>`select * from account_automations where id = ${execution.automation_id}`.execute(db)).rows[0]!
  await sql`update account_automation_executions set status = 'running', date_start = now() where id = ${executionId}`.execute(db)
  await ctx.log(`${String(automation.type)} "${String(automation.name)}" (execution ${executionId})`)
  const tally: Tally = { total: 0, ok: 0, failed: 0 }
  let status = 'success'
  let reason = ''
  try {
    if (automation.type === 'gather_accounts') await runGather(ctx, execution, automation, tally)
    else if (automation.type === 'backup_account') await runBackup(ctx, execution, automation, tally)
    else await runPushOrChange(ctx, execution, automation, tally)
    if (tally.failed) status = 'failed'
  } catch (e) {
    status = ctx.signal.aborted ? 'canceled' : e instanceof BackupDeliveryError ? 'failed' : 'error'
    reason = describe(e)
    await ctx.log(ctx.t('error: {error}', { error: reason }))
  }
  await sql`update account_automation_executions set status = ${status}, reason = ${reason.slice(0, 4000)}, date_finished = now(),
    summary = ${JSON.stringify(tally)}::jsonb where id = ${executionId}`.execute(db)
  await ctx.log(ctx.t('{status}: {ok} of {total} done, {failed} failed', { status: ctx.t(status), ok: tally.ok, total: tally.total, failed: tally.failed }))
  await tellSubscribers(ctx, String(automation.type), String(automation.name), tally, reason)
  return { execution: executionId, status, ...tally }
}

defineTask({
  name: AUTOMATION_TASK,
  displayName: 'Execute an account automation',
  family: true,
  async run(ctx) {
    const scheduled = ctx.name.startsWith(`${AUTOMATION_TASK}:`) ? ctx.name.slice(AUTOMATION_TASK.length + 1) : undefined
    if (scheduled) {
      const automation = (await sql<Automation>`select * from account_automations where id = ${scheduled}`.execute(ctx.db)).rows[0]
      if (!automation?.is_active) return { skipped: true }
      // a timed run: the execution is created here and runs in this same task (its log is this task's)
      const { execution } = await startExecution(ctx.db, automation, 'timing', { display: 'System' }, async () => ctx.id)
      return outcome(ctx, await runExecution(ctx, execution))
    }
    const id = String(ctx.kwargs.execution_id ?? '')
    return outcome(ctx, await runExecution(ctx, id))
  },
})

export const ACCOUNT_TASK = 'accounts.tasks.verify_or_push_accounts'

/** `POST /accounts/accounts/tasks/ {action: verify|push, accounts}`: log in with each stored secret (verify), or push it. */
defineTask({
  name: ACCOUNT_TASK,
  displayName: 'Verify or push accounts',
  async run(ctx) {
    const db = ctx.db
    const action = ctx.kwargs.action === 'push' ? 'push' : 'verify'
    const ids = (Array.isArray(ctx.kwargs.accounts) ? ctx.kwargs.accounts : []).map(String)
    const rows = ids.length ? (await sql<Account>`select * from accounts where id in (${sql.join(ids)}) order by username`.execute(db)).rows : []
    const tally = { total: rows.length, ok: 0, failed: 0 }
    await pool(rows, CONCURRENCY, async (account) => {
      const asset = await loadHostAsset(db, String(account.asset_id))
      if (!asset) return
      const cred = credOf(db, account)
      try {
        if (action === 'push') {
          await asPrivileged(db, asset, ctx.signal, (p) => pushAccount(p, cred, { sudo: account.privileged ? '/bin/whoami' : undefined }))
        }
        const r = await verifyLogin(asset, cred, 15_000, ctx.signal)
        await sql`update accounts set connectivity = ${r.ok ? 'ok' : 'err'}, date_verified = now() where id = ${account.id}`.execute(db)
        if (r.ok) tally.ok++
        else tally.failed++
        await ctx.log(ctx.t(r.ok ? (action === 'push' ? '{asset} {username}: pushed, logs in' : '{asset} {username}: logs in') : (action === 'push' ? '{asset} {username}: pushed, does not log in: {error}' : '{asset} {username}: does not log in: {error}'), { asset: asset.name, username: String(account.username), error: r.ok ? '' : r.error }))
      } catch (e) {
        tally.failed++
        await sql`update accounts set connectivity = 'err', date_verified = now() where id = ${account.id}`.execute(db)
        await ctx.log(ctx.t('{asset} {username}: failed: {error}', { asset: asset.name, username: String(account.username), error: describe(e) }))
      }
    })
    await tellSubscribers(ctx, action, `${rows.length} account(s)`, tally, '')
    if (tally.failed) throw new TaskFailed(ctx.t('{status}: {ok} of {total} done, {failed} failed', { status: ctx.t('failed'), ok: tally.ok, total: tally.total, failed: tally.failed }), tally)
    return tally
  },
})

addMessages({
  '{n} asset(s), at most {max} at a time': ['{n} 个资产，最多同时 {max} 个', '{n} 件の資産、同時に最大 {max} 件'],
  '{asset}: no matching account': ['{asset}：没有匹配的账号', '{asset}: 一致するアカウントがありません'],
  '{asset} {username}: secret changed, the new secret logs in': ['{asset} {username}：已改密，新密码可以登录', '{asset} {username}: シークレットを変更し、新しいシークレットでログインできます'],
  '{asset} {username}: pushed, the new secret logs in': ['{asset} {username}：已推送，新密码可以登录', '{asset} {username}: プッシュしました。新しいシークレットでログインできます'],
  "{asset} {username}: failed: {error}; the new secret is kept in the execution's record (the host may have it)": ['{asset} {username}：失败：{error}；新密码保存在执行记录中（主机可能已使用它）', '{asset} {username}: 失敗: {error}。新しいシークレットは実行記録に保存されています（ホストが使用している可能性があります）'],
  '{asset}: failed: {error}': ['{asset}：失败：{error}', '{asset}: 失敗: {error}'],
  '{asset}: {n} account(s): {names}': ['{asset}：{n} 个账号：{names}', '{asset}: {n} 件のアカウント: {names}'],
  'the result message was not sent: {error}': ['结果消息未发送：{error}', '結果メッセージは送信されませんでした: {error}'],
  'error: {error}': ['错误：{error}', 'エラー: {error}'],
  '{status}: {ok} of {total} done, {failed} failed': ['{status}：完成 {ok}/{total}，失败 {failed}', '{status}: {total} 件中 {ok} 件完了、{failed} 件失敗'],
  '{asset} {username}: pushed, logs in': ['{asset} {username}：已推送，可以登录', '{asset} {username}: プッシュしました。ログインできます'],
  '{asset} {username}: logs in': ['{asset} {username}：可以登录', '{asset} {username}: ログインできます'],
  '{asset} {username}: pushed, does not log in: {error}': ['{asset} {username}：已推送，无法登录：{error}', '{asset} {username}: プッシュしましたが、ログインできません: {error}'],
  '{asset} {username}: does not log in: {error}': ['{asset} {username}：无法登录：{error}', '{asset} {username}: ログインできません: {error}'],
  '{asset} {username}: failed: {error}': ['{asset} {username}：失败：{error}', '{asset} {username}: 失敗: {error}'],
  'success': ['成功', '成功'],
  'failed': ['失败', '失敗'],
  'error': ['错误', 'エラー'],
  'canceled': ['已取消', 'キャンセル済み'],
})
