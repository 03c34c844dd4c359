/**
 * Account automation definitions (contract §5.3): push, change secret, gather and backup share one table
 * (`type`), each served at its own URL. A periodic automation owns a `celery_tasks` row
 * `accounts.tasks.execute_automation:<id>` (a task family, server/tasks/kinds.ts) holding its cron or interval,
 * so the task runner fires it once per due time across processes.
 */
import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import type { DB, RowOf } from '../../db/connection.ts'
import type { Ctx, FieldDef, ResourceDef, WriteInfo } from '../../engine/types.ts'
import type { Values } from '../../http/body.ts'
import { addMessages, tr } from '../../i18n.ts'
import { nextRun, parseCron } from '../../tasks/schedule.ts'
import { commentField, createdBy, dateCreated, dateUpdated, idField, isActive, updatedBy } from '../common.ts'
import { sealedColumns } from './secrets.ts'

addMessages({
  'Push account': ['账号推送', 'アカウントプッシュ'],
  'Change secret': ['账号改密', 'シークレット変更'],
  'Gather accounts': ['账号收集', 'アカウント収集'],
  'Account backup': ['账号备份', 'アカウントバックアップ'],
  'Push account automation': ['账号推送', 'アカウントプッシュ'],
  'Change secret automation': ['账号改密', 'シークレット変更'],
  'Gather account automation': ['账号收集', 'アカウント収集'],
  'Account backup plan': ['账号备份计划', 'アカウントバックアップ計画'],
  'Periodic': ['定时执行', '定期実行'],
  'Interval': ['周期', '間隔'],
  'Unit: hour': ['单位：时', '単位: 時間'],
  'Crontab': ['Crontab', 'Crontab'],
  'Periodic display': ['定时执行', '定期実行'],
  'Executed amount': ['执行次数', '実行回数'],
  'Assets': ['资产', '資産'],
  'Nodes': ['节点', 'ノード'],
  'Accounts': ['账号', 'アカウント'],
  'Type': ['类型', 'タイプ'],
  'Secret strategy': ['密文策略', 'シークレット戦略'],
  'Specific password': ['指定', '指定'],
  'Random': ['随机', 'ランダム'],
  'Password rules': ['密码规则', 'パスワードルール'],
  'Password length': ['密码长度', 'パスワードの長さ'],
  'Symbol set': ['特殊字符集', '記号セット'],
  'SSH key change strategy': ['SSH 密钥更新方式', 'SSH キー変更戦略'],
  'Append SSH KEY': ['追加', '追加'],
  'Empty and append SSH KEY': ['清空所有并添加', 'すべて削除して追加'],
  'Replace (Replace only keys pushed by JumpServer) ': ['替换 (只替换由 JumpServer 推送的密钥)', '置換 (JumpServer がプッシュしたキーのみ)'],
  'Recipient': ['收件人', '受信者'],
  'Sync account': ['同步账号', 'アカウントを同期'],
  'Asset types': ['资产类型', '資産タイプ'],
  'Every {n} hours': ['每 {n} 小时执行一次', '{n} 時間ごと'],
  'Run at {cron}': ['定时 {cron}', 'スケジュール {cron}'],
  'Not periodic': ['不定时', '定期実行なし'],
  'A name of this type already exists.': ['同类型中已存在该名称。', 'この種類の名前は既に存在します。'],
  'Invalid crontab: five fields, e.g. 0 3 * * *': ['crontab 无效：需要五个字段，例如 0 3 * * *', 'crontab が無効です: 5 つのフィールド (例: 0 3 * * *)'],
  'Give either a crontab or an interval.': ['crontab 和周期只能填写一个。', 'crontab と間隔のどちらか一方を指定してください。'],
  'A periodic run needs a crontab or an interval.': ['定时执行需要 crontab 或周期。', '定期実行には crontab または間隔が必要です。'],
  'Required with a specific secret.': ['指定密文时必填。', 'シークレットを指定する場合は必須です。'],
  'Zip encrypt password': ['文件加密密码', 'ファイル暗号化パスワード'],
  'The backup file (a zip archive, AES-256) is encrypted with this password; recipients need it to open the file.': [
    '备份文件（zip 压缩包，AES-256）用此密码加密，收件人需要它才能打开文件。',
    'バックアップファイル (zip アーカイブ、AES-256) はこのパスワードで暗号化されます。受信者はファイルを開くのに必要です。'],
  'Required: the backup file is encrypted with it.': ['必填：备份文件用它加密。', '必須です: バックアップファイルはこれで暗号化されます。'],
  'At least {n} characters.': ['至少 {n} 个字符。', '{n} 文字以上にしてください。'],
})

