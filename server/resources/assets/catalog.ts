/**
 * Asset categories, types and their constraints (contract §4.4), as JumpServer 3.2 defines them in
 * assets/const/*.py: which protocols a type allows (with default ports, secret types, required flags and default
 * settings), charset/domain/su switches and the automation switches with their methods.
 */

export type Category = 'host' | 'device' | 'database' | 'cloud' | 'web' | 'custom'

export interface ProtocolSpec {
  name: string
  label: string
  port: number
  secret_types: string[]
  required?: boolean
  /** Only with a licence (xpack). */
  xpack?: boolean
  setting: Record<string, unknown>
}

export const PROTOCOLS: Record<string, ProtocolSpec> = Object.fromEntries(([
  ['ssh', 'SSH', 22, ['password', 'ssh_key'], { sftp_enabled: true, sftp_home: '/tmp' }],
  ['sftp', 'SFTP', 22, ['password', 'ssh_key'], { sftp_home: '/tmp' }],
  ['rdp', 'RDP', 3389, ['password'], { console: false, security: 'any' }],
  ['telnet', 'Telnet', 23, ['password'], {}],
  ['vnc', 'VNC', 5900, ['password'], {}],
  ['winrm', 'WinRM', 5985, ['password'], { use_ssl: false }],
  ['mysql', 'MySQL', 3306, ['password'], {}, true],
  ['mariadb', 'MariaDB', 3306, ['password'], {}, true],
  ['postgresql', 'PostgreSQL', 5432, ['password'], {}, true, true],
  ['oracle', 'Oracle', 1521, ['password'], {}, true, true],
  ['sqlserver', 'SQLServer', 1433, ['password'], {}, true, true],
  ['clickhouse', 'ClickHouse', 9000, ['password'], {}, true, true],
  ['mongodb', 'MongoDB', 27017, ['password'], {}, true],
  ['redis', 'Redis', 6379, ['password'], { auth_username: false }, true],
  ['k8s', 'K8s', 443, ['token'], {}, true],
  ['http', 'HTTP(s)', 80, ['password'], { autofill: 'basic', username_selector: 'name=username', password_selector: 'name=password', submit_selector: 'type=submit', script: [] }],
] as Array<[string, string, number, string[], Record<string, unknown>, boolean?, boolean?]>).map(([name, label, port, secret_types, setting, required, xpack]) =>
  [name, { name, label, port, secret_types, setting, ...(required ? { required } : {}), ...(xpack ? { xpack } : {}) }]))

export const CATEGORY_LABELS: Record<Category, string> = {
  host: 'Host', device: 'Device', database: 'Database', cloud: 'Cloud service', web: 'Web', custom: 'Custom type',
}
export const CATEGORIES: Category[] = ['host', 'device', 'database', 'cloud', 'web', 'custom']

export const AUTOMATION_ITEMS = ['ping', 'gather_facts', 'gather_accounts', 'verify_account', 'change_secret', 'push_account'] as const
export type AutomationItem = (typeof AUTOMATION_ITEMS)[number]

export interface TypeSpec {
  value: string
  label: string
  category: Category
  /** In the community edition (no licence). */
  community: boolean
  charset_enabled: boolean
  domain_enabled: boolean
  su_enabled: boolean
  su_methods: string[]
  protocols: string[]
  ansible_enabled: boolean
  ansible_config: Record<string, unknown>
  /** Enabled automation items. */
  automation: AutomationItem[]
  /** Method family: method ids are `<item>_<family>`. */
  family: string
}

const ALL: AutomationItem[] = [...AUTOMATION_ITEMS]
const DB_ITEMS: AutomationItem[] = ['ping', 'gather_accounts', 'verify_account', 'change_secret', 'push_account']

function t(category: Category, value: string, label: string, o: Partial<TypeSpec> & { protocols: string[] }): TypeSpec {
  return {
    value, label, category, community: true, charset_enabled: false, domain_enabled: true, su_enabled: false, su_methods: [],
    ansible_enabled: false, ansible_config: {}, automation: [], family: value, ...o,
  }
}

const HOST = { charset_enabled: true, su_enabled: true, su_methods: ['sudo', 'su'], ansible_enabled: true, ansible_config: { ansible_connection: 'smart' }, automation: ALL, family: 'posix' }
const DB = { ansible_enabled: true, ansible_config: { ansible_connection: 'local' }, automation: DB_ITEMS }
const DEVICE = { su_enabled: true, su_methods: ['enable', 'super', 'super_level'], ansible_enabled: true, ansible_config: { ansible_connection: 'local', first_conn_delay_time: 0.5 }, automation: ['ping', 'verify_account', 'change_secret'] as AutomationItem[], family: 'device', protocols: ['ssh', 'telnet'] }

