/**
 * Executions of the account automations and their per-asset records (contract §5.3):
 * `/push-account-executions/`, `/change-secret-executions/`, `/gather-account-executions/`,
 * `/account-backup-plan-executions/` (list, detail; `POST {automation}` → 201 `{task}`: the execution is queued
 * as the background task `accounts.tasks.execute_automation`, whose id is the live log's), the records
 * `/change-secret-records/?execution=<id>` and the gathered accounts.
 */
import { randomUUID } from 'node:crypto'
import type { FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import type { DB, RowOf } from '../../db/connection.ts'
import { userDisplay } from '../../engine/index.ts'
import type { Ctx, FieldDef, ResourceDef } from '../../engine/types.ts'
import { requireUser } from '../../http/context.ts'
import { validationError } from '../../http/errors.ts'
import { addMessages, tr } from '../../i18n.ts'
import { ORG_IDS } from '../../rbac/catalog.ts'
import { taskRunner } from '../../tasks/service.ts'
import { AUTOMATION_DEFS, AUTOMATION_TASK, AUTOMATION_TYPES, type AutomationType, SECRET_GUARD } from './automations.ts'
import { createdBy } from '../common.ts'

addMessages({
  'Automation execution': ['自动化执行', '自動化の実行'],
  'Push account execution': ['账号推送执行', 'アカウントプッシュの実行'],
  'Change secret execution': ['改密执行', 'シークレット変更の実行'],
  'Gather account execution': ['账号收集执行', 'アカウント収集の実行'],
  'Account backup execution': ['账号备份执行', 'アカウントバックアップの実行'],
  'Automation record': ['执行记录', '実行記録'],
  'New secret': ['新密文', '新しいシークレット'],
  'Not changed': ['未改变', '変更なし'],
  'Waiting for the host': ['等待主机', 'ホスト待ち'],
  'Stored': ['已保存', '保存済み'],
  'Unknown: kept in this record': ['未知：保存在此记录中', '不明：この記録に保存'],
  'Gathered account': ['收集的账号', '収集されたアカウント'],
  'Automation': ['自动化', '自動化'],
  'Trigger mode': ['触发方式', 'トリガー方式'],
  'Manual trigger': ['手动触发', '手動トリガー'],
  'Timing trigger': ['定时触发', 'タイマートリガー'],
  'Status': ['状态', '状態'],
  'Ready': ['准备', '準備完了'],
  'Pending': ['待定', '保留中'],
  'Running': ['运行中', '実行中'],
  'Success': ['成功', '成功'],
  'Error': ['错误', 'エラー'],
  'Canceled': ['取消', 'キャンセル'],
  'Date start': ['开始日期', '開始日'],
  'Date finished': ['结束日期', '終了日'],
  'Time cost': ['花费时间', '所要時間'],
  'Snapshot': ['快照', 'スナップショット'],
  'Summary': ['汇总', '概要'],
  'Total': ['总数', '合計'],
  'Succeeded': ['成功', '成功'],
  'Reason': ['原因', '理由'],
  'Recipients': ['收件人', '受信者'],
  'Task': ['任务', 'タスク'],
  'Execution': ['执行', '実行'],
  'Is success': ['是否成功', '成功'],
  'UID': ['UID', 'UID'],
  'Shell': ['Shell', 'シェル'],
  'Sudo': ['Sudo', 'Sudo'],
  'Present': ['存在', '存在'],
  'Address last login': ['最后登录地址', '最終ログインアドレス'],
  'Date last login': ['最后登录日期', '最終ログイン日'],
  'The automation is not active.': ['该自动化未激活。', 'この自動化は無効です。'],
  'Has backup file': ['有备份文件', 'バックアップファイルあり'],
})

export const STATUS = ['ready', 'pending', 'running', 'success', 'failed', 'error', 'canceled'].map((v) => ({ value: v, label: v === 'failed' ? 'Failed' : v[0]!.toUpperCase() + v.slice(1) }))
/** Where a change's new secret is (run.ts): '' nothing changed, pending before verification, stored, unknown kept here. */
export const SECRET_STATES = [
  { value: '', label: 'Not changed' }, { value: 'pending', label: 'Waiting for the host' }, { value: 'stored', label: 'Stored' },
  { value: 'unknown', label: 'Unknown: kept in this record' },
]
const TRIGGERS = [{ value: 'manual', label: 'Manual trigger' }, { value: 'timing', label: 'Timing trigger' }]

const timedelta = (row: Pick<RowOf<'account_automation_executions'>, 'date_start' | 'date_finished'>) => {
  if (!row.date_start) return 0
  const end = row.date_finished ? new Date(row.date_finished).getTime() : Date.now()
  return Math.round((end - new Date(row.date_start).getTime()) / 10) / 100
}

const orgOf = (ctx: Ctx) => (ctx.orgId === ORG_IDS.ROOT ? undefined : ctx.orgId)

/** Creates an execution row (with the automation's snapshot) and queues its task; answers the task id. */
/** What an execution's snapshot and summary hold, labelled for their structured views (issue 35). */
const SNAPSHOT_CHILDREN: FieldDef[] = [
  { name: 'name', type: 'string', label: 'Name' }, { name: 'type_display', type: 'string', label: 'Type' },
  { name: 'accounts', type: 'list', label: 'Accounts' }, { name: 'asset_amount', type: 'integer', label: 'Assets amount' },
  { name: 'node_amount', type: 'integer', label: 'Nodes amount' }, { name: 'secret_type', type: 'string', label: 'Secret type' },
  { name: 'secret_strategy', type: 'string', label: 'Secret strategy' }, { name: 'comment', type: 'string', label: 'Comment' },
]
const SUMMARY_CHILDREN: FieldDef[] = [
  { name: 'total', type: 'integer', label: 'Total' }, { name: 'ok', type: 'integer', label: 'Succeeded' }, { name: 'failed', type: 'integer', label: 'Failed' },
]

export async function startExecution(db: DB, automation: RowOf<'account_automations'>, trigger: 'manual' | 'timing', by: { id?: string; display: string }, enqueue: (kwargs: Record<string, unknown>) => Promise<string>): Promise<{ execution: string; task: string }> {
  const id = randomUUID()
  const assets = (await sql<{ n: number }>`select count(*)::int as n from account_automation_assets where automation_id = ${automation.id}`.execute(db)).rows[0]!.n
  const nodes = (await sql<{ n: number }>`select count(*)::int as n from account_automation_nodes where automation_id = ${automation.id}`.execute(db)).rows[0]!.n
  const recipients = (await sql<Pick<RowOf<'users'>, 'id' | 'name' | 'username' | 'email'>>`select u.id, u.name, u.username, u.email from account_automation_recipients r join users u on u.id = r.user_id where r.automation_id = ${automation.id}`.execute(db)).rows
  const type = String(automation.type)
  const snapshot = {
    type, type_display: AUTOMATION_TYPES.find((t) => t.value === type)?.label ?? type, name: automation.name, comment: automation.comment,
    accounts: automation.accounts ?? [], node_amount: nodes, asset_amount: assets, secret_type: automation.secret_type, secret_strategy: automation.secret_strategy,
  }
  await sql`insert into account_automation_executions (id, org_id, automation_id, type, trigger, status, snapshot, recipients, created_by)
    values (${id}, ${automation.org_id}, ${automation.id}, ${type}, ${trigger}, 'pending', ${JSON.stringify(snapshot)}::jsonb,
      ${JSON.stringify(recipients.map((r) => ({ id: r.id, name: r.name, username: r.username })))}::jsonb, ${by.display.slice(0, 128)})`.execute(db)
  const task = await enqueue({ execution_id: id })
  await sql`update account_automation_executions set task_id = ${task} where id = ${id}`.execute(db)
  return { execution: id, task }
}

async function createExecution(type: AutomationType, req: FastifyRequest): Promise<unknown> {
  const ctx = req.ctx
  const user = requireUser(req)
  const body = req.body as Record<string, unknown> | null
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw validationError({ non_field_errors: [tr(ctx.lang, 'Invalid data. Expected a dictionary, but got {type}.', { type: Array.isArray(body) ? 'list' : typeof body })] })
  const raw = body.automation && typeof body.automation === 'object' ? (body.automation as { id?: unknown }).id : body.automation
  if (raw === undefined || raw === null || raw === '') throw validationError({ automation: [tr(ctx.lang, 'This field is required.')] })
  const id = String(raw)
  const org = orgOf(ctx)
  const automation = /^[0-9a-f-]{36}$/i.test(id)
    ? (await sql<RowOf<'account_automations'>>`select * from account_automations where id = ${id} and type = ${type} ${org ? sql`and org_id = ${org}` : sql``}`.execute(ctx.db)).rows[0]
    : undefined
  if (!automation) throw validationError({ automation: [tr(ctx.lang, 'Invalid pk "{pk}" - object does not exist.', { pk: id })] })
  if (!automation.is_active) throw validationError({ automation: [tr(ctx.lang, 'The automation is not active.')] })
  const runner = taskRunner(req.server)
  if (!runner) throw new Error('no task runner')
  const r = await startExecution(ctx.db, automation, 'manual', { id: user.id, display: userDisplay(user) },
    (kwargs) => runner.enqueue(AUTOMATION_TASK, { kwargs, creatorId: user.id, creator: userDisplay(user), lang: req.ctx.lang }))
  return { task: r.task, id: r.execution }
}

function executionDef(type: AutomationType, o: { name: string; verboseName: string; path: string; perms?: ResourceDef['perms'] }): ResourceDef<'account_automation_executions'> {
  const automation = AUTOMATION_DEFS[type]
  return {
    name: o.name,
    app: 'accounts',
    model: 'automationexecution',
    verboseName: o.verboseName,
    path: o.path,
    table: 'account_automation_executions',
    orgScoped: true,
    verbs: ['list', 'retrieve', 'create', 'export'],
    perms: o.perms,
    noAudit: true,
    fields: [
      { name: 'id', type: 'uuid', label: 'ID', read_only: true },
      { name: 'automation', type: 'fk', label: 'Automation', required: true, relation: { resource: automation.name, attrs: ['id', 'name'] } },
      { name: 'type', type: 'labeled_choice', label: 'Type', read_only: true, choices: AUTOMATION_TYPES },
      { name: 'trigger', type: 'labeled_choice', label: 'Trigger mode', read_only: true, choices: TRIGGERS },
      { name: 'status', type: 'labeled_choice', label: 'Status', read_only: true, choices: STATUS },
      { name: 'date_start', type: 'datetime', label: 'Date start', read_only: true },
      { name: 'date_finished', type: 'datetime', label: 'Date finished', read_only: true },
      { name: 'timedelta', type: 'float', label: 'Time cost', read_only: true, column: false, get: timedelta },
      { name: 'snapshot', type: 'json', label: 'Snapshot', read_only: true, children: SNAPSHOT_CHILDREN },
      { name: 'summary', type: 'json', label: 'Summary', read_only: true, children: SUMMARY_CHILDREN },
      { name: 'reason', type: 'string', label: 'Reason', read_only: true },
      { name: 'recipients', type: 'json', label: 'Recipients', read_only: true },
      { name: 'task_id', type: 'string', label: 'Task', read_only: true },
      { name: 'has_artifact', type: 'boolean', label: 'Has backup file', read_only: true, expr: '(t.artifact is not null)' },
      createdBy,
      { name: 'date_created', type: 'datetime', label: 'Date created', read_only: true },
    ],
    scope: () => sql`t.type = ${type}`,
    filters: ['id', 'automation', 'status', 'trigger'],
    ordering: { fields: ['date_created', 'date_start', 'date_finished', 'status'], default: ['-date_created'] },
    hooks: { create: async (req, reply) => reply.status(201).send(await createExecution(type, req)) },
  }
}

export const pushExecutions = executionDef('push_account', { name: 'accounts.pushaccountexecution', verboseName: 'Push account execution', path: '/api/v1/accounts/push-account-executions/' })
export const changeSecretExecutions = executionDef('change_secret', { name: 'accounts.changesecretexecution', verboseName: 'Change secret execution', path: '/api/v1/accounts/change-secret-executions/' })
export const gatherExecutions = executionDef('gather_accounts', { name: 'accounts.gatheraccountsexecution', verboseName: 'Gather account execution', path: '/api/v1/accounts/gather-account-executions/' })
export const backupExecutions = executionDef('backup_account', {
  name: 'accounts.accountbackupexecution', verboseName: 'Account backup execution', path: '/api/v1/accounts/account-backup-plan-executions/',
  perms: { view: 'accounts.view_accountbackupautomation', add: 'accounts.add_automationexecution' },
})
// Running a backup mails every secret of the organization (issue 36 point 5).
backupExecutions.secretGuard = SECRET_GUARD

const executionOrgCond = (ctx: Ctx) => (orgOf(ctx) ? sql`t.execution_id in (select e.id from account_automation_executions e where e.org_id = ${ctx.orgId})` : undefined)

export const automationRecords: ResourceDef<'account_automation_records'> = {
  name: 'accounts.changesecretrecord',
  app: 'accounts',
  model: 'changesecretrecord',
  verboseName: 'Automation record',
  path: '/api/v1/accounts/change-secret-records/',
  table: 'account_automation_records',
  verbs: ['list', 'retrieve', 'export'],
  noAudit: true,
  fields: [
    { name: 'id', type: 'uuid', label: 'ID', read_only: true },
    { name: 'execution', type: 'uuid', label: 'Execution', read_only: true, column: 'execution_id' },
    { name: 'asset', type: 'fk', label: 'Asset', read_only: true, allow_null: true, relation: { resource: 'assets.asset', attrs: ['id', 'name', 'address'], unscoped: true } },
    { name: 'account', type: 'fk', label: 'Account', read_only: true, allow_null: true, relation: { resource: 'accounts.account', attrs: ['id', 'name', 'username'], unscoped: true } },
    { name: 'asset_name', type: 'string', label: 'Asset', read_only: true },
    { name: 'username', type: 'string', label: 'Username', read_only: true },
    { name: 'status', type: 'labeled_choice', label: 'Status', read_only: true, choices: STATUS },
    { name: 'is_success', type: 'boolean', label: 'Is success', read_only: true },
    { name: 'error', type: 'string', label: 'Error', read_only: true },
    { name: 'secret_state', type: 'labeled_choice', label: 'New secret', read_only: true, choices: SECRET_STATES },
    { name: 'date_started', type: 'datetime', label: 'Date start', read_only: true },
    { name: 'date_finished', type: 'datetime', label: 'Date finished', read_only: true },
    { name: 'timedelta', type: 'float', label: 'Time cost', read_only: true, column: false, get: (row) => timedelta({ date_start: row.date_started, date_finished: row.date_finished }) },
  ] as FieldDef[],
  scope: executionOrgCond,
  filters: ['id', 'execution', 'asset', 'account', 'status', 'is_success', 'secret_state'],
  ordering: { fields: ['date_started', 'asset_name', 'username', 'status'], default: ['asset_name', 'username'] },
}

export const gatheredAccounts: ResourceDef<'gathered_accounts'> = {
  name: 'accounts.gatheredaccount',
  app: 'accounts',
  model: 'gatheredaccount',
  verboseName: 'Gathered account',
  path: '/api/v1/accounts/gathered-accounts/',
  table: 'gathered_accounts',
  orgScoped: true,
  verbs: ['list', 'retrieve', 'destroy', 'bulk_destroy', 'export'],
  fields: [
    { name: 'id', type: 'uuid', label: 'ID', read_only: true },
    { name: 'asset', type: 'fk', label: 'Asset', read_only: true, relation: { resource: 'assets.asset', attrs: ['id', 'name', 'address'] } },
    { name: 'username', type: 'string', label: 'Username', read_only: true },
    { name: 'uid', type: 'integer', label: 'UID', read_only: true },
    { name: 'shell', type: 'string', label: 'Shell', read_only: true },
    { name: 'sudo', type: 'boolean', label: 'Sudo', read_only: true },
    { name: 'present', type: 'boolean', label: 'Present', read_only: true },
    { name: 'address_last_login', type: 'string', label: 'Address last login', read_only: true },
    { name: 'date_last_login', type: 'datetime', label: 'Date last login', read_only: true },
    { name: 'date_created', type: 'datetime', label: 'Date created', read_only: true },
    { name: 'date_updated', type: 'datetime', label: 'Date updated', read_only: true },
  ],
  search: ['username'],
  filters: ['id', 'asset', 'username', 'present', 'sudo'],
  ordering: { fields: ['username', 'date_last_login', 'date_updated'], default: ['username'] },
  display: (row) => String(row.username),
}
