/**
 * Asset categories, types and their constraints (contract §4.4), after JumpServer 3.2's `assets/const/*`.
 * Labels are English source texts (translated when served). `licensed` types need a valid licence.
 */
import { STARTUP_MESSAGES } from './messages.ts'

export type AutomationItem = 'ping' | 'gather_facts' | 'gather_accounts' | 'verify_account' | 'change_secret' | 'push_account'
export const AUTOMATION_ITEMS: readonly AutomationItem[] = ['ping', 'gather_facts', 'gather_accounts', 'verify_account', 'change_secret', 'push_account']
export const ITEM_LABELS: Record<AutomationItem, string> = {
  ping: STARTUP_MESSAGES.ping, gather_facts: STARTUP_MESSAGES.gatherFacts, gather_accounts: STARTUP_MESSAGES.gatherAccounts,
  verify_account: STARTUP_MESSAGES.verifyAccount, change_secret: STARTUP_MESSAGES.changeSecret, push_account: STARTUP_MESSAGES.pushAccount,
}

export interface ProtocolDef { port: number; secret_types: string[]; setting: Record<string, unknown> }

export const PROTOCOLS: Record<string, ProtocolDef> = {
  ssh: { port: 22, secret_types: ['password', 'ssh_key'], setting: { sftp_enabled: true, sftp_home: '/tmp' } },
  rdp: { port: 3389, secret_types: ['password'], setting: { console: false, security: 'any', ad_domain: '' } },
  vnc: { port: 5900, secret_types: ['password'], setting: {} },
  telnet: { port: 23, secret_types: ['password'], setting: { username_prompt: 'username:|login:', password_prompt: 'password:', success_prompt: 'success|成功|#|>|\\$' } },
  winrm: { port: 5985, secret_types: ['password'], setting: { use_ssl: false } },
  mysql: { port: 3306, secret_types: ['password'], setting: {} },
  mariadb: { port: 3306, secret_types: ['password'], setting: {} },
  postgresql: { port: 5432, secret_types: ['password'], setting: {} },
  oracle: { port: 1521, secret_types: ['password'], setting: { sysdba: false } },
  sqlserver: { port: 1433, secret_types: ['password'], setting: {} },
  clickhouse: { port: 9000, secret_types: ['password'], setting: {} },
  mongodb: { port: 27017, secret_types: ['password'], setting: { auth_source: 'admin' } },
  redis: { port: 6379, secret_types: ['password'], setting: { auth_username: false } },
  k8s: { port: 443, secret_types: ['token'], setting: {} },
  http: { port: 80, secret_types: ['password'], setting: { safe_mode: false, autofill: 'basic', username_selector: 'name=username', password_selector: 'name=password', submit_selector: 'type=submit' } },
}

export interface BaseConstraints { charset_enabled: boolean; charset: string; domain_enabled: boolean; su_enabled: boolean; su_methods: string[] }
export interface AutomationDef { ansible_enabled: boolean; ansible_config: Record<string, unknown>; items: Partial<Record<AutomationItem, boolean>> }

export interface TypeDef {
  value: string
  label: string
  protocols: string[]
  /** The single protocol must be set (databases, k8s, web). */
  required?: boolean
  base?: Partial<BaseConstraints>
  automation?: Partial<AutomationDef>
  /** Automation method family `{id: <family>_<item>, name: "<Family> <Item>"}`. */
  family?: [id: string, label: string]
  licensed?: boolean
}

export interface CategoryDef { value: string; label: string; base: BaseConstraints; automation: AutomationDef; family: [string, string]; types: TypeDef[] }

const all = (on: boolean): Partial<Record<AutomationItem, boolean>> => Object.fromEntries(AUTOMATION_ITEMS.map((i) => [i, on]))
const OFF: AutomationDef = { ansible_enabled: false, ansible_config: {}, items: all(false) }
const base = (charset: boolean, domain: boolean, su: string[] = []): BaseConstraints =>
  ({ charset_enabled: charset, charset: 'utf-8', domain_enabled: domain, su_enabled: su.length > 0, su_methods: su })
