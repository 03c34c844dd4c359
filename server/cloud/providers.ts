/**
 * Cloud providers behind one interface (docs/cloud.md "Adding a provider"). The sync (sync.ts) only sees
 * `CloudProvider`: its regions, and per region its instances. A public cloud's provider is one more entry of
 * PROVIDERS with the same shape; nothing else changes.
 */
import { setMaxListeners } from 'node:events'
import { withSsh } from '../automation/ssh.ts'
import { mapBounded, planAddresses, probePort, type PortAnswer } from './netscan.ts'

export interface CloudInstance {
  /** Stable per provider (the scan: the address). */
  id: string
  name: string
  /** Private addresses first, then public ones. */
  privateIps: string[]
  publicIps: string[]
  /** 'Linux' | 'Unix' | 'Windows' … — a platform name of ours. */
  platform: string
  /** Protocols seen answering, e.g. ssh/22. */
  protocols: Array<{ name: string; port: number }>
  state: 'running' | 'stopped'
}

export interface ProviderContext {
  /** The account's settings that are not secret. */
  attrs: Record<string, unknown>
  /** Its secret settings, opened. */
  secrets: Record<string, string>
  /** CLOUD_SCAN_ALLOWED_NETWORKS: a provider that probes networks itself must stay inside it. */
  allowedNetworks: readonly string[]
  log(text: string): Promise<void>
  signal?: AbortSignal
}

export class ProviderRefusal extends Error {
  constructor(readonly field: string, message: string, readonly params: Record<string, string> = {}) { super(message) }
}

export interface CloudProvider {
  value: string
  label: string
  /** The attrs it reads, for the form; `secret` ones are sealed and never returned. */
  attrs: Array<{ name: string; label: string; type: 'string' | 'list' | 'integer'; secret?: boolean; required?: boolean }>
  /** Checks the settings without contacting anything (400 field errors); the scan checks the allowed networks. */
  validate?(ctx: ProviderContext): void
  regions(ctx: ProviderContext): Promise<Array<{ id: string; name: string }>>
  instances(ctx: ProviderContext, region: string): Promise<CloudInstance[]>
  /** Test-connective: true when the provider answers with these credentials. */
  test(ctx: ProviderContext): Promise<boolean>
}

// ------------------------------------------------------------------------------------------- the scan (LAN)

const KNOWN_PORTS: Record<number, string> = { 22: 'ssh', 23: 'telnet', 3389: 'rdp', 5900: 'vnc', 5985: 'winrm', 5986: 'winrm' }

/** The platform from an SSH identification line, else from the open ports. */
export function guessPlatform(answers: PortAnswer[], uname = ''): string {
  const u = uname.trim().toLowerCase()
  if (u) {
    if (u.startsWith('linux')) return 'Linux'
    if (u.includes('darwin')) return 'macOS'
    if (/bsd/.test(u)) return 'BSD'
    if (u.startsWith('aix')) return 'AIX'
    if (/mingw|cygwin|msys|windows/.test(u)) return 'Windows'
    return 'Unix'
  }
  const banners = answers.map((a) => a.banner).filter((b) => b.startsWith('SSH-'))
  for (const b of banners) {
    if (/windows/i.test(b)) return 'Windows'
    if (/freebsd|openbsd|netbsd/i.test(b)) return 'BSD'
    if (/debian|ubuntu|raspbian|centos|red ?hat|fedora|alpine|suse|linux/i.test(b)) return 'Linux'
  }
  const ports = new Set(answers.map((a) => a.port))
  if (ports.has(3389) || ports.has(5985) || ports.has(5986)) return 'Windows'
  return 'Linux'
}

const list = (v: unknown): string[] => (Array.isArray(v) ? v : typeof v === 'string' ? v.split(/[\s,]+/) : []).map((x) => String(x).trim()).filter(Boolean)
export const scanPorts = (attrs: Record<string, unknown>): number[] => {
  const ports = list(attrs.port ?? attrs.ports).map(Number).filter((p) => Number.isInteger(p) && p > 0 && p < 65536)
  return ports.length ? [...new Set(ports)].slice(0, 16) : [22]
}

