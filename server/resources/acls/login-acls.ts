/**
 * User login ACLs `/api/v1/acls/login-acls/?user=<id>` (contract §5.4; not org-scoped) and
 * `checkLoginAcl`, the decision the login flow asks for (also installed as `app.loginAclCheck`).
 */
import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import type { LoginAclCheck } from '../../auth/acl.ts'
import type { DB } from '../../db/connection.ts'
import type { ResourceDef } from '../../engine/types.ts'
import { addMessages, tr } from '../../i18n.ts'
import { manageableBy } from '../../rbac/manage.ts'
import { commentField, createdBy, dateCreated, dateUpdated, idField, isActive, updatedBy } from '../common.ts'
import { decideUserLogin, type LoginAclLike } from './decide.ts'
import { validIpGroup, validTimePeriods, type Rules } from './rules.ts'

addMessages({
  'Login ACL': ['登录访问控制', 'ログイン ACL'],
  'Priority': ['优先级', '優先度'],
  '1-100, the lower the value will be match first': ['优先级可选范围为 1-100 (数值越小越优先)', '1-100、値が小さいほど先に一致します'],
  'Rule': ['规则', 'ルール'],
  'IP': ['IP', 'IP'],
  'Time Period': ['时段', '時間帯'],
  'Reviewers': ['审批人', '承認者'],
  'Reviewers amount': ['审批人数量', '承認者数'],
  'Reject': ['拒绝', '拒否'],
  'Accept': ['接受', '許可'],
  'Review': ['审批', '承認'],
  'Login needs a reviewer\'s approval': ['登录需要审批', 'ログインには承認が必要です'],
  'Format for comma-delimited string, with * indicating a match all. Such as: 192.168.10.1, 192.168.1.0/24, 10.1.1.1-10.1.1.20, 2001:db8:2de::e13, 2001:db8:1a:1110::/64 ': [
    '格式为逗号分隔的字符串，* 表示匹配所有。例如：192.168.10.1, 192.168.1.0/24, 10.1.1.1-10.1.1.20, 2001:db8:2de::e13, 2001:db8:1a:1110::/64 ',
    'コンマ区切りの文字列、* はすべてに一致します。例: 192.168.10.1, 192.168.1.0/24, 10.1.1.1-10.1.1.20, 2001:db8:2de::e13, 2001:db8:1a:1110::/64 ',
  ],
})

export const LOGIN_ACL_ACTIONS = [{ value: 'reject', label: 'Reject' }, { value: 'accept', label: 'Accept' }, { value: 'review', label: 'Review' }]
const IP_HELP = 'Format for comma-delimited string, with * indicating a match all. Such as: 192.168.10.1, 192.168.1.0/24, 10.1.1.1-10.1.1.20, 2001:db8:2de::e13, 2001:db8:1a:1110::/64 '

