/**
 * Operate logs `/api/v1/audits/operate-logs/` (read-only, contract §5.5) with the action detail
 * `GET …/<id>/?type=action_detail` → `{diff: [{field, before, after}]}`, and the activity timeline
 * `GET /api/v1/audits/activities/?resource_id=<id>` (contract §4.12).
 */
import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { formatDateTime } from '../../http/datetime.ts'
import { requirePerm } from '../../http/context.ts'
import type { ResourceDef } from '../../engine/types.ts'
import { jsonObject } from '../../http/body.ts'
import { isUuid, normUuid } from '../../engine/parse.ts'
import { qstr, type Query } from '../../engine/query.ts'
import { addMessages, tr } from '../../i18n.ts'
import type { Lang } from '../../http/request-context.ts'
import { ORG_IDS } from '../../rbac/catalog.ts'
import { idField } from '../common.ts'

addMessages({
  'Operate log': ['操作日志', '操作ログ'],
  'Action': ['动作', 'アクション'],
  'Resource type': ['资源类型', 'リソースタイプ'],
  'Resource': ['资源', 'リソース'],
  'Remote addr': ['远端地址', 'リモートアドレス'],
  'Datetime': ['日期', '日時'],
  'View': ['查看', '表示'],
  'Update': ['更新', '更新'],
  'Delete': ['删除', '削除'],
  'Create': ['创建', '作成'],
  'Connect': ['连接', '接続'],
  'Login': ['登录', 'ログイン'],
  'Change password': ['改密', 'パスワード変更'],
  'Terminate': ['终断', '終了'],
  'User {user} {action} this resource': ['用户 {user} {action}了当前资源', 'ユーザー {user} がこのリソースを{action}しました'],
})

export const ACTION_CHOICES = [
  { value: 'view', label: 'View' }, { value: 'update', label: 'Update' }, { value: 'delete', label: 'Delete' },
  { value: 'create', label: 'Create' }, { value: 'connect', label: 'Connect' }, { value: 'login', label: 'Login' },
  { value: 'change_password', label: 'Change password' }, { value: 'terminate', label: 'Terminate' },
]

const translated = (row: Readonly<Record<string, unknown>>, ctx: { lang: Lang }, column: string) => tr(ctx.lang, String(row[column] ?? ''))

/** The stored diff translated for the reader; empty sides read "empty". */
export function diffFor(diff: unknown, lang: Lang): Array<{ field: string; before: string; after: string }> {
  if (!Array.isArray(diff)) return []
  const side = (v: unknown) => (v === undefined || v === null || v === '' ? tr(lang, 'empty') : tr(lang, String(v)))
  return diff.map((x: unknown) => {
    const d = jsonObject(x) ?? {}
    return { field: tr(lang, String(d.field ?? '')), before: side(d.before), after: side(d.after) }
  })
}

export const operateLogs: ResourceDef<'operate_logs'> = {
  name: 'audits.operatelog',
  app: 'audits',
  model: 'operatelog',
  verboseName: 'Operate log',
  path: '/api/v1/audits/operate-logs/',
  table: 'operate_logs',
  orgScoped: true,
  noAudit: true,
  verbs: ['list', 'retrieve', 'export'],
  fields: [
    idField(),
    { name: 'user', type: 'string', label: 'User', read_only: true },
    { name: 'action', type: 'labeled_choice', label: 'Action', read_only: true, choices: ACTION_CHOICES },
    { name: 'resource_type', type: 'string', label: 'Resource type', read_only: true, get: (row, ctx) => translated(row, ctx, 'resource_type') },
    { name: 'resource', type: 'string', label: 'Resource', read_only: true },
    { name: 'remote_addr', type: 'string', label: 'Remote addr', read_only: true },
    { name: 'datetime', type: 'datetime', label: 'Datetime', read_only: true },
  ],
  search: ['user', 'resource', 'remote_addr'],
  filters: ['user', 'action', 'resource_type', 'resource', 'remote_addr'],
  dateRange: 'datetime',
  ordering: { fields: ['datetime', 'user', 'action', 'resource_type'], default: ['-datetime'] },
  hooks: {
    // `?type=action_detail` on the detail URL answers the diff (the console's timeline link).
    retrieve: async (req, row) => ((req.query as Query).type === 'action_detail' ? { diff: diffFor(row.diff, req.ctx.lang) } : undefined),
  },
}

/** The activity timeline of one object: its operate logs and activity logs, current org + SYSTEM. */
export async function registerActivities(app: FastifyInstance): Promise<void> {
  for (const url of ['/api/v1/audits/activities/', '/api/v1/audits/activities']) {
    app.get(url, async (req) => {
      await requirePerm(req, 'audits.view_activitylog')
      const ctx = req.ctx
      const raw = qstr((req.query ?? {}) as Query, 'resource_id') ?? ''
      if (!raw || raw.length > 64) return []
      const id = isUuid(raw) ? normUuid(raw) : raw
      const orgs = ctx.orgId === ORG_IDS.ROOT ? sql`true` : sql`org_id = any(${[ctx.orgId, ORG_IDS.SYSTEM]}::uuid[])`
      const user = isUuid(id) ? (await sql<{ name: string; username: string }>`select name, username from users where id = ${id}`.execute(ctx.db)).rows[0] : undefined
      const byUser = user ? sql` or "user" = ${`${user.name}(${user.username})`}` : sql``
      const r = await sql<{ id: string; r_type: string; datetime: Date; user: string; action: string; detail: string; detail_url: string }>`
        (select id, 'O' as r_type, datetime, "user", action, '' as detail, '' as detail_url from operate_logs
          where (resource_id = ${id}${byUser}) and ${orgs} order by datetime desc limit 30)
        union all
        (select id, type as r_type, datetime, '' as "user", '' as action, detail, detail_url from activity_logs
          where resource_id = ${id} and ${orgs} order by datetime desc limit 30)
        order by datetime desc limit 30`.execute(ctx.db)
      return r.rows.map((row) => ({
        id: row.id,
        timestamp: (formatDateTime(row.datetime, ctx.tz) ?? '').slice(0, 19).replace(/\//g, '-'),
        r_type: row.r_type,
        content: row.r_type === 'O'
          ? tr(ctx.lang, 'User {user} {action} this resource', { user: row.user, action: tr(ctx.lang, ACTION_CHOICES.find((a) => a.value === row.action)?.label ?? row.action) })
          : tr(ctx.lang, String(row.detail ?? '')),
        detail_url: row.r_type === 'O' ? `/api/v1/audits/operate-logs/${row.id}/?type=action_detail` : row.detail_url ?? '',
      }))
    })
  }
}
