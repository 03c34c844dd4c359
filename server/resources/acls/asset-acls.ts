/**
 * Command groups `/api/v1/acls/command-groups/`, command filter ACLs `/api/v1/acls/command-filter-acls/` and login
 * asset ACLs `/api/v1/acls/login-asset-acls/` (contract §5.4, JumpServer 3.2's acls app; org-scoped), and their
 * decision endpoints `POST …/decide/` (the rules: decide.ts, docs/acls.md).
 */
import type { FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import type { DB } from '../../db/connection.ts'
import type { ActionDef, Ctx, FieldDef, ResourceDef } from '../../engine/types.ts'
import { validationError } from '../../http/errors.ts'
import { addMessages, tr } from '../../i18n.ts'
import { ORG_IDS } from '../../rbac/catalog.ts'
import { commentField, createdBy, dateCreated, dateUpdated, idField, isActive, updatedBy } from '../common.ts'
import {
  commandPattern, compileGroup, decideCommand, decideLoginAsset, inOrder, subjectMatches, type CommandAclLike, type CommandGroupLike, type LoginAssetAclLike, type Subject,
} from './decide.ts'
import { LOGIN_ACL_ACTIONS } from './login-acls.ts'
import { validIpGroup, validTimePeriods } from './rules.ts'

addMessages({
  'Command group': ['命令组', 'コマンドグループ'],
  'Command filter ACL': ['命令过滤', 'コマンドフィルター ACL'],
  'Login asset ACL': ['资产登录', 'アセットログイン ACL'],
  'Command': ['命令', 'コマンド'],
  'Regex': ['正则表达式', '正規表現'],
  'Content': ['内容', '内容'],
  'One line one command': ['每行一个命令', '1 行に 1 コマンド'],
  'Ignore case': ['忽略大小写', '大文字と小文字を区別しない'],
  'Command group amount': ['命令组数量', 'コマンドグループ数'],
  'Username': ['用户名', 'ユーザー名'],
  'IP/Host': ['IP/主机', 'IP/ホスト'],
  'Asset': ['资产', 'アセット'],
  'Account': ['账号', 'アカウント'],
  'User (username)': ['用户 (用户名)', 'ユーザー (ユーザー名)'],
  'Asset (name)': ['资产 (名称)', 'アセット (名前)'],
  'Asset (address)': ['资产 (地址)', 'アセット (アドレス)'],
  'Account (username)': ['账号 (用户名)', 'アカウント (ユーザー名)'],
  'Warning': ['告警', '警告'],
  'Notice': ['通知', '通知'],
  'With * indicating a match all. ': ['* 表示匹配所有。', '* はすべてに一致します。'],
  'With * indicating a match all. Such as: 192.168.10.1, 192.168.1.0/24, 10.1.1.1-10.1.1.20, 2001:db8:2de::e13, 2001:db8:1a:1110::/64 (Domain name support)': [
    '* 表示匹配所有。例如：192.168.10.1, 192.168.1.0/24, 10.1.1.1-10.1.1.20, 2001:db8:2de::e13, 2001:db8:1a:1110::/64 (支持域名)',
    '* はすべてに一致します。例: 192.168.10.1, 192.168.1.0/24, 10.1.1.1-10.1.1.20, 2001:db8:2de::e13, 2001:db8:1a:1110::/64 (ドメイン名も可)',
  ],
  'The generated regular expression is incorrect: {error}': ['生成的正则表达式有误: {error}', '生成された正規表現が正しくありません: {error}'],
  'None of the reviewers belong to this organization': ['审批人都不属于当前组织', '承認者はいずれもこの組織に属していません'],
  '{model} object does not exist': ['{model} 对象不存在', '{model} オブジェクトが存在しません'],
})

const MATCH_ALL_HELP = 'With * indicating a match all. '
const ADDRESS_HELP = 'With * indicating a match all. Such as: 192.168.10.1, 192.168.1.0/24, 10.1.1.1-10.1.1.20, 2001:db8:2de::e13, 2001:db8:1a:1110::/64 (Domain name support)'

const group = (name: string, label: string, max: number, help: string): FieldDef => ({
  name, type: 'list', label, default: ['*'], help_text: help, child: { name, type: 'string', max_length: max },
})

export const commandGroups: ResourceDef<'command_groups'> = {
  name: 'acls.commandgroup',
  app: 'acls',
  model: 'commandgroup',
  verboseName: 'Command group',
  path: '/api/v1/acls/command-groups/',
  table: 'command_groups',
  orgScoped: true,
  fields: [
    idField(),
    { name: 'name', type: 'string', label: 'Name', required: true, max_length: 128, unique: 'org' },
    { name: 'type', type: 'labeled_choice', label: 'Type', choices: [{ value: 'command', label: 'Command' }, { value: 'regex', label: 'Regex' }], default: 'command' },
    { name: 'content', type: 'text', label: 'Content', required: true, allow_blank: false, help_text: 'One line one command' },
    { name: 'ignore_case', type: 'boolean', label: 'Ignore case', default: true },
    commentField,
    createdBy,
    updatedBy,
    dateCreated,
    dateUpdated,
  ],
  search: ['name'],
  filters: ['id', 'name', 'type'],
  ordering: { fields: ['name', 'type', 'date_created', 'date_updated'], default: ['name'] },
  display: (r) => String(r.name),
  hooks: {
    // A group whose expression does not compile would never match: refused on save.
    validate(values, ctx, info) {
      if (values.type === undefined && values.content === undefined && values.ignore_case === undefined) return undefined
      const g = {
        type: String(values.type ?? info.existing?.type ?? 'command'),
        content: String(values.content ?? info.existing?.content ?? ''),
        ignore_case: Boolean(values.ignore_case ?? info.existing?.ignore_case ?? true),
      }
      const c = compileGroup(g)
      return 'error' in c ? { content: [tr(ctx.lang, 'The generated regular expression is incorrect: {error}', { error: c.error })] } : undefined
    },
  },
}

/** The matcher and bookkeeping fields both ACLs share (JumpServer's `BaseUserAssetAccountACLSerializerMixin`). */
function aclFields(actions: { value: string; label: string }[], extra: FieldDef[], reviewersTable: string): FieldDef[] {
  return [
    idField(),
    { name: 'name', type: 'string', label: 'Name', required: true, max_length: 128, unique: 'org' },
    { name: 'priority', type: 'integer', label: 'Priority', min_value: 1, max_value: 100, default: 50, help_text: '1-100, the lower the value will be match first' },
    { name: 'users', type: 'nested', label: 'User', default: { username_group: ['*'] }, children: [group('username_group', 'Username', 128, MATCH_ALL_HELP)] },
    {
      name: 'assets', type: 'nested', label: 'Asset', default: { name_group: ['*'], address_group: ['*'] },
      children: [group('name_group', 'Name', 128, MATCH_ALL_HELP), { ...group('address_group', 'IP/Host', 1024, ADDRESS_HELP) }],
    },
    { name: 'accounts', type: 'nested', label: 'Account', default: { username_group: ['*'] }, children: [group('username_group', 'Username', 128, MATCH_ALL_HELP)] },
    ...extra,
    { name: 'users_username_group', type: 'list', label: 'User (username)', read_only: true, child: { name: 'x', type: 'string' }, expr: "(t.users -> 'username_group')" },
    { name: 'assets_name_group', type: 'list', label: 'Asset (name)', read_only: true, child: { name: 'x', type: 'string' }, expr: "(t.assets -> 'name_group')" },
    { name: 'assets_address_group', type: 'list', label: 'Asset (address)', read_only: true, child: { name: 'x', type: 'string' }, expr: "(t.assets -> 'address_group')" },
    { name: 'accounts_username_group', type: 'list', label: 'Account (username)', read_only: true, child: { name: 'x', type: 'string' }, expr: "(t.accounts -> 'username_group')" },
    { name: 'action', type: 'labeled_choice', label: 'Action', choices: actions, default: 'reject' },
    {
      name: 'reviewers', type: 'm2m', label: 'Reviewers', default: [],
      relation: { resource: 'users.user', attrs: ['id', 'name', 'username'], through: { table: reviewersTable, from: 'acl_id', to: 'user_id' } },
    },
    { name: 'reviewers_amount', type: 'integer', label: 'Reviewers amount', read_only: true, expr: `(select count(*) from ${reviewersTable} r where r.acl_id = t.id)` },
    isActive,
    commentField,
    createdBy,
    updatedBy,
    dateCreated,
    dateUpdated,
  ]
}

/** Matchers default their missing groups to `["*"]`; review needs reviewers (members: the relation's scope). */
function validateAcl(values: Record<string, unknown>, ctx: Ctx, existing: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  const fill = (v: unknown, keys: string[]) => Object.fromEntries(keys.map((k) => [k, (v as Record<string, unknown>)[k] ?? ['*']]))
  if (values.users) values.users = fill(values.users, ['username_group'])
  if (values.accounts) values.accounts = fill(values.accounts, ['username_group'])
  if (values.assets) values.assets = fill(values.assets, ['name_group', 'address_group'])
  const action = values.action ?? existing?.action
  if (action === 'review' && values.reviewers !== undefined && (values.reviewers as unknown[]).length === 0) {
    return { reviewers: [tr(ctx.lang, 'This field is required.')] }
  }
  return undefined
}

/** Reads and checks the subject of a decision request: a user (any), an asset visible in the request's org. */
async function subjectOf(req: FastifyRequest, extra: Record<string, (v: unknown) => string | undefined>): Promise<{ subject: Subject & { userId: string; assetId: string }; body: Record<string, unknown> }> {
  const ctx = req.ctx
  const body = (req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? req.body : {}) as Record<string, unknown>
  const errors: Record<string, string[]> = {}
  const uuid = (v: unknown) => typeof v === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v)
  for (const k of ['user_id', 'asset_id']) {
    if (body[k] === undefined || body[k] === null || body[k] === '') errors[k] = [tr(ctx.lang, 'This field is required.')]
    else if (!uuid(body[k])) errors[k] = [tr(ctx.lang, 'Must be a valid UUID.')]
  }
  const account = body.account_username ?? ''
  if (typeof account !== 'string' || account.length > 128) errors.account_username = [tr(ctx.lang, 'Not a valid string.')]
  for (const [k, check] of Object.entries(extra)) {
    const e = check(body[k])
    if (e) errors[k] = [e]
  }
  if (Object.keys(errors).length) throw validationError(errors)
  const user = (await sql<{ id: string; username: string }>`select id, username from users where id = ${body.user_id}::uuid`.execute(ctx.db)).rows[0]
  const asset = (await sql<{ id: string; name: string; address: string; org_id: string }>`select id, name, address, org_id from assets
    where id = ${body.asset_id}::uuid and (${ctx.orgId === ORG_IDS.ROOT} or org_id = ${ctx.orgId}::uuid)`.execute(ctx.db)).rows[0]
  if (!user) errors.user_id = [tr(ctx.lang, '{model} object does not exist', { model: 'User' })]
  if (!asset) errors.asset_id = [tr(ctx.lang, '{model} object does not exist', { model: 'Asset' })]
  if (!user || !asset) throw validationError(errors)
  return { subject: { user: user.username, userId: user.id, asset, assetId: asset.id, account: account as string }, body }
}