export type AutomationType = 'push_account' | 'change_secret' | 'gather_accounts' | 'backup_account'
export const AUTOMATION_TYPES = [
  { value: 'push_account', label: 'Push account' }, { value: 'change_secret', label: 'Change secret' },
  { value: 'gather_accounts', label: 'Gather accounts' }, { value: 'backup_account', label: 'Account backup' },
]
export const AUTOMATION_TASK = 'accounts.tasks.execute_automation'
export const DEFAULT_SYMBOLS = '!@#$%^&*_+-='
export const ZIP_PASSWORD_MIN = 8

type AutomationRow = RowOf<'account_automations'>

const periodicDisplay = (row: Pick<AutomationRow, 'is_periodic' | 'crontab' | 'interval'>, ctx: Ctx) => {
  if (!row.is_periodic) return tr(ctx.lang, 'Not periodic')
  if (row.crontab) return tr(ctx.lang, 'Run at {cron}', { cron: String(row.crontab) })
  return tr(ctx.lang, 'Every {n} hours', { n: String(row.interval ?? 24) })
}

const baseFields = (type: AutomationType): FieldDef[] => [
  idField(),
  { name: 'name', type: 'string', label: 'Name', required: true, max_length: 128 },
  { name: 'is_periodic', type: 'boolean', label: 'Periodic', default: false },
  { name: 'interval', type: 'integer', label: 'Interval', help_text: 'Unit: hour', min_value: 1, max_value: 65535, allow_null: true, default: 24 },
  { name: 'crontab', type: 'string', label: 'Crontab', max_length: 128, allow_blank: true, default: '' },
  { name: 'periodic_display', type: 'string', label: 'Periodic display', read_only: true, column: false, get: periodicDisplay },
  { name: 'executed_amount', type: 'integer', label: 'Executed amount', read_only: true, expr: '(select count(*) from account_automation_executions e where e.automation_id = t.id)' },
  ...(type === 'backup_account' ? [] : [
    {
      name: 'assets', type: 'm2m', label: 'Assets', default: [],
      relation: { resource: 'assets.asset', attrs: ['id', 'name', 'address'], through: { table: 'account_automation_assets', from: 'automation_id', to: 'asset_id' } },
    } as FieldDef,
    {
      name: 'nodes', type: 'm2m', label: 'Nodes', default: [],
      relation: { resource: 'assets.node', attrs: ['id', 'name'], through: { table: 'account_automation_nodes', from: 'automation_id', to: 'node_id' } },
    } as FieldDef,
    { name: 'accounts', type: 'list', label: 'Accounts', default: [], child: { name: 'accounts', type: 'string', max_length: 128 } } as FieldDef,
  ]),
  isActive,
  { name: 'type', type: 'labeled_choice', label: 'Type', read_only: true, choices: AUTOMATION_TYPES },
]

const secretStrategyFields: FieldDef[] = [
  { name: 'secret_type', type: 'labeled_choice', label: 'Secret type', choices: [{ value: 'password', label: 'Password' }, { value: 'ssh_key', label: 'SSH key' }], default: 'password' },
  { name: 'secret_strategy', type: 'labeled_choice', label: 'Secret strategy', choices: [{ value: 'specific', label: 'Specific password' }, { value: 'random', label: 'Random' }], default: 'random' },
  { name: 'secret', type: 'string', label: 'Secret', write_only: true, encrypted: true, secret: true, column: false, allow_blank: true, allow_null: true, max_length: 16384 },
  { name: 'passphrase', type: 'string', label: 'Passphrase', write_only: true, encrypted: true, secret: true, column: false, allow_blank: true, allow_null: true, max_length: 512 },
  {
    name: 'password_rules', type: 'nested', label: 'Password rules', default: { length: 30, symbol_set: DEFAULT_SYMBOLS },
    children: [
      { name: 'length', type: 'integer', label: 'Password length', min_value: 6, max_value: 30, default: 30 },
      { name: 'symbol_set', type: 'string', label: 'Symbol set', max_length: 32, allow_blank: true, default: DEFAULT_SYMBOLS },
    ],
  },
  {
    name: 'ssh_key_change_strategy', type: 'labeled_choice', label: 'SSH key change strategy', default: 'add',
    choices: [{ value: 'add', label: 'Append SSH KEY' }, { value: 'set', label: 'Empty and append SSH KEY' }, { value: 'set_jms', label: 'Replace (Replace only keys pushed by JumpServer) ' }],
  },
]

