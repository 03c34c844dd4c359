/**
 * The daily clean-up (JumpServer's `audits.tasks.clean_audits_log_period`, 02:00 by default): deletes logs older
 * than the retention days of the Clean settings, finished task executions older than TASK_LOG_KEEP_DAYS, and
 * expired sessions, spm caches and bearer tokens. Modules with their own logs add a rule with `addCleanRule`.
 */
import { sql } from 'kysely'
import type { DB } from '../db/connection.ts'
import { purgeExpiredSessions } from '../http/session.ts'
import { addMessages } from '../i18n.ts'
import { getSetting } from '../settings/store.ts'
import { defineTask, type TaskContext } from './kinds.ts'

export interface CleanRule {
  /** What is deleted, for the log (English). */
  label: string
  table: string
  /** Timestamp column compared with the cut-off. */
  column: string
  /** The Clean setting holding the retention in days. */
  setting: string
  /** Extra condition on the rows to delete (SQL over the table's columns). */
  where?: string
  /**
   * Columns of the deleted rows handed to `afterDelete` (`delete … returning`), for what lives outside the
   * database (a session's replay file). Called after each batch is deleted: a file left over by a failure is
   * garbage, never a row pointing at a missing file.
   */
  returning?: string[]
  afterDelete?: (rows: Array<Record<string, unknown>>, ctx: TaskContext) => Promise<void>
}

const rules: CleanRule[] = [
  { label: 'login logs', table: 'login_logs', column: 'datetime', setting: 'LOGIN_LOG_KEEP_DAYS' },
  { label: 'operate logs', table: 'operate_logs', column: 'datetime', setting: 'OPERATE_LOG_KEEP_DAYS' },
  { label: 'password change logs', table: 'password_change_logs', column: 'datetime', setting: 'OPERATE_LOG_KEEP_DAYS' },
  { label: 'activity logs', table: 'activity_logs', column: 'datetime', setting: 'ACTIVITY_LOG_KEEP_DAYS' },
  { label: 'task executions and their logs', table: 'task_executions', column: 'date_published', setting: 'TASK_LOG_KEEP_DAYS', where: `state in ('SUCCESS', 'FAILURE')` },
]

/** Adds what a module's own logs need cleaning by (e.g. FTP logs with FTP_LOG_KEEP_DAYS). */
export function addCleanRule(rule: CleanRule): void {
  if (!rules.some((r) => r.table === rule.table && r.where === rule.where)) rules.push(rule)
}

/** Rows deleted per statement: bounds each statement's time and locks on large tables. */
const BATCH = 5_000
const DAY_MS = 86_400_000

async function deleteOlder(db: DB, rule: CleanRule, cutoff: Date, ctx: TaskContext): Promise<number> {
  const extra = rule.where ? sql.raw(` and (${rule.where})`) : sql``
  const returning = rule.returning?.length ? sql` returning ${sql.join(rule.returning.map((c) => sql.ref(c)))}` : sql``
  let total = 0
  for (;;) {
    ctx.signal.throwIfAborted()
    const r = await sql<Record<string, unknown>>`delete from ${sql.table(rule.table)} where id in (
      select id from ${sql.table(rule.table)} where ${sql.ref(rule.column)} < ${cutoff}${extra} limit ${BATCH})${returning}`.execute(db)
    const n = rule.returning?.length ? r.rows.length : Number(r.numAffectedRows ?? 0n)
    if (rule.afterDelete && r.rows.length) await rule.afterDelete(r.rows, ctx)
    total += n
    if (n < BATCH) return total
  }
}

export async function runCleanup(ctx: TaskContext): Promise<Record<string, number>> {
  const now = ctx.now()
  const result: Record<string, number> = {}
  for (const rule of rules) {
    const days = Number(await getSetting(ctx.db, rule.setting))
    if (!Number.isFinite(days) || days < 1) {
      await ctx.log(`Skipping ${rule.label}: ${rule.setting} is not a number of days (${String(days)})`)
      continue
    }
    const cutoff = new Date(now.getTime() - days * DAY_MS)
    await ctx.log(`Deleting ${rule.label} older than ${days} days (before ${cutoff.toISOString()}) ...`)
    const n = await deleteOlder(ctx.db, rule, cutoff, ctx)
    result[rule.table] = (result[rule.table] ?? 0) + n
    await ctx.log(`  deleted ${n}`)
  }
  await ctx.log('Purging expired sessions, resource caches (spm) and tokens ...')
  const purged = await purgeExpiredSessions(ctx.db, now)
  await ctx.log(`  deleted ${purged.sessions} sessions, ${purged.caches} resource caches, ${purged.tokens} tokens`)
  Object.assign(result, { sessions: purged.sessions, resource_cache: purged.caches, auth_tokens: purged.tokens })
  await ctx.log('Clean-up finished')
  return result
}

export const CLEANUP_TASK = 'audits.tasks.clean_audits_log_period'

export const cleanupTask = defineTask({
  name: CLEANUP_TASK,
  displayName: 'Clean up expired logs and data',
  comment: 'Deletes login, operate, activity and task logs older than the Clean settings, and expired sessions, caches and tokens',
  queue: 'celery_default',
  schedule: { crontab: '0 2 * * *', enabled: true },
  run: runCleanup,
})

addMessages({
  'Clean up expired logs and data': ['清理过期日志和数据', '期限切れのログとデータのクリーンアップ'],
  'Deletes login, operate, activity and task logs older than the Clean settings, and expired sessions, caches and tokens': [
    '按定期清理设置删除过期的登录、操作、活动和任务日志，以及过期的会话、缓存和令牌',
    'クリーンアップ設定より古いログイン・操作・アクティビティ・タスクのログと、期限切れのセッション・キャッシュ・トークンを削除します'],
})