const miniAcl = (acl: { id: string; name: string; priority: number; action: string } | null, choices: { value: string; label: string }[], ctx: Ctx) =>
  acl ? { id: acl.id, name: acl.name, priority: acl.priority, action: { value: acl.action, label: tr(ctx.lang, choices.find((c) => c.value === acl.action)?.label ?? acl.action) } } : null

const actionLabel = (action: string, choices: { value: string; label: string }[], ctx: Ctx) =>
  ({ value: action, label: tr(ctx.lang, choices.find((c) => c.value === action)?.label ?? action) })

/** The active command filter ACLs of an organization with their command groups (deciding order is decide.ts's). */
export async function loadCommandAcls(db: DB, orgId: string): Promise<(CommandAclLike & { reviewers: { id: string; name: string }[] })[]> {
  const acls = (await sql<CommandAclLike>`select id, name, org_id, priority, action, is_active, date_updated, users, assets, accounts
    from command_filter_acls where org_id = ${orgId}::uuid and is_active`.execute(db)).rows
  if (!acls.length) return []
  const ids = acls.map((a) => a.id)
  const groups = (await sql<CommandGroupLike & { acl_id: string }>`select l.acl_id, g.id, g.name, g.type, g.content, g.ignore_case
    from command_filter_acl_groups l join command_groups g on g.id = l.commandgroup_id where l.acl_id = any(${ids}::uuid[]) order by g.name`.execute(db)).rows
  const reviewers = (await sql<{ acl_id: string; id: string; name: string }>`select r.acl_id, u.id, u.name from command_filter_acl_reviewers r
    join users u on u.id = r.user_id where r.acl_id = any(${ids}::uuid[])`.execute(db)).rows
  return acls.map((a) => ({
    ...a,
    command_groups: groups.filter((g) => g.acl_id === a.id).map(({ acl_id: _, ...g }) => g),
    reviewers: reviewers.filter((r) => r.acl_id === a.id).map(({ acl_id: _, ...r }) => r),
  }))
}