const recipientsField: FieldDef = {
  name: 'recipients', type: 'm2m', label: 'Recipient', default: [],
  relation: { resource: 'users.user', attrs: ['id', 'name', 'username'], unscoped: true, through: { table: 'account_automation_recipients', from: 'automation_id', to: 'user_id' } },
}

const trailer: FieldDef[] = [commentField, createdBy, updatedBy, dateCreated, dateUpdated]

async function validateAutomation(type: AutomationType, values: Values, ctx: Ctx, info: WriteInfo<AutomationRow>): Promise<Record<string, unknown> | undefined> {
  const errors: Record<string, string[]> = {}
  if (values.name) {
    const dup = await sql`select 1 from account_automations where type = ${type} and name = ${values.name} and org_id = ${info.existing?.org_id ?? ctx.orgId} and id <> ${info.existing?.id ?? randomUUID()}`.execute(ctx.db)
    if (dup.rows.length) errors.name = [tr(ctx.lang, 'A name of this type already exists.')]
  }
  const crontab = String(values.crontab ?? info.existing?.crontab ?? '')
  if (values.crontab && !parseCron(String(values.crontab))) errors.crontab = [tr(ctx.lang, 'Invalid crontab: five fields, e.g. 0 3 * * *')]
  // a crontab wins over the interval (JumpServer's rule): the interval is cleared when a crontab is given
  if (crontab && values.crontab !== undefined) values.interval = null
  const periodic = values.is_periodic ?? info.existing?.is_periodic
  const interval = values.interval !== undefined ? values.interval : info.existing?.interval
  if (periodic && !crontab && !interval) errors.is_periodic = [tr(ctx.lang, 'A periodic run needs a crontab or an interval.')]
  if ((type === 'push_account' || type === 'change_secret')) {
    const strategy = values.secret_strategy ?? info.existing?.secret_strategy ?? 'random'
    const secretType = values.secret_type ?? info.existing?.secret_type ?? 'password'
    const stored = info.existing ? String(info.existing.secret ?? '') : ''
    if (strategy === 'specific' && !values.secret && !stored) errors.secret = [tr(ctx.lang, 'Required with a specific secret.')]
    if (strategy === 'specific' && secretType === 'ssh_key' && values.secret) {
      const { isPrivateKey } = await import('./secrets.ts')
      if (!isPrivateKey(String(values.secret), String(values.passphrase ?? ''))) errors.secret = [tr(ctx.lang, 'This is not a private key (PEM or OpenSSH), or the passphrase does not open it.')]
    }
    if (values.passphrase && secretType !== 'ssh_key') errors.passphrase = [tr(ctx.lang, 'A passphrase only goes with an SSH key.')]
    if (values.password_rules) values.password_rules = { length: 30, symbol_set: DEFAULT_SYMBOLS, ...(values.password_rules as Record<string, unknown>) }
  }
  if (type === 'backup_account') {
    const given = values.zip_encrypt_password
    const stored = info.existing ? String(info.existing.zip_encrypt_password ?? '') : ''
    if ((given === undefined && !stored) || (given !== undefined && !given && !stored)) errors.zip_encrypt_password = [tr(ctx.lang, 'Required: the backup file is encrypted with it.')]
    else if (given && String(given).length < ZIP_PASSWORD_MIN) errors.zip_encrypt_password = [tr(ctx.lang, 'At least {n} characters.', { n: String(ZIP_PASSWORD_MIN) })]
  }
  return Object.keys(errors).length ? errors : undefined
}

/** Keeps the automation's schedule row (`celery_tasks`) in step with its periodic settings. */
export async function syncSchedule(tx: DB, id: string, tz: string): Promise<void> {
  const a = await tx.selectFrom('account_automations').select(['is_periodic', 'is_active', 'crontab', 'interval']).where('id', '=', id).executeTakeFirst()
  const name = `${AUTOMATION_TASK}:${id}`
  if (!a) {
    await sql`delete from celery_tasks where name = ${name}`.execute(tx)
    return
  }
  const s = { crontab: a.crontab, interval: a.crontab ? null : a.interval, enabled: a.is_periodic && a.is_active }
  const next = s.enabled ? nextRun(s, new Date(), tz) : null
  await sql`insert into celery_tasks (id, name, crontab, "interval", enabled, next_run_at) values (${randomUUID()}, ${name}, ${s.crontab}, ${s.interval}, ${s.enabled}, ${next})
    on conflict (name) do update set crontab = excluded.crontab, "interval" = excluded."interval", enabled = excluded.enabled, next_run_at = excluded.next_run_at`.execute(tx)
}

