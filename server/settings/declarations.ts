/**
 * Every setting served by `GET|PUT|PATCH /api/v1/settings/setting/?category=<name>`, declared once: key, type,
 * label, help text, default, choices, limits and whether it is a secret, as engine field declarations (so OPTIONS,
 * validation and operate-log diffs come from the engine's field code). Facts (fields, labels, limits, defaults)
 * follow JumpServer 3.2's settings serializers (contract §4.18, §5.12). Labels are English and translated by
 * messages.ts. Keys that no category serves yet (authentication back-ends, SMS, interface) keep a plain default
 * in INTERNAL_SETTINGS until their category is declared.
 */
import { randomUUID } from 'node:crypto'
import type { FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import type { Ctx, FieldDef } from '../engine/types.ts'
import { tr } from '../i18n.ts'
import { validIpGroup } from '../resources/acls/rules.ts'
import { nextRun, parseCron } from '../tasks/schedule.ts'
import { taskRunner } from '../tasks/service.ts'
import { AUTH_CATEGORIES } from './declarations-auth.ts'
import { INTERFACE } from './declarations-interface.ts'
import { LDAP_MESSAGES } from '../ldap/messages.ts'
import type { Values } from '../http/body.ts'

/** Two LDAP server addresses name the same server (case, spaces and a trailing slash aside). */
export const sameLdapServer = (a: string, b: string) => {
  const norm = (u: string) => u.trim().replace(/\/+$/, '').toLowerCase()
  return norm(a) === norm(b)
}

/** A settings category: the serializer of one `?category=` value. */
export interface SettingsCategory {
  name: string
  /** English title (the `[Title] Label` of operate logs and the OPTIONS name). */
  title: string
  /** Permission to read (GET) and to write (PUT/PATCH); checked at system scope. */
  perms: { view: string; change: string }
  fields: FieldDef[]
  /**
   * Cross-field rules applied to the values about to be saved (`current` = stored values); may answer field
   * errors (English, translated on the way out): 400, nothing saved.
   */
  clean?: (values: Values, current: Map<string, unknown>) => Record<string, string[]> | undefined | void
  /** Adjusts the answer of a read (values that other values switch off). */
  represent?: (out: Values) => void
  /** After a write committed (effects outside the settings table, e.g. a periodic task's schedule). */
  saved?: (req: FastifyRequest, values: Values) => Promise<void>
}

const UNIT_DAY = 'Unit: day'
const LOGIN_LIMIT_HELP = 'Unit: minute, If the user has failed to log in for a limited number of times, no login is allowed during this time interval.'
const IP_GROUP_HELP = 'With * indicating a match all. Such as: 192.168.10.1, 192.168.1.0/24, 10.1.1.1-10.1.1.20, 2001:db8:2de::e13, 2001:db8:1a:1110::/64 '

const bool = (name: string, label: string, def: boolean, extra: Partial<FieldDef> = {}): FieldDef =>
  ({ name, type: 'boolean', label, default: def, required: false, ...extra })
const int = (name: string, label: string, def: number, min: number, max: number, extra: Partial<FieldDef> = {}): FieldDef =>
  ({ name, type: 'integer', label, default: def, min_value: min, max_value: max, required: true, ...extra })
const ipList = (name: string, label: string): FieldDef => ({
  name, type: 'list', label, default: [], required: false, help_text: IP_GROUP_HELP,
  child: { name, type: 'string', max_length: 1024, required: true },
  validate: (v: string[], ctx: Ctx) => validIpGroup(v, ctx),
})
const keepDays = (name: string, label: string, def: number): FieldDef => int(name, label, def, 1, 9999, { help_text: UNIT_DAY })

export const BASIC: SettingsCategory = {
  name: 'basic',
  title: 'Basic',
  // JumpServer 3.2 lets `settings.view_setting` write the basic settings too; writing needs change_setting here.
  perms: { view: 'settings.view_setting', change: 'settings.change_setting' },
  fields: [
    { name: 'SITE_URL', type: 'url', label: 'Site url', help_text: 'eg: http://dev.jumpserver.org:8080', required: true, max_length: 1024, default: 'http://127.0.0.1:8080' },
    { name: 'USER_GUIDE_URL', type: 'url', label: 'User guide url', help_text: 'User first login update profile done redirect to it', allow_null: true, max_length: 1024, default: '' },
    { name: 'FORGOT_PASSWORD_URL', type: 'url', label: 'Forgot password url', help_text: 'The forgot password url on login page, If you use ldap or cas external authentication, you can set it', allow_null: true, max_length: 1024, default: '' },
    { name: 'GLOBAL_ORG_DISPLAY_NAME', type: 'string', label: 'Global organization name', help_text: 'The name of global organization to display', max_length: 1024, allow_null: true, default: '' },
    bool('ANNOUNCEMENT_ENABLED', 'Enable announcement', false),
    {
      name: 'ANNOUNCEMENT', type: 'nested', label: 'Announcement', required: false,
      default: { ID: '', SUBJECT: '', CONTENT: '', LINK: '' },
      children: [
        { name: 'ID', type: 'string', label: 'ID', read_only: true },
        { name: 'SUBJECT', type: 'string', label: 'Subject', required: true, max_length: 1024 },
        { name: 'CONTENT', type: 'text', label: 'Content', required: true, max_length: 8192 },
        { name: 'LINK', type: 'url', label: 'More url', allow_null: true, max_length: 1024, default: '' },
      ],
    },
    bool('TICKETS_ENABLED', 'Enable tickets', true),
  ],
  clean(values, current) {
    if (typeof values.SITE_URL === 'string') values.SITE_URL = values.SITE_URL.replace(/\/+$/, '') || 'http://127.0.0.1'
    // A changed announcement is a new one (a new ID: users who closed the previous one see it); the same text
    // saved again keeps its ID.
    if (values.ANNOUNCEMENT && typeof values.ANNOUNCEMENT === 'object') {
      const next = values.ANNOUNCEMENT as Values
      const prev = (current.get('ANNOUNCEMENT') ?? {}) as Values
      const same = prev.ID && ['SUBJECT', 'CONTENT', 'LINK'].every((k) => (prev[k] ?? '') === (next[k] ?? ''))
      values.ANNOUNCEMENT = { ...next, ID: same ? prev.ID : randomUUID() }
    }
  },
}

export const SECURITY: SettingsCategory = {
  name: 'security',
  title: 'Security',
  perms: { view: 'settings.change_security', change: 'settings.change_security' },
  fields: [
    // password rules
    int('SECURITY_PASSWORD_MIN_LENGTH', 'Password minimum length', 6, 6, 30),
    int('SECURITY_ADMIN_USER_PASSWORD_MIN_LENGTH', 'Admin user password minimum length', 6, 6, 30),
    bool('SECURITY_PASSWORD_UPPER_CASE', 'Must contain capital', false),
    bool('SECURITY_PASSWORD_LOWER_CASE', 'Must contain lowercase', false),
    bool('SECURITY_PASSWORD_NUMBER', 'Must contain numeric', false),
    bool('SECURITY_PASSWORD_SPECIAL_CHAR', 'Must contain special', false),
    // authentication
    {
      name: 'SECURITY_MFA_AUTH', type: 'choice', label: 'Global MFA auth', required: false, default: 0,
      choices: [{ value: 0, label: 'Disable' }, { value: 1, label: 'All users' }, { value: 2, label: 'Only admin users' }],
    },
    bool('SECURITY_MFA_AUTH_ENABLED_FOR_THIRD_PARTY', 'Third-party login users perform MFA authentication', true, {
      help_text: 'The third-party login modes include OIDC, CAS, and SAML2',
    }),
    int('SECURITY_LOGIN_LIMIT_COUNT', 'Limit the number of user login failures', 7, 3, 99999),
    int('SECURITY_LOGIN_LIMIT_TIME', 'Block user login interval', 30, 5, 99999, { help_text: LOGIN_LIMIT_HELP }),
    int('SECURITY_LOGIN_IP_LIMIT_COUNT', 'Limit the number of IP login failures', 99999, 3, 99999),
    int('SECURITY_LOGIN_IP_LIMIT_TIME', 'Block IP login interval', 30, 5, 99999, { help_text: LOGIN_LIMIT_HELP }),
    ipList('SECURITY_LOGIN_IP_WHITE_LIST', 'Login IP White List'),
    ipList('SECURITY_LOGIN_IP_BLACK_LIST', 'Login IP Black List'),
    int('SECURITY_PASSWORD_EXPIRATION_TIME', 'User password expiration', 9999, 1, 99999, {
      help_text: 'Unit: day, If the user does not update the password during the time, the user password will expire failure;The password expiration reminder mail will be automatic sent to the user by system within 5 days (daily) before the password expires',
    }),
    int('OLD_PASSWORD_HISTORY_LIMIT_COUNT', 'Number of repeated historical passwords', 5, 0, 99999, {
      help_text: 'Tip: When the user resets the password, it cannot be the previous n historical passwords of the user',
    }),
    bool('USER_LOGIN_SINGLE_MACHINE_ENABLED', 'Only single device login', false, { help_text: 'Next device login, pre login will be logout' }),
    bool('ONLY_ALLOW_EXIST_USER_AUTH', 'Only exist user login', false, { help_text: 'If enable, CAS、OIDC auth will be failed, if user not exist yet' }),
    bool('ONLY_ALLOW_AUTH_FROM_SOURCE', 'Only from source login', false, { help_text: 'Only log in from the user source property' }),
    int('SECURITY_MFA_VERIFY_TTL', 'MFA verify TTL', 3600, 5, 36000, {
      help_text: 'Unit: second, The verification MFA takes effect only when you view the account password',
    }),
    int('VERIFY_CODE_TTL', 'Verify code TTL', 60, 5, 36000, { help_text: 'Unit: second, reset password and send SMS code expiration time' }),
    bool('SECURITY_LOGIN_CHALLENGE_ENABLED', 'Enable Login dynamic code', false, {
      help_text: 'The password and additional code are sent to a third party authentication system for verification',
    }),
    bool('SECURITY_MFA_IN_LOGIN_PAGE', 'MFA in login page', false, { help_text: 'Eu security regulations(GDPR) require MFA to be on the login page' }),
    bool('SECURITY_LOGIN_CAPTCHA_ENABLED', 'Enable Login captcha', false, { help_text: 'Enable captcha to prevent robot authentication' }),
    // sessions and the rest
    bool('SECURITY_SERVICE_ACCOUNT_REGISTRATION', 'Enable terminal register', true, {
      required: true, help_text: 'Allow terminal register, after all terminal setup, you should disable this for security',
    }),
    bool('SECURITY_WATERMARK_ENABLED', 'Enable watermark', true, { required: true, help_text: 'Enabled, the web session and replay contains watermark information' }),
    int('SECURITY_MAX_IDLE_TIME', 'Connection max idle time', 30, 1, 99999, { required: false, help_text: 'If idle time more than it, disconnect connection Unit: minute' }),
    bool('SECURITY_LUNA_REMEMBER_AUTH', 'Remember manual auth', true),
    bool('SECURITY_INSECURE_COMMAND', 'Insecure command alert', false),
    { name: 'SECURITY_INSECURE_COMMAND_EMAIL_RECEIVER', type: 'string', label: 'Email recipient', help_text: 'Multiple user using , split', max_length: 8192, required: false, default: '' },
    bool('SECURITY_COMMAND_EXECUTION', 'Operation center', true, { help_text: 'Allow user run batch command or not using ansible' }),
    bool('SECURITY_SESSION_SHARE', 'Session share', true, { required: true, help_text: 'Enabled, Allows user active session to be shared with other users' }),
    bool('SECURITY_CHECK_DIFFERENT_CITY_LOGIN', 'Remote Login Protection', true, {
      help_text: 'The system determines whether the login IP address belongs to a common login city. If the account is logged in from a common login city, the system sends a remote login reminder',
    }),
  ],
  clean(values, current) {
    // MFA on the login page needs MFA for all users (JumpServer's rule).
    const mfa = 'SECURITY_MFA_AUTH' in values ? values.SECURITY_MFA_AUTH : current.get('SECURITY_MFA_AUTH')
    if (values.SECURITY_MFA_IN_LOGIN_PAGE === true && mfa !== 1) values.SECURITY_MFA_IN_LOGIN_PAGE = false
  },
  represent(out) {
    if (out.SECURITY_LOGIN_CHALLENGE_ENABLED) {
      out.SECURITY_MFA_IN_LOGIN_PAGE = false
      out.SECURITY_LOGIN_CAPTCHA_ENABLED = false
    } else if (out.SECURITY_MFA_IN_LOGIN_PAGE) {
      out.SECURITY_LOGIN_CAPTCHA_ENABLED = false
    }
  },
}

export const CLEAN: SettingsCategory = {
  name: 'clean',
  title: 'Period clean',
  perms: { view: 'settings.change_clean', change: 'settings.change_clean' },
  fields: [
    keepDays('LOGIN_LOG_KEEP_DAYS', 'Login log keep days', 180),
    keepDays('TASK_LOG_KEEP_DAYS', 'Task log keep days', 90),
    keepDays('OPERATE_LOG_KEEP_DAYS', 'Operate log keep days', 180),
    keepDays('FTP_LOG_KEEP_DAYS', 'FTP log keep days', 180),
    keepDays('CLOUD_SYNC_TASK_EXECUTION_KEEP_DAYS', 'Cloud sync record keep days', 180),
    int('TERMINAL_SESSION_KEEP_DURATION', 'Session keep duration', 200, 1, 99999, {
      help_text: 'Unit: days, Session, record, command will be delete if more than duration, only in database',
    }),
    keepDays('ACTIVITY_LOG_KEEP_DAYS', 'Activity log keep days', 180),
  ],
}

export const EMAIL: SettingsCategory = {
  name: 'email',
  title: 'Email',
  perms: { view: 'settings.change_email', change: 'settings.change_email' },
  fields: [
    // Blank allowed (JumpServer requires a value): an empty host switches mail off, and the reset and
    // account-created mails say so instead of failing.
    { name: 'EMAIL_HOST', type: 'string', label: 'SMTP host', max_length: 1024, required: true, allow_blank: true, default: '' },
    // JumpServer keeps the port as text (CharField, max 5).
    { name: 'EMAIL_PORT', type: 'string', label: 'SMTP port', max_length: 5, required: true, default: '25' },
    { name: 'EMAIL_HOST_USER', type: 'string', label: 'SMTP account', max_length: 128, required: true, default: '' },
    {
      name: 'EMAIL_HOST_PASSWORD', type: 'string', label: 'SMTP password', help_text: 'Tips: Some provider use token except password',
      max_length: 1024, required: false, write_only: true, secret: true, encrypted: true, default: '',
    },
    { name: 'EMAIL_FROM', type: 'string', label: 'Send user', help_text: 'Tips: Send mail account, default SMTP account as the send account', max_length: 128, required: false, default: '' },
    { name: 'EMAIL_RECIPIENT', type: 'string', label: 'Test recipient', help_text: 'Tips: Used only as a test mail recipient', max_length: 128, required: false, default: '' },
    bool('EMAIL_USE_SSL', 'Use SSL', false, { help_text: 'If SMTP port is 465, may be select' }),
    bool('EMAIL_USE_TLS', 'Use TLS', false, { help_text: 'If SMTP port is 587, may be select' }),
    { name: 'EMAIL_SUBJECT_PREFIX', type: 'string', label: 'Subject prefix', max_length: 1024, required: true, default: '[JMS] ' },
  ],
}

export const EMAIL_CONTENT: SettingsCategory = {
  name: 'email_content',
  title: 'Email content',
  perms: { view: 'settings.change_email', change: 'settings.change_email' },
  fields: [
    { name: 'EMAIL_CUSTOM_USER_CREATED_SUBJECT', type: 'string', label: 'Create user email subject', max_length: 1024, required: false, default: '',
      help_text: 'Tips: When creating a user, send the subject of the email (eg:Create account successfully)' },
    { name: 'EMAIL_CUSTOM_USER_CREATED_HONORIFIC', type: 'string', label: 'Create user honorific', max_length: 1024, required: false, default: '',
      help_text: 'Tips: When creating a user, send the honorific of the email (eg:Hello)' },
    { name: 'EMAIL_CUSTOM_USER_CREATED_BODY', type: 'text', label: 'Create user email content', max_length: 4096, required: false, default: '',
      help_text: 'Tips: Email content' },
    { name: 'EMAIL_CUSTOM_USER_CREATED_SIGNATURE', type: 'string', label: 'Signature', max_length: 512, required: false, default: '',
      help_text: 'Tips: Email signature (eg:jumpserver)' },
  ],
}

/** LDAP (contract §5.12 "ldap"): the server, the search, the attribute map, the periodic import and the switch. */
export const LDAP: SettingsCategory = {
  name: 'ldap',
  title: 'LDAP',
  perms: { view: 'settings.change_auth', change: 'settings.change_auth' },
  fields: [
    { name: 'AUTH_LDAP_SERVER_URI', type: 'string', label: 'LDAP server', help_text: 'eg: ldap://localhost:389', max_length: 1024, required: true, default: 'ldap://localhost:389',
      validate: (v: string, ctx: Ctx) => (/^ldaps?:\/\/[^\s/]+\/?$/i.test(v) ? undefined : tr(ctx.lang, LDAP_URI_ERROR)) },
    { name: 'AUTH_LDAP_BIND_DN', type: 'string', label: 'Bind DN', max_length: 1024, required: false, default: 'cn=admin,dc=jumpserver,dc=org' },
    { name: 'AUTH_LDAP_BIND_PASSWORD', type: 'string', label: 'Password', max_length: 1024, required: false, write_only: true, secret: true, encrypted: true, default: '' },
    { name: 'AUTH_LDAP_SEARCH_OU', type: 'string', label: 'User OU', help_text: 'Use | split multiple OUs', max_length: 1024, required: false, default: 'ou=tech,dc=jumpserver,dc=org' },
    { name: 'AUTH_LDAP_SEARCH_FILTER', type: 'string', label: 'User search filter', help_text: 'Choice may be (cn|uid|sAMAccountName)=%(user)s)', max_length: 1024, required: true, default: '(cn=%(user)s)',
      validate: (v: string, ctx: Ctx) => (v.includes('%(user)s') && /^\(.*\)$/.test(v) ? undefined : tr(ctx.lang, LDAP_FILTER_ERROR)) },
    { name: 'AUTH_LDAP_USER_ATTR_MAP', type: 'json', label: 'User attr map', required: true, default: { username: 'cn', name: 'sn', email: 'mail' },
      help_text: 'User attr map present how to map LDAP user attr to jumpserver, username,name,email is jumpserver attr',
      validate: (v: unknown, ctx: Ctx) => {
        const ok = v && typeof v === 'object' && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'string' && x !== '' && x.length <= 128) &&
          typeof (v as Values).username === 'string'
        return ok ? undefined : tr(ctx.lang, LDAP_MAP_ERROR)
      } },
    { name: 'AUTH_LDAP_SYNC_ORG_ID', type: 'uuid', label: 'Organization', help_text: 'The organization that imported and periodically synchronized users join', required: false, default: '00000000-0000-0000-0000-000000000002' },
    bool('AUTH_LDAP_SYNC_IS_PERIODIC', 'Periodic perform', false),
    { name: 'AUTH_LDAP_SYNC_CRONTAB', type: 'string', label: 'Regularly perform', max_length: 128, required: false, allow_null: true, default: '',
      help_text: 'eg: Every Sunday 03:05 run <5 3 * * 0>; a 5-field crontab (minute hour day month weekday); it takes priority over the cycle',
      validate: (v: string | null, ctx: Ctx) => (!v || parseCron(v) ? undefined : tr(ctx.lang, CRONTAB_ERROR)) },
    { name: 'AUTH_LDAP_SYNC_INTERVAL', type: 'integer', label: 'Cycle perform', help_text: 'Unit: hour', min_value: 1, max_value: 87600, required: false, allow_null: true, default: 24 },
    int('AUTH_LDAP_CONNECT_TIMEOUT', 'Connect timeout', 10, 1, 300, { required: false, help_text: 'Unit: second' }),
    int('AUTH_LDAP_SEARCH_PAGED_SIZE', 'Search paged size', 1000, 1, 10000, { required: false }),
    bool('AUTH_LDAP', 'Enable LDAP auth', false),
  ],
  // The stored bind password goes only to the server it was saved for (issue 36 point 7).
  clean(values, current) {
    const uri = values.AUTH_LDAP_SERVER_URI
    if (uri === undefined || values.AUTH_LDAP_BIND_PASSWORD !== undefined || !current.get('AUTH_LDAP_BIND_PASSWORD')) return undefined
    return sameLdapServer(String(uri), String(current.get('AUTH_LDAP_SERVER_URI') ?? '')) ? undefined : { AUTH_LDAP_BIND_PASSWORD: [LDAP_MESSAGES.passwordAgain] }
  },
  async saved(req, values) {
    if (!['AUTH_LDAP_SYNC_IS_PERIODIC', 'AUTH_LDAP_SYNC_CRONTAB', 'AUTH_LDAP_SYNC_INTERVAL'].some((k) => k in values)) return
    await applyLdapSchedule(req)
  },
}