/**
 * The command filter ACLs a terminal receives for a connection (JumpServer 3.2's connection-token secret
 * `command_filter_acls`): those whose matchers hold for the user, asset and account, in deciding order, each
 * with its command groups' compiled `pattern`. For the connection-token secret of the permissions module.
 */
export async function commandFilterAclsFor(db: DB, subject: Subject): Promise<unknown[]> {
  const acls = inOrder(await loadCommandAcls(db, subject.asset.org_id)).filter((a) => subjectMatches(a, subject))
  return acls.map((a) => ({
    id: a.id, name: a.name, priority: a.priority, is_active: a.is_active, action: a.action, reviewers: a.reviewers,
    command_groups: a.command_groups.map((g) => ({ ...g, pattern: commandPattern(g) })),
  }))
}

export const COMMAND_ACL_ACTIONS = [...LOGIN_ACL_ACTIONS, { value: 'warning', label: 'Warning' }]
export const LOGIN_ASSET_ACL_ACTIONS = [...LOGIN_ACL_ACTIONS, { value: 'notice', label: 'Notice' }]

const decideCommandAction: ActionDef = {
  path: 'decide', detail: false, method: 'POST', perm: 'acls.view_commandfilteracl',
  handler: async (req) => {
    const ctx = req.ctx
    const { subject, body } = await subjectOf(req, {
      command: (v) => (typeof v !== 'string' || v === '' ? tr(ctx.lang, 'This field is required.') : v.length > 4096 ? tr(ctx.lang, 'Ensure this field has no more than {n} characters.', { n: 4096 }) : undefined),
    })
    const d = decideCommand(await loadCommandAcls(ctx.db, subject.asset.org_id), subject, body.command as string)
    return {
      action: actionLabel(d.action, COMMAND_ACL_ACTIONS, ctx),
      acl: miniAcl(d.acl, COMMAND_ACL_ACTIONS, ctx),
      command_group: d.group ? { id: d.group.id, name: d.group.name, type: d.group.type, pattern: commandPattern(d.group) } : null,
      matched: d.matched,
    }
  },
}