export const TYPES: TypeSpec[] = [
  t('host', 'linux', 'Linux', { ...HOST, protocols: ['ssh', 'telnet', 'vnc', 'rdp'] }),
  t('host', 'unix', 'Unix', { ...HOST, protocols: ['ssh', 'telnet', 'vnc', 'rdp'] }),
  t('host', 'windows', 'Windows', { ...HOST, su_enabled: false, su_methods: [], ansible_config: { ansible_shell_type: 'cmd', ansible_connection: 'ssh' }, family: 'windows', protocols: ['rdp', 'ssh', 'vnc', 'winrm'] }),
  t('host', 'other', 'Other', { ...HOST, su_enabled: false, su_methods: [], protocols: ['ssh', 'telnet', 'vnc', 'rdp'] }),
  t('device', 'general', 'General', DEVICE),
  t('device', 'switch', 'Switch', DEVICE),
  t('device', 'router', 'Router', DEVICE),
  t('device', 'firewall', 'Firewall', DEVICE),
  t('database', 'mysql', 'MySQL', { ...DB, protocols: ['mysql'] }),
  t('database', 'mariadb', 'MariaDB', { ...DB, family: 'mysql', protocols: ['mariadb'] }),
  t('database', 'postgresql', 'PostgreSQL', { ...DB, community: false, protocols: ['postgresql'] }),
  t('database', 'oracle', 'Oracle', { ...DB, community: false, protocols: ['oracle'] }),
  t('database', 'sqlserver', 'SQLServer', { ...DB, community: false, protocols: ['sqlserver'] }),
  t('database', 'clickhouse', 'ClickHouse', { community: false, protocols: ['clickhouse'] }),
  t('database', 'mongodb', 'MongoDB', { ...DB, protocols: ['mongodb'] }),
  t('database', 'redis', 'Redis', { protocols: ['redis'] }),
  t('cloud', 'k8s', 'Kubernetes', { domain_enabled: false, protocols: ['k8s'], family: 'cloud' }),
  t('cloud', 'public', 'Public cloud', { domain_enabled: false, protocols: ['http'], family: 'cloud' }),
  t('cloud', 'private', 'Private cloud', { domain_enabled: false, protocols: ['http'], family: 'cloud' }),
  t('web', 'website', 'Website', { domain_enabled: false, protocols: ['http'], family: 'web' }),
  t('custom', 'custom', 'Custom', { domain_enabled: false, protocols: [], family: 'custom' }),
]

export const typeSpec = (category: string, type: string): TypeSpec | undefined => TYPES.find((x) => x.category === category && x.value === type)

/** Every automation method: `{id, name, category, type[], method}` as `/assets/platform-automation-methods/` lists them. */
export function automationMethods(): Array<{ id: string; name: string; method: string; category: Category[]; type: string[] }> {
  const out = new Map<string, { id: string; name: string; method: string; category: Category[]; type: string[] }>()
  for (const tp of TYPES) {
    for (const item of tp.automation) {
      const id = `${item}_${tp.family}`
      const m = out.get(id) ?? { id, name: methodName(item, tp.family), method: item, category: [], type: [] }
      if (!m.category.includes(tp.category)) m.category.push(tp.category)
      m.type.push(tp.value)
      out.set(id, m)
    }
  }
  return [...out.values()]
}

const ITEM_NAMES: Record<AutomationItem, string> = {
  ping: 'Ping', gather_facts: 'Gather facts', gather_accounts: 'Gather accounts', verify_account: 'Verify account',
  change_secret: 'Change secret', push_account: 'Push account',
}
const FAMILY_NAMES: Record<string, string> = { posix: 'Posix', windows: 'Windows', device: 'Device', mysql: 'MySQL', postgresql: 'PostgreSQL', oracle: 'Oracle', sqlserver: 'SQLServer', mongodb: 'MongoDB' }
function methodName(item: AutomationItem, family: string): string {
  return `${FAMILY_NAMES[family] ?? family} ${ITEM_NAMES[item].toLowerCase()}`
}

/** The constraints object of a type (contract §4.4). */
export function constraintsOf(tp: TypeSpec): Record<string, unknown> {
  const automation: Record<string, unknown> = { ansible_enabled: tp.ansible_enabled, ansible_config: tp.ansible_config }
  const methods = automationMethods()
  for (const item of AUTOMATION_ITEMS) {
    const on = tp.automation.includes(item)
    automation[`${item}_enabled`] = on
    if (on) automation[`${item}_methods`] = methods.filter((m) => m.method === item && m.type.includes(tp.value)).map((m) => ({ id: m.id, name: m.name }))
  }
  return {
    charset_enabled: tp.charset_enabled,
    ...(tp.charset_enabled ? { charset: 'utf-8' } : {}),
    domain_enabled: tp.domain_enabled,
    su_enabled: tp.su_enabled,
    su_methods: tp.su_methods,
    protocols: tp.protocols.map((name, i) => {
      const p = PROTOCOLS[name]!
      return { name, port: p.port, secret_types: p.secret_types, setting: p.setting, ...(p.required ? { required: true } : {}), ...(i === 0 ? { default: true } : {}) }
    }),
    automation,
  }
}

/** Labels of every category, type, protocol and method (translated next to them, messages.ts). */
export const CATALOG_LABELS = [
  ...Object.values(CATEGORY_LABELS), ...TYPES.map((x) => x.label), ...Object.values(ITEM_NAMES),
]