export const loginAcls: ResourceDef<'login_acls'> = {
  name: 'acls.loginacl',
  app: 'acls',
  model: 'loginacl',
  verboseName: 'Login ACL',
  path: '/api/v1/acls/login-acls/',
  table: 'login_acls',
  fields: [
    idField(),
    { name: 'name', type: 'string', label: 'Name', required: true, max_length: 128 },
    { name: 'priority', type: 'integer', label: 'Priority', min_value: 1, max_value: 100, default: 50, help_text: '1-100, the lower the value will be match first' },
    {
      // Only users the caller may change (rbac/manage.ts): an org admin cannot lock out a system admin.
      name: 'user', type: 'fk', label: 'User', required: true,
      relation: { resource: 'users.user', unscoped: true, limit: (ctx) => manageableBy(ctx, sql.ref('t.id')) },
    },
    {
      name: 'rules', type: 'nested', label: 'Rule', default: { ip_group: ['*'], time_period: [] },
      children: [
        {
          name: 'ip_group', type: 'list', label: 'IP', default: ['*'], help_text: IP_HELP,
          child: { name: 'ip_group', type: 'string', max_length: 1024 }, validate: (v: string[], ctx) => validIpGroup(v, ctx),
        },
        { name: 'time_period', type: 'list', label: 'Time Period', default: [], validate: (v: unknown[], ctx) => validTimePeriods(v, ctx) },
      ],
    },
    { name: 'action', type: 'labeled_choice', label: 'Action', choices: LOGIN_ACL_ACTIONS, default: 'reject' },
    {
      name: 'reviewers', type: 'm2m', label: 'Reviewers', default: [],
      relation: { resource: 'users.user', unscoped: true, through: { table: 'login_acl_reviewers', from: 'acl_id', to: 'user_id' } },
    },
    { name: 'reviewers_amount', type: 'integer', label: 'Reviewers amount', read_only: true, expr: '(select count(*) from login_acl_reviewers r where r.acl_id = t.id)' },
    isActive,
    commentField,
    createdBy,
    updatedBy,
    dateCreated,
    dateUpdated,
  ],
  // A user's login ACLs are seen and managed by those who may change that user.
  scope: (ctx) => manageableBy(ctx, sql.ref('t.user_id')),
  search: ['name'],
  filters: ['id', 'name', 'user', 'action', 'is_active'],
  ordering: { fields: ['priority', 'name', 'date_created', 'date_updated', 'is_active'], default: ['priority', '-date_updated', 'name'] },
  bulkDelete: 'ids',
  hooks: {
    validate(values, ctx, info) {
      const action = values.action ?? info.existing?.action
      const reviewers = values.reviewers as unknown[] | undefined
      if (action === 'review' && reviewers !== undefined && reviewers.length === 0) return { reviewers: [tr(ctx.lang, 'This field is required.')] }
      if (values.rules) {
        const r = values.rules as Rules
        values.rules = { ip_group: r.ip_group ?? ['*'], time_period: r.time_period ?? [] }
      }
      return undefined
    },
  },
}

/**
 * The login ACL decision for a user logging in from `ip` at `now`: the action of the first active rule
 * (lowest priority value, then the older update, then the name — decide.ts, docs/acls.md) whose IPs and time
 * periods match; null when none does.
 */
export async function checkLoginAcl(db: DB, user: { id: string }, ip: string, now: Date = new Date(), tz = 'Asia/Shanghai'): Promise<'accept' | 'reject' | 'review' | null> {
  const r = await sql<LoginAclLike>`select name, priority, action, is_active, date_updated, rules from login_acls
    where user_id = ${user.id} and is_active`.execute(db)
  const acl = decideUserLogin(r.rows, { ip, now, tz })
  if (!acl) return null
  return acl.action === 'accept' || acl.action === 'review' ? acl.action : 'reject'
}

/** The reviewers of the user's first matching review ACL (the one `checkLoginAcl` decided by). */
async function reviewersOf(db: DB, userId: string, ip: string): Promise<string[]> {
  const r = await sql<LoginAclLike & { id: string }>`select id, name, priority, action, is_active, date_updated, rules from login_acls
    where user_id = ${userId} and is_active`.execute(db)
  const acl = decideUserLogin(r.rows, { ip, now: new Date(), tz: 'Asia/Shanghai' })
  if (!acl) return []
  return (await sql<{ user_id: string }>`select r.user_id from login_acl_reviewers r join users u on u.id = r.user_id
    where r.acl_id = ${acl.id} and u.is_active`.execute(db)).rows.map((x) => x.user_id)
}

/**
 * Installs the decision into the login flow (server/auth/acl.ts). Review: a web login waits for the ACL's
 * reviewers (a login_confirm ticket); token logins and a review rule without active reviewers are refused.
 */
export function installLoginAcl(app: FastifyInstance): void {
  const check: LoginAclCheck = async (req, subject) => {
    const action = await checkLoginAcl(req.ctx.db, { id: subject.userId }, subject.ip)
    if (action === 'reject') return { action: 'reject' }
    if (action === 'review') {
      const reviewerIds = subject.type === 'W' ? await reviewersOf(req.ctx.db, subject.userId, subject.ip) : []
      if (reviewerIds.length) return { action: 'review', reviewerIds }
      return { action: 'reject', message: tr(req.ctx.lang, 'Login needs a reviewer\'s approval') }
    }
    return { action: 'accept' }
  }
  if (app.hasDecorator('loginAclCheck')) app.loginAclCheck = check
  else app.decorate('loginAclCheck', check)
}
