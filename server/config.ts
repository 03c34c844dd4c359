import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

/** Licence behaviour: `valid` (default), `none` (community install), `expiring` (valid, expiring in 3 days). */
export type LicenseMode = 'valid' | 'none' | 'expiring' | 'expired'

export interface ServerConfig {
  port: number
  host: string
  dataDir: string
  /** PostgreSQL connection string; when absent the embedded PGlite database in `dataDir` is used. */
  databaseUrl?: string
  secretKey: string
  adminPassword?: string
  license: LicenseMode
  /** Proxy mode: forward /api, /ws, /core, /static, /media to this JumpServer. */
  jumpserverUrl?: string
  sessionCookiePrefix: string
  sessionAge: number
  /** SESSION_EXPIRE_AT_BROWSER_CLOSE: the session mark is `close` instead of `age`. */
  sessionExpireAtBrowserClose: boolean
  /** Where the built console lives (vite build output). */
  distDir: string
  /** Largest JSON body accepted, in bytes. */
  bodyLimit: number
  logLevel: string
  /** RSA modulus for the per-session key pair of contract §6. */
  rsaBits: number
  /**
   * TRUSTED_PROXIES: addresses / CIDRs of reverse proxies whose X-Forwarded-For/-Host/-Proto are believed.
   * Empty (the default): the peer address is the client, forwarded headers are ignored.
   */
  trustedProxies: string[]
  /** Background tasks this process runs at once (TASK_WORKERS); 0 = it only queues them (docs/tasks.md). */
  taskWorkers: number
  /** Lease of a running background task (TASK_LEASE_SECONDS): how long a dead process's task stays RUNNING. */
  taskLeaseSeconds: number
  /** Zone in which task schedules (cron) are read (TIME_ZONE; JumpServer's default Asia/Shanghai). */
  timeZone: string
  /** BOOTSTRAP_TOKEN: the token terminal components register with (none: registration refused). */
  bootstrapToken?: string
  /** REPLAY_MAX_BYTES: largest session replay a component may upload (docs/terminal.md). */
  replayMaxBytes: number
  /**
   * The SMS providers' API addresses (SMS_ALIBABA_ENDPOINT, SMS_TENCENT_ENDPOINT; Huawei's is a setting): the
   * public clouds by default, a private endpoint or a test server otherwise (server/sms).
   */
  smsEndpoints: { alibaba: string; tencent: string }
  /** SSH_PORT: the built-in SSH gateway's port (default 2222; 0 turns it off; docs/terminal.md). */
  sshPort: number
  /** SSH_HOST: the address the SSH gateway listens on (default as HOST). */
  sshHost: string
}

const IPV4_RE = /^(\d{1,3})(\.\d{1,3}){3}(\/\d{1,2})?$/
const IPV6_RE = /^[0-9a-f:.]+(\/\d{1,3})?$/i

/** Parses TRUSTED_PROXIES; a malformed entry stops the start (a typo must not silently trust nobody or everybody). */
export function parseTrustedProxies(raw: string | undefined): string[] {
  const items = (raw ?? '').split(',').map((s) => s.trim()).filter(Boolean)
  for (const item of items) {
    if (!IPV4_RE.test(item) && !(item.includes(':') && IPV6_RE.test(item))) throw new Error(`TRUSTED_PROXIES: not an IP address or CIDR: ${item}`)
  }
  return items
}

function bool(v: string | undefined, dflt: boolean): boolean {
  if (v === undefined || v === '') return dflt
  return ['1', 'true', 'yes', 'on'].includes(v.toLowerCase())
}

/** Reads the environment; generates SECRET_KEY into the data folder when absent. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<ServerConfig> = {}): ServerConfig {
  const dataDir = resolve(overrides.dataDir ?? env.DATA_DIR ?? './data')
  const databaseUrl = overrides.databaseUrl ?? (env.DATABASE_URL || undefined)
  let secretKey = overrides.secretKey ?? env.SECRET_KEY
  if (!secretKey) {
    mkdirSync(dataDir, { recursive: true })
    const file = join(dataDir, 'secret_key')
    if (existsSync(file)) secretKey = readFileSync(file, 'utf8').trim()
    else {
      secretKey = randomBytes(32).toString('base64url')
      writeFileSync(file, secretKey + '\n', { mode: 0o600 })
    }
  }
  const licenseRaw = (env.LICENSE ?? 'valid').toLowerCase()
  const license: LicenseMode = (['valid', 'none', 'expiring', 'expired'] as const).find((m) => m === licenseRaw) ?? 'valid'
  return {
    port: Number(env.PORT ?? 8080),
    host: env.HOST ?? '127.0.0.1',
    dataDir,
    databaseUrl,
    secretKey,
    adminPassword: env.ADMIN_PASSWORD || undefined,
    license,
    jumpserverUrl: env.JUMPSERVER_URL || undefined,
    sessionCookiePrefix: env.SESSION_COOKIE_NAME_PREFIX || 'jms_',
    sessionAge: Number(env.SESSION_COOKIE_AGE ?? 86_400),
    sessionExpireAtBrowserClose: bool(env.SESSION_EXPIRE_AT_BROWSER_CLOSE, false),
    distDir: resolve(env.DIST_DIR ?? 'dist'),
    bodyLimit: Number(env.BODY_LIMIT ?? 1024 * 1024),
    logLevel: env.LOG_LEVEL ?? 'info',
    rsaBits: Number(env.RSA_BITS ?? 2048),
    trustedProxies: parseTrustedProxies(env.TRUSTED_PROXIES),
    taskWorkers: Number(env.TASK_WORKERS ?? 2),
    taskLeaseSeconds: Number(env.TASK_LEASE_SECONDS ?? 60),
    timeZone: env.TIME_ZONE || 'Asia/Shanghai',
    bootstrapToken: env.BOOTSTRAP_TOKEN || undefined,
    replayMaxBytes: Number(env.REPLAY_MAX_BYTES ?? 200 * 1024 * 1024),
    smsEndpoints: {
      alibaba: env.SMS_ALIBABA_ENDPOINT || 'https://dysmsapi.aliyuncs.com/',
      tencent: env.SMS_TENCENT_ENDPOINT || 'https://sms.tencentcloudapi.com/',
    },
    sshPort: Number(env.SSH_PORT ?? 2222),
    sshHost: env.SSH_HOST || env.HOST || '127.0.0.1',
    ...overrides,
  }
}