const db = (value: string, label: string, extra: Partial<TypeDef> = {}): TypeDef =>
  ({ value, label, protocols: [value], required: true, family: [value, label], ...extra })

export const CATEGORIES: readonly CategoryDef[] = [
  {
    value: 'host', label: STARTUP_MESSAGES.host, base: base(true, true, ['sudo', 'su']), family: ['posix', 'Posix'],
    automation: { ansible_enabled: true, ansible_config: { ansible_connection: 'smart' }, items: all(true) },
    types: [
      { value: 'linux', label: 'Linux', protocols: ['ssh', 'telnet', 'vnc', 'rdp'] },
      { value: 'unix', label: 'Unix', protocols: ['ssh', 'telnet', 'vnc', 'rdp'] },
      {
        value: 'windows', label: 'Windows', protocols: ['rdp', 'ssh', 'vnc', 'winrm'], base: { su_enabled: false, su_methods: [] },
        automation: { ansible_config: { ansible_shell_type: 'cmd', ansible_connection: 'ssh' } }, family: ['win', 'Windows'],
      },
      { value: 'other', label: STARTUP_MESSAGES.other, protocols: ['ssh', 'telnet', 'vnc', 'rdp'], base: { su_enabled: false, su_methods: [] }, automation: OFF },
    ],
  },
  {
    value: 'device', label: STARTUP_MESSAGES.device, base: base(false, true, ['enable', 'super', 'super_level']), family: ['ssh', 'SSH'],
    automation: {
      ansible_enabled: true, ansible_config: { ansible_connection: 'local', first_connect_delay: 0.5 },
      items: { ...all(false), ping: true, verify_account: true, change_secret: true },
    },
    types: [
      { value: 'general', label: STARTUP_MESSAGES.general, protocols: ['ssh', 'telnet'] },
      { value: 'switch', label: STARTUP_MESSAGES.switch, protocols: ['ssh', 'telnet'] },
      { value: 'router', label: STARTUP_MESSAGES.router, protocols: ['ssh', 'telnet'] },
      { value: 'firewall', label: STARTUP_MESSAGES.firewall, protocols: ['ssh', 'telnet'] },
    ],
  },
  {
    value: 'database', label: STARTUP_MESSAGES.database, base: base(false, true), family: ['db', 'DB'],
    automation: { ansible_enabled: true, ansible_config: { ansible_connection: 'local' }, items: all(true) },
    types: [
      db('mysql', 'MySQL'),
      db('mariadb', 'MariaDB'),
      db('postgresql', 'PostgreSQL', { licensed: true }),
      db('oracle', 'Oracle', { licensed: true }),
      db('sqlserver', 'SQLServer', { licensed: true }),
      db('clickhouse', 'ClickHouse', { licensed: true, automation: OFF }),
      db('mongodb', 'MongoDB'),
      db('redis', 'Redis', { automation: { items: { ...all(true), gather_facts: false, gather_accounts: false, push_account: false } } }),
    ],
  },
  {
    value: 'cloud', label: STARTUP_MESSAGES.cloud, base: base(false, true), family: ['cloud', 'Cloud'], automation: OFF,
    types: [
      { value: 'k8s', label: 'Kubernetes', protocols: ['k8s'], required: true },
      { value: 'public', label: STARTUP_MESSAGES.publicCloud, protocols: ['http'], required: true },
      { value: 'private', label: STARTUP_MESSAGES.privateCloud, protocols: ['http'], required: true },
    ],
  },
  {
    value: 'web', label: STARTUP_MESSAGES.web, base: base(false, true), family: ['web', 'Web'], automation: OFF,
    types: [{ value: 'website', label: STARTUP_MESSAGES.website, protocols: ['http'], required: true }],
  },
  { value: 'custom', label: STARTUP_MESSAGES.customType, base: base(false, false), family: ['custom', 'Custom'], automation: OFF, types: [] },
]