/** The periodic LDAP import (server/ldap/sync.ts); its schedule follows the LDAP settings. */
export const LDAP_SYNC_TASK = 'settings.tasks.ldap.import_ldap_user_periodic'
export const LDAP_URI_ERROR = 'Enter an ldap:// or ldaps:// address with a host and an optional port'
export const LDAP_FILTER_ERROR = 'The filter must be in parentheses and contain %(user)s'
export const LDAP_MAP_ERROR = 'A JSON object of strings that maps at least username, e.g. {"username": "uid", "name": "cn", "email": "mail"}'
export const CRONTAB_ERROR = 'Enter a valid 5-field crontab expression'

/** Stores the LDAP import's schedule from the settings: crontab first, else the interval (hours); off unless periodic. */
export async function applyLdapSchedule(req: FastifyRequest): Promise<void> {
  const db = req.ctx.db
  const rows = (await sql<{ name: string; value: unknown }>`select name, value from settings
    where name in ('AUTH_LDAP_SYNC_IS_PERIODIC', 'AUTH_LDAP_SYNC_CRONTAB', 'AUTH_LDAP_SYNC_INTERVAL')`.execute(db)).rows
  const v = new Map(rows.map((r) => [r.name, r.value]))
  const crontab = String(v.get('AUTH_LDAP_SYNC_CRONTAB') ?? '').trim()
  const interval = v.has('AUTH_LDAP_SYNC_INTERVAL') ? (v.get('AUTH_LDAP_SYNC_INTERVAL') as number | null) : 24
  const s = { crontab, interval: crontab ? null : interval, enabled: v.get('AUTH_LDAP_SYNC_IS_PERIODIC') === true }
  const runner = taskRunner(req.server)
  const next = nextRun(s, runner?.clock() ?? new Date(), runner?.timeZone)
  await sql`update celery_tasks set crontab = ${s.crontab}, "interval" = ${s.interval}, enabled = ${s.enabled}, next_run_at = ${next}
    where name = ${LDAP_SYNC_TASK}`.execute(db)
}