const decideLoginAction: ActionDef = {
  path: 'decide', detail: false, method: 'POST', perm: 'acls.view_loginassetacl',
  handler: async (req) => {
    const ctx = req.ctx
    const { subject, body } = await subjectOf(req, {
      remote_addr: (v) => (v !== undefined && v !== '' && typeof v !== 'string' ? tr(ctx.lang, 'Not a valid string.') : undefined),
      time: (v) => (v !== undefined && v !== null && v !== '' && (typeof v !== 'string' || Number.isNaN(Date.parse(v)))
        ? tr(ctx.lang, 'Datetime has wrong format. Use one of these formats instead: {formats}.', { formats: 'YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z]' }) : undefined),
    })
    const acls = (await sql<LoginAssetAclLike>`select id, name, org_id, priority, action, is_active, date_updated, users, assets, accounts, rules
      from login_asset_acls where org_id = ${subject.asset.org_id}::uuid and is_active`.execute(ctx.db)).rows
    const now = typeof body.time === 'string' && body.time ? new Date(body.time) : new Date()
    const d = decideLoginAsset(acls, { ...subject, ip: typeof body.remote_addr === 'string' ? body.remote_addr : '', now, tz: req.server.services.config.timeZone })
    return { action: actionLabel(d.action, LOGIN_ASSET_ACL_ACTIONS, ctx), acl: miniAcl(d.acl, LOGIN_ASSET_ACL_ACTIONS, ctx) }
  },
}