export const scanProvider: CloudProvider = {
  value: 'lan',
  label: 'LAN',
  attrs: [
    { name: 'ip_group', label: 'IP network segment group', type: 'list', required: true },
    { name: 'port', label: 'Port', type: 'list' },
    { name: 'username', label: 'Username', type: 'string' },
    { name: 'password', label: 'Password', type: 'string', secret: true },
  ],
  validate(ctx) {
    const regions = list(ctx.attrs.ip_group)
    if (!regions.length) throw new ProviderRefusal('ip_group', 'This field is required.')
    const plan = planAddresses(regions, ctx.allowedNetworks)
    if (plan.bad.length) throw new ProviderRefusal('ip_group', 'Not an IPv4 address, range or CIDR: {value}', { value: plan.bad.join(', ') })
    if (plan.outside.length) throw new ProviderRefusal('ip_group', 'Outside the networks an administrator allows to scan: {value}', { value: plan.outside.join(', ') })
    if (plan.tooMany) throw new ProviderRefusal('ip_group', 'At most {n} addresses per scan.', { n: '4096' })
  },
  async regions(ctx) {
    return list(ctx.attrs.ip_group).map((r) => ({ id: r, name: r }))
  },
  async instances(ctx, region) {
    // the check comes before any packet: a region outside the allowed networks is refused whole
    const plan = planAddresses([region], ctx.allowedNetworks)
    if (plan.outside.length) throw new ProviderRefusal('regions', 'Outside the networks an administrator allows to scan: {value}', { value: region })
    if (plan.bad.length || plan.tooMany) throw new ProviderRefusal('regions', 'Not an IPv4 address, range or CIDR: {value}', { value: region })
    const ports = scanPorts(ctx.attrs)
    // one abort listener per probe in flight (bounded by the parallelism below)
    if (ctx.signal) setMaxListeners(32 * ports.length + 16, ctx.signal)
    const connectMs = Number(ctx.attrs.timeout_ms) > 0 ? Math.min(Number(ctx.attrs.timeout_ms), 10_000) : 1500
    const found = await mapBounded(plan.addresses, 32, async (address) => {
      if (ctx.signal?.aborted) return undefined
      const answers = (await Promise.all(ports.map((p) => probePort(address, p, { connectMs, bannerMs: connectMs, signal: ctx.signal })))).filter((a): a is PortAnswer => !!a)
      if (!answers.length) return undefined
      const protocols = answers.map((a) => ({ name: a.banner.startsWith('SSH-') ? 'ssh' : KNOWN_PORTS[a.port] ?? '', port: a.port })).filter((p) => p.name)
      let uname = ''
      const ssh = answers.find((a) => a.banner.startsWith('SSH-'))
      if (ssh && ctx.attrs.username && ctx.secrets.password) {
        try {
          uname = await withSsh({ host: address, port: ssh.port, username: String(ctx.attrs.username), password: ctx.secrets.password }, { timeoutMs: 10_000, signal: ctx.signal },
            async (s) => (await s.exec('uname -s', { timeoutMs: 10_000, maxOutputBytes: 1024 })).stdout)
          await ctx.log(`${address}: uname -s over SSH: ${uname.trim()}`)
        } catch (e) {
          await ctx.log(`${address}: uname over SSH failed (${(e as Error).message}); the platform is guessed from the banner`)
        }
      }
      const platform = guessPlatform(answers, uname)
      await ctx.log(`${address}: answers on ${answers.map((a) => a.port).join(', ')}${ssh ? ` (${ssh.banner})` : ''} → ${platform}`)
      return { id: address, name: address, privateIps: [address], publicIps: [], platform, protocols, state: 'running' as const }
    })
    return found.filter((x) => !!x) as CloudInstance[]
  },
  async test(ctx) {
    this.validate!(ctx)
    return true
  },
}

export const PROVIDERS: Record<string, CloudProvider> = { lan: scanProvider }

/**
 * The providers offered (OPTIONS choices): those this server can sync. lina knows more names (aliyun, qcloud,
 * qcloud_lighthouse, huaweicloud, baiducloud, jdcloud, kingsoftcloud, aws_china, aws_international, azure,
 * azure_international, gcp, vmware, nutanix, openstack, qingcloud_private, huaweicloud_private, ctyun_private, fc;
 * contract §5.11): a provider added under one of them appears here by itself.
 */
export const PROVIDER_CHOICES = Object.values(PROVIDERS).map((p) => ({ value: p.value, label: p.label }))