export const OTHER: SettingsCategory = {
  name: 'other',
  title: 'More...',
  perms: { view: 'settings.change_other', change: 'settings.change_other' },
  fields: [
    { name: 'EMAIL_SUFFIX', type: 'string', label: 'Email suffix', help_text: 'This is used by default if no email is returned during SSO authentication', max_length: 1024, required: false, default: 'example.com' },
    { name: 'OTP_ISSUER_NAME', type: 'string', label: 'OTP issuer name', max_length: 16, required: false, default: 'JumpServer' },
    int('OTP_VALID_WINDOW', 'OTP valid window', 2, 1, 10),
    bool('PERM_SINGLE_ASSET_TO_UNGROUP_NODE', 'Perm ungroup node', false, { help_text: 'Perm single to ungroup node' }),
    int('TICKET_AUTHORIZE_DEFAULT_TIME', 'Ticket authorize default time', 7, 1, 999999, { required: false }),
    {
      name: 'TICKET_AUTHORIZE_DEFAULT_TIME_UNIT', type: 'choice', label: 'Ticket authorize default time unit', required: false, default: 'day',
      choices: [{ value: 'day', label: 'day' }, { value: 'hour', label: 'hour' }],
    },
    { name: 'HELP_DOCUMENT_URL', type: 'url', label: 'Help Docs URL', help_text: 'default: http://docs.jumpserver.org', allow_null: true, max_length: 1024, default: 'https://docs.jumpserver.org/zh/v3/' },
    {
      ...ipList('CLOUD_SCAN_ALLOWED_NETWORKS', 'Networks cloud sync may scan'), default: ['127.0.0.0/8'],
      help_text: 'The network scan (LAN) provider of cloud sync probes only addresses inside these networks. Such as: 127.0.0.0/8, 192.168.1.0/24, 10.1.1.1-10.1.1.20',
    },
    { name: 'HELP_SUPPORT_URL', type: 'url', label: 'Help Support URL', help_text: 'default: http://www.jumpserver.org/support/', allow_null: true, max_length: 1024, default: 'https://www.jumpserver.org/support/' },
  ],
}