export const commandFilterAcls: ResourceDef<'command_filter_acls'> = {
  name: 'acls.commandfilteracl',
  app: 'acls',
  model: 'commandfilteracl',
  verboseName: 'Command filter ACL',
  path: '/api/v1/acls/command-filter-acls/',
  table: 'command_filter_acls',
  orgScoped: true,
  fields: aclFields(COMMAND_ACL_ACTIONS, [
    {
      name: 'command_groups', type: 'm2m', label: 'Command group', default: [],
      relation: { resource: 'acls.commandgroup', through: { table: 'command_filter_acl_groups', from: 'acl_id', to: 'commandgroup_id' } },
    },
    { name: 'command_groups_amount', type: 'integer', label: 'Command group amount', read_only: true, expr: '(select count(*) from command_filter_acl_groups g where g.acl_id = t.id)' },
  ], 'command_filter_acl_reviewers'),
  search: ['name'],
  filters: ['id', 'name', 'action', 'is_active'],
  ordering: { fields: ['priority', 'name', 'date_created', 'date_updated', 'is_active'], default: ['priority', 'date_updated', 'name'] },
  sizes: { mini: ['id', 'name'] },
  hooks: { validate: (values, ctx, info) => validateAcl(values, ctx, info.existing) },
  actions: [decideCommandAction],
}

export const loginAssetAcls: ResourceDef<'login_asset_acls'> = {
  name: 'acls.loginassetacl',
  app: 'acls',
  model: 'loginassetacl',
  verboseName: 'Login asset ACL',
  path: '/api/v1/acls/login-asset-acls/',
  table: 'login_asset_acls',
  orgScoped: true,
  fields: aclFields(LOGIN_ASSET_ACL_ACTIONS, [{
    name: 'rules', type: 'nested', label: 'Rule', default: { ip_group: ['*'], time_period: [] },
    children: [
      {
        name: 'ip_group', type: 'list', label: 'IP', default: ['*'], help_text: 'Format for comma-delimited string, with * indicating a match all. Such as: 192.168.10.1, 192.168.1.0/24, 10.1.1.1-10.1.1.20, 2001:db8:2de::e13, 2001:db8:1a:1110::/64 ',
        child: { name: 'ip_group', type: 'string', max_length: 1024 }, validate: (v: string[], ctx) => validIpGroup(v, ctx),
      },
      { name: 'time_period', type: 'list', label: 'Time Period', default: [], validate: (v: unknown[], ctx) => validTimePeriods(v, ctx) },
    ],
  }], 'login_asset_acl_reviewers'),
  search: ['name'],
  filters: ['id', 'name', 'action', 'is_active'],
  ordering: { fields: ['priority', 'name', 'date_created', 'date_updated', 'is_active'], default: ['priority', 'date_updated', 'name'] },
  sizes: { mini: ['id', 'name'] },
  hooks: { validate: (values, ctx, info) => validateAcl(values, ctx, info.existing) },
  actions: [decideLoginAction],
}

export const ACL_RESOURCES = [commandGroups, commandFilterAcls, loginAssetAcls]
