/**
 * Task kinds `/api/v1/ops/tasks/` (JumpServer's CeleryTask: name, meta, summary, state, date_last_publish,
 * exec_cycle, next_exec_time, enabled — plus the editable schedule `crontab`/`interval`) and their executions
 * `/api/v1/ops/task-executions/[?task_id=]` (CeleryTaskExecution). Both are engine resources (docs/engine.md).
 */
import type { FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import { validationError } from '../http/errors.ts'
import type { FieldDef, ResourceDef } from '../engine/types.ts'
import { isUuid, normUuid } from '../engine/parse.ts'
import { userDisplay } from '../engine/audit.ts'
import { addMessages, tr } from '../i18n.ts'
import { idField } from '../resources/common.ts'
import { taskKind } from './kinds.ts'
import { execCycle, nextRun, parseCron } from './schedule.ts'
import { taskRunner } from './service.ts'

const MAX_INTERVAL_HOURS = 24 * 365

function kindMeta(name: string, lang: Parameters<typeof tr>[0]) {
  const kind = taskKind(name)
  return {
    display_name: kind ? tr(lang, kind.displayName) : name,
    comment: kind?.comment ? tr(lang, kind.comment) : kind ? tr(lang, kind.displayName) : name,
    queue: kind?.queue ?? 'celery_default',
  }
}

const STATE_EXPR = `(select case when (array_agg(x.state order by x.date_published desc))[1] = 'FAILURE' then 'red'
  when bool_or(x.state = 'FAILURE') then 'yellow' else 'green' end
  from (select e.state, e.date_published from task_executions e where e.task_name = t.name
        order by e.date_published desc limit 5) x)`

export const celeryTasks: ResourceDef<'celery_tasks'> = {
  name: 'ops.celerytask',
  app: 'ops',
  model: 'celerytask',
  verboseName: 'Celery task',
  title: 'Task list',
  path: '/api/v1/ops/tasks/',
  table: 'celery_tasks',
  systemPerms: true,
  auditOrg: 'system',
  verbs: ['list', 'retrieve', 'update', 'export'],
  perms: { view: 'ops.view_celerytask', change: 'ops.change_celerytask' },
  fields: [
    idField(),
    { name: 'name', type: 'string', label: 'Name', read_only: true, max_length: 1024 },
    { name: 'meta', type: 'json', label: 'Meta', read_only: true, column: false, get: (row, ctx) => kindMeta(String(row.name), ctx.lang) },
    {
      name: 'summary', type: 'json', label: 'Summary', read_only: true,
      expr: `(select json_build_object('total', count(*)::int, 'success', (count(*) filter (where e.state = 'SUCCESS'))::int)
        from task_executions e where e.task_name = t.name)`,
    },
    {
      name: 'state', type: 'choice', label: 'State', read_only: true, expr: STATE_EXPR,
      choices: [{ value: 'green', label: 'Green' }, { value: 'yellow', label: 'Yellow' }, { value: 'red', label: 'Red' }],
    },
    { name: 'date_last_publish', type: 'datetime', label: 'Last published time', read_only: true },
    {
      name: 'exec_cycle', type: 'string', label: 'Execution cycle', read_only: true, column: false,
      get: (row, ctx) => {
        const c = execCycle({ crontab: String(row.crontab ?? ''), interval: row.interval ?? null })
        if (!c) return null
        return 'crontab' in c ? c.crontab : tr(ctx.lang, 'Every {n} hours', { n: c.hours })
      },
    },
    { name: 'next_exec_time', type: 'datetime', label: 'Next execution time', read_only: true, expr: '(case when t.enabled then t.next_run_at end)' },
    { name: 'enabled', type: 'boolean', label: 'Enabled', default: false },
    {
      name: 'crontab', type: 'string', label: 'Crontab', max_length: 128, allow_blank: true, default: '',
      help_text: 'Five fields: minute hour day-of-month month day-of-week, e.g. 0 2 * * * (daily at 02:00)',
      validate: (v: string) => (v && !parseCron(v) ? 'Not a valid cron expression (five fields: minute hour day month weekday)' : undefined),
    },
    { name: 'interval', type: 'integer', label: 'Interval (hours)', allow_null: true, min_value: 1, max_value: MAX_INTERVAL_HOURS },
  ],
  search: ['name'],
  filters: ['id', 'name', 'enabled'],
  ordering: { fields: ['name', 'date_last_publish', 'next_exec_time', 'enabled'], default: ['name'] },
  hooks: {
    validate: (values, ctx, info) => {
      const merged = { ...(info.existing ?? {}), ...values }
      if (merged.crontab && merged.interval) {
        return { interval: [tr(ctx.lang, 'Set either a crontab or an interval, not both')] }
      }
      if (merged.enabled && !merged.crontab && !merged.interval) {
        return { enabled: [tr(ctx.lang, 'Set a crontab or an interval before enabling the schedule')] }
      }
      return undefined
    },
    columns: (values, _ctx, info) => {
      const merged = { ...(info.existing ?? {}), ...values }
      const runner = info.req ? taskRunner(info.req.server) : undefined
      const now = runner?.clock() ?? new Date()
      const schedule = { crontab: String(merged.crontab ?? ''), interval: merged.interval ?? null, enabled: !!merged.enabled }
      return { next_run_at: nextRun(schedule, now, runner?.timeZone) }
    },
  },
  actions: [
    {
      // Run now: queues one execution and answers its id (JumpServer answers `{task: <celery id>}` for tasks it starts).
      path: 'run', detail: true, method: 'POST', perm: 'ops.add_celerytaskexecution', systemPerm: true,
      handler: async (req, reply, api, id) => {
        const row = await api.getObject(req, id!)
        if (!taskKind(String(row.name))) throw validationError({ name: [tr(req.ctx.lang, 'This task cannot run in this server')] })
        const user = req.ctx.user!
        const execution = await taskRunner(req.server)!.enqueue(String(row.name), { creatorId: user.id, creator: userDisplay(user), lang: req.ctx.lang })
        return reply.status(201).send({ task: execution, task_id: execution })
      },
    },
  ],
}

const STATES = [
  { value: 'PENDING', label: 'Pending' }, { value: 'RUNNING', label: 'Running' },
  { value: 'SUCCESS', label: 'Success' }, { value: 'FAILURE', label: 'Failure' },
]

const seconds = (a: string, b: string) => `(case when t.${a} is not null and t.${b} is not null then round(extract(epoch from (t.${b} - t.${a}))::numeric, 3)::float end)`

const executionFields: FieldDef[] = [
  idField(),
  { name: 'name', type: 'string', label: 'Name', column: 'task_name', read_only: true },
  { name: 'task_name', type: 'string', label: 'Task name', read_only: true, column: false, get: (row, ctx) => kindMeta(String(row.task_name), ctx.lang).display_name },
  { name: 'args', type: 'json', label: 'Args', read_only: true },
  { name: 'kwargs', type: 'json', label: 'Kwargs', read_only: true },
  { name: 'state', type: 'choice', label: 'State', read_only: true, choices: STATES },
  { name: 'is_finished', type: 'boolean', label: 'Finished', read_only: true, expr: `(t.state in ('SUCCESS', 'FAILURE'))` },
  { name: 'is_success', type: 'boolean', label: 'Success', read_only: true, expr: `(t.state = 'SUCCESS')` },
  { name: 'time_cost', type: 'float', label: 'Time cost', read_only: true, expr: seconds('date_start', 'date_finished') },
  { name: 'timedelta', type: 'float', label: 'Time delta', read_only: true, expr: seconds('date_published', 'date_finished') },
  { name: 'date_published', type: 'datetime', label: 'Date published', read_only: true },
  { name: 'date_start', type: 'datetime', label: 'Date start', read_only: true },
  { name: 'date_finished', type: 'datetime', label: 'Date finished', read_only: true },
  { name: 'creator', type: 'string', label: 'Creator', read_only: true, get: (row, ctx) => String(row.creator || '') || tr(ctx.lang, 'System') },
  { name: 'reason', type: 'text', label: 'Reason', read_only: true },
  { name: 'result', type: 'json', label: 'Result', read_only: true },
]

export const celeryTaskExecutions: ResourceDef<'task_executions'> = {
  name: 'ops.celerytaskexecution',
  app: 'ops',
  model: 'celerytaskexecution',
  verboseName: 'Celery task execution',
  title: 'Task execution list',
  path: '/api/v1/ops/task-executions/',
  table: 'task_executions',
  // Executions of system tasks are system information: the same permission as the task list.
  systemPerms: true,
  noAudit: true,
  verbs: ['list', 'retrieve', 'export'],
  perms: { view: 'ops.view_celerytask' },
  fields: executionFields,
  filters: [
    'id', 'state',
    { name: 'name', apply: (v) => sql`t.task_name = ${v}` },
    {
      // `?task_id=<celery task id>`: the executions of that task kind (JumpServer 404s an unknown id; we list none).
      name: 'task_id',
      apply: (v, ctx) => {
        if (!isUuid(v)) throw validationError({ task_id: [tr(ctx.lang, 'Must be a valid UUID.')] })
        return sql`t.task_name = (select c.name from celery_tasks c where c.id = ${normUuid(v)})`
      },
    },
  ],
  dateRange: 'date_published',
  ordering: { fields: ['date_published', 'date_start', 'date_finished', 'state'], default: ['-date_published'] },
}

/** The execution's own row for log/result endpoints (404 when unknown). */
export async function executionRow(req: FastifyRequest, id: string) {
  if (!isUuid(id)) return undefined
  return req.ctx.db.selectFrom('task_executions').select(['id', 'task_name', 'state', 'result', 'creator_id']).where('id', '=', normUuid(id)).executeTakeFirst()
}

addMessages({
  'Celery task': ['任务', 'タスク'],
  'Task list': ['任务列表', 'タスク一覧'],
  'Celery task execution': ['任务执行', 'タスク実行'],
  'Task execution list': ['任务执行列表', 'タスク実行一覧'],
  Meta: ['元数据', 'メタ'],
  Summary: ['汇总', 'サマリー'],
  State: ['状态', '状態'],
  Green: ['正常', '正常'],
  Yellow: ['警告', '警告'],
  Red: ['异常', '異常'],
  'Last published time': ['最后发布时间', '最終発行時刻'],
  'Execution cycle': ['执行周期', '実行サイクル'],
  'Every {n} hours': ['每 {n} 小时', '{n} 時間ごと'],
  'Next execution time': ['下次执行时间', '次回実行時刻'],
  Enabled: ['启用', '有効'],
  Crontab: ['Crontab', 'Crontab'],
  'Interval (hours)': ['周期（小时）', '間隔（時間）'],
  'Five fields: minute hour day-of-month month day-of-week, e.g. 0 2 * * * (daily at 02:00)': [
    '五个字段：分 时 日 月 周，例如 0 2 * * *（每天 02:00）', '5 つのフィールド：分 時 日 月 曜日。例：0 2 * * *（毎日 02:00）'],
  'Not a valid cron expression (five fields: minute hour day month weekday)': [
    '不是有效的 cron 表达式（五个字段：分 时 日 月 周）', '有効な cron 式ではありません（5 つのフィールド：分 時 日 月 曜日）'],
  'Set either a crontab or an interval, not both': ['请设置 crontab 或周期，不能同时设置', 'crontab か間隔のどちらか一方を設定してください'],
  'Set a crontab or an interval before enabling the schedule': ['启用前请先设置 crontab 或周期', '有効にする前に crontab か間隔を設定してください'],
  'This task cannot run in this server': ['此任务不能在本服务器上运行', 'このタスクはこのサーバーでは実行できません'],
  Pending: ['等待中', '待機中'],
  Running: ['运行中', '実行中'],
  Success: ['成功', '成功'],
  Failure: ['失败', '失敗'],
  'Task name': ['任务名称', 'タスク名'],
  Args: ['参数', '引数'],
  Kwargs: ['关键字参数', 'キーワード引数'],
  Finished: ['已完成', '完了'],
  'Time cost': ['花费时间', '所要時間'],
  'Time delta': ['运行时间', '経過時間'],
  'Date published': ['发布日期', '発行日時'],
  'Date start': ['开始日期', '開始日時'],
  'Date finished': ['结束日期', '終了日時'],
  Creator: ['创建者', '作成者'],
  System: ['系统', 'システム'],
  Reason: ['原因', '理由'],
  Result: ['结果', '結果'],
})