export const TERMINAL: SettingsCategory = {
  name: 'terminal',
  title: 'Terminal',
  perms: { view: 'settings.change_terminal', change: 'settings.change_terminal' },
  fields: [
    bool('TERMINAL_PASSWORD_AUTH', 'Password auth', true),
    bool('TERMINAL_PUBLIC_KEY_AUTH', 'Public key auth', true, {
      help_text: 'Tips: If use other auth method, like AD/LDAP, you should disable this to avoid being able to log in after deleting',
    }),
    {
      name: 'TERMINAL_ASSET_LIST_SORT_BY', type: 'choice', label: 'List sort by', required: false, default: 'name',
      choices: [{ value: 'name', label: 'Hostname' }, { value: 'ip', label: 'IP' }],
    },
    {
      name: 'TERMINAL_ASSET_LIST_PAGE_SIZE', type: 'choice', label: 'List page size', required: false, default: 'auto',
      choices: [{ value: 'all', label: 'All' }, { value: 'auto', label: 'Auto' }, ...['10', '15', '25', '50'].map((v) => ({ value: v, label: v }))],
    },
    {
      name: 'TERMINAL_TELNET_REGEX', type: 'string', label: 'Telnet login regex', max_length: 1024, required: false, default: '',
      help_text: 'Tips: The login success message varies with devices. if you cannot log in to the device through Telnet, set this parameter',
    },
    bool('TERMINAL_MAGNUS_ENABLED', 'Enable database proxy', true, { required: true }),
    bool('TERMINAL_RAZOR_ENABLED', 'Enable Razor', true, { required: true }),
    bool('TERMINAL_KOKO_SSH_ENABLED', 'Enable SSH Client', true, { required: true }),
    {
      name: 'TERMINAL_GRAPHICAL_RESOLUTION', type: 'choice', label: 'Default graphics resolution', required: false, default: 'Auto',
      help_text: 'Tip: Default resolution to use when connecting graphical assets in Luna pages',
      choices: ['Auto', '1024x768', '1366x768', '1600x900', '1920x1080'].map((v) => ({ value: v, label: v })),
    },
  ],
}

/** The categories the settings API serves, by `?category=` value. */
export const CATEGORIES: ReadonlyMap<string, SettingsCategory> = new Map([BASIC, SECURITY, CLEAN, EMAIL, EMAIL_CONTENT, LDAP, OTHER, TERMINAL, ...AUTH_CATEGORIES, INTERFACE].map((c) => [c.name, c]))

/**
 * Settings read by the server whose category is not served yet (issue 13 declares them): category and default.
 * `encrypted` marks secrets (sealed at rest).
 */
export const INTERNAL_SETTINGS: Record<string, { category: string; default: unknown; encrypted?: boolean }> = {
  SECURITY_VIEW_AUTH_NEED_MFA: { category: 'security', default: true },
  TERMINAL_OMNIDB_ENABLED: { category: 'terminal', default: true },
  WINDOWS_SKIP_ALL_MANUAL_PASSWORD: { category: 'other', default: false },
}
