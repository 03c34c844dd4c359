/**
 * Audit → Job logs `/api/v1/audits/job-logs/` (JumpServer's JobAuditLog, a read-only proxy of JobExecution): every
 * execution of the organization (ROOT: all), for auditors. An engine resource (OPTIONS, search, filters, export).
 */
import { sql } from 'kysely'
import type { ResourceDef } from '../engine/types.ts'
import { isUuid, normUuid } from '../engine/parse.ts'
import { validationError } from '../http/errors.ts'
import { addMessages, tr } from '../i18n.ts'
import { actorField, idField } from '../resources/common.ts'

const like = (v: string) => `%${v.replace(/[%_\\]/g, '\\$&')}%`
const seconds = `(case when t.date_start is not null then round(extract(epoch from (coalesce(t.date_finished, now()) - t.date_start))::numeric, 3)::float else 0 end)`

export const jobLogs: ResourceDef<'ops_job_executions'> = {
  name: 'audits.jobauditlog',
  app: 'audits',
  model: 'jobauditlog',
  verboseName: 'Job audit log',
  title: 'Job logs',
  path: '/api/v1/audits/job-logs/',
  table: 'ops_job_executions',
  orgScoped: true,
  noAudit: true,
  verbs: ['list', 'retrieve', 'export'],
  perms: { view: 'audits.view_jobauditlog' },
  fields: [
    idField(),
    { name: 'material', type: 'string', label: 'Command', read_only: true },
    actorField('created_by', 'Creator'),
    {
      name: 'status', type: 'choice', label: 'Status', read_only: true,
      choices: [{ value: 'pending', label: 'Pending' }, { value: 'running', label: 'Running' }, { value: 'success', label: 'Success' }, { value: 'failed', label: 'Failed' }, { value: 'timeout', label: 'Timeout' }, { value: 'canceled', label: 'Canceled' }],
    },
    { name: 'is_success', type: 'boolean', label: 'Success', read_only: true, expr: `(t.status = 'success')` },
    { name: 'time_cost', type: 'float', label: 'Time cost', read_only: true, expr: seconds },
    { name: 'date_start', type: 'datetime', label: 'Date start', read_only: true },
    { name: 'date_finished', type: 'datetime', label: 'Date finished', read_only: true },
    { name: 'job_type', type: 'choice', label: 'Type', read_only: true, choices: [{ value: 'adhoc', label: 'Adhoc' }, { value: 'playbook', label: 'Playbook' }] },
    { name: 'is_finished', type: 'boolean', label: 'Finished', read_only: true, expr: `(t.status in ('success', 'failed', 'timeout', 'canceled'))` },
    { name: 'task_id', type: 'string', label: 'Task ID', read_only: true },
    { name: 'date_created', type: 'datetime', label: 'Date created', read_only: true },
  ],
  search: ['material', 'created_by'],
  filters: ['id', 'status',
    {
      name: 'task_id',
      apply: (v, ctx) => {
        if (!isUuid(v)) throw validationError({ task_id: [tr(ctx.lang, 'Must be a valid UUID.')] })
        return sql`t.task_id = ${normUuid(v)}`
      },
    },
    { name: 'creator__name', apply: (v) => sql`t.created_by ilike ${like(v)}` }, { name: 'material', apply: (v) => sql`t.material ilike ${like(v)}` }],
  dateRange: 'date_created',
  ordering: { fields: ['date_start', 'date_created', 'date_finished', 'created_by'], default: ['-date_created'] },
}

addMessages({
  'Job audit log': ['作业审计日志', 'ジョブ監査ログ'],
  'Job logs': ['作业日志', 'ジョブログ'],
  'Task ID': ['任务 ID', 'タスク ID'],
  Command: ['命令', 'コマンド'],
  Adhoc: ['命令', 'コマンド'],
  Playbook: ['Playbook', 'Playbook'],
  Timeout: ['超时', 'タイムアウト'],
  Canceled: ['已取消', 'キャンセル済み'],
  Failed: ['失败', '失敗'],
})