function automationDef(o: { type: AutomationType; name: string; model: string; verboseName: string; path: string; extra: FieldDef[] }): ResourceDef<'account_automations'> {
  return {
    name: o.name,
    app: 'accounts',
    model: o.model,
    verboseName: o.verboseName,
    path: o.path,
    table: 'account_automations',
    orgScoped: true,
    fields: [...baseFields(o.type), ...o.extra, ...trailer],
    scope: () => sql`t.type = ${o.type}`,
    search: ['name'],
    filters: ['id', 'name', 'is_active', 'is_periodic'],
    ordering: { fields: ['name', 'date_created', 'date_updated', 'is_active', 'executed_amount'], default: ['-date_updated', 'name'] },
    sizes: { mini: ['id', 'name'] },
    hooks: {
      validate: (values, ctx, info) => validateAutomation(o.type, values, ctx, info),
      columns: (values, _ctx, info) => ({
        ...sealedColumns('account_automations', values, info, o.type === 'backup_account' ? ['zip_encrypt_password'] : ['secret', 'passphrase']),
        ...(info.existing ? {} : { type: o.type }),
      }),
      afterSave: async (tx, id, _values, _ctx, info) => syncSchedule(tx, String(id), info.req!.server.services.config.timeZone),
      destroy: async (tx, row) => {
        await sql`delete from account_automations where id = ${row.id}`.execute(tx)
        await syncSchedule(tx, String(row.id), 'UTC')
      },
    },
  }
}

export const pushAutomations = automationDef({
  type: 'push_account', name: 'accounts.pushaccountautomation', model: 'pushaccountautomation', verboseName: 'Push account automation',
  path: '/api/v1/accounts/push-account-automations/',
  extra: [...secretStrategyFields, { name: 'params', type: 'json', label: 'Params', default: {} }],
})
export const changeSecretAutomations = automationDef({
  type: 'change_secret', name: 'accounts.changesecretautomation', model: 'changesecretautomation', verboseName: 'Change secret automation',
  path: '/api/v1/accounts/change-secret-automations/',
  extra: [...secretStrategyFields, recipientsField],
})
export const gatherAutomations = automationDef({
  type: 'gather_accounts', name: 'accounts.gatheraccountsautomation', model: 'gatheraccountsautomation', verboseName: 'Gather account automation',
  path: '/api/v1/accounts/gather-account-automations/',
  extra: [{ name: 'is_sync_account', type: 'boolean', label: 'Sync account', default: false }],
})
/** What viewing a secret needs: the permission and a fresh MFA confirmation (issue 36 point 5). */
export const SECRET_GUARD = { perm: 'accounts.view_accountsecret', confirm: 'mfa' } as const
export const backupPlans: ResourceDef<'account_automations'> = {
  ...automationDef({
    type: 'backup_account', name: 'accounts.accountbackupautomation', model: 'accountbackupautomation', verboseName: 'Account backup plan',
    path: '/api/v1/accounts/account-backup-plans/',
    extra: [
      recipientsField, { name: 'types', type: 'list', label: 'Asset types', default: [], child: { name: 'types', type: 'string', max_length: 32 } },
      // the empty answer of an update keeps the stored password (a write-only secret, never returned)
      {
        name: 'zip_encrypt_password', type: 'string', label: 'Zip encrypt password', write_only: true, encrypted: true, secret: true, column: false,
        required: true, allow_blank: true, min_length: ZIP_PASSWORD_MIN, max_length: 128,
        help_text: 'The backup file (a zip archive, AES-256) is encrypted with this password; recipients need it to open the file.',
      },
    ],
  }),
  // Its password and recipients decide where every secret of the organization goes (issue 36 point 5).
  secretGuard: SECRET_GUARD,
}

export const AUTOMATION_DEFS: Record<AutomationType, ResourceDef<'account_automations'>> = {
  push_account: pushAutomations, change_secret: changeSecretAutomations, gather_accounts: gatherAutomations, backup_account: backupPlans,
}
