/**
 * Hardware info ("refresh", JumpServer's gather facts) of hosts over SSH: one bounded shell script read with
 * the asset's privileged account, through its domain's gateway when it has one. The answer becomes the host's
 * `gathered_info` (contract §5.2: vendor, model, sn, cpu_model, cpu_count, cpu_cores, cpu_vcpus, memory,
 * disk_total, distribution, distribution_version, arch). Assets without SSH or without an account are skipped
 * with the reason in the log; their previous info stays.
 */
import { sql } from 'kysely'
import type { DB } from '../db/connection.ts'
import { credentialsFor } from './credentials.ts'
import { describe, gatewaysOf, loadAssets, sshPort, target, type AssetRow, type ProbeOptions } from './connectivity.ts'
import { withSsh, type SshTarget } from './ssh.ts'

/** Each section starts with a `@@name` line; every command may fail quietly (a BSD has no /proc). */
export const FACTS_SCRIPT = [
  'echo @@arch; uname -m 2>/dev/null',
  'echo @@os; cat /etc/os-release 2>/dev/null',
  'echo @@uname; uname -sr 2>/dev/null',
  'echo @@cpuinfo; grep -E "^(model name|physical id|core id|processor)" /proc/cpuinfo 2>/dev/null',
  'echo @@nproc; nproc 2>/dev/null',
  'echo @@mem; grep MemTotal /proc/meminfo 2>/dev/null',
  'echo @@disk; df -P -k -l -x tmpfs -x devtmpfs -x overlay -x squashfs 2>/dev/null | tail -n +2',
  'echo @@vendor; cat /sys/class/dmi/id/sys_vendor 2>/dev/null',
  'echo @@model; cat /sys/class/dmi/id/product_name 2>/dev/null',
  'echo @@sn; cat /sys/class/dmi/id/product_serial 2>/dev/null',
  'true',
].join('; ')

export type Facts = Record<'vendor' | 'model' | 'sn' | 'cpu_model' | 'cpu_count' | 'cpu_cores' | 'cpu_vcpus' | 'memory' | 'disk_total' | 'distribution' | 'distribution_version' | 'arch', string | number>

const gib = (kib: number) => `${(kib / 1024 / 1024).toFixed(2)} G`

/** The script's output → gathered_info. Pure: the unit test feeds it outputs of other systems. */
export function parseFacts(out: string): Facts {
  const sections = new Map<string, string[]>()
  let current = ''
  for (const line of out.split('\n')) {
    const m = /^@@(\w+)$/.exec(line.trim())
    if (m) { current = m[1]!; sections.set(current, []); continue }
    if (current) sections.get(current)!.push(line)
  }
  const lines = (k: string) => (sections.get(k) ?? []).map((l) => l.trim()).filter(Boolean)
  const first = (k: string) => lines(k)[0] ?? ''
  const os = new Map(lines('os').map((l) => l.split('=')).filter((p) => p.length >= 2).map(([k, ...v]) => [k!, v.join('=').replace(/^"|"$/g, '')]))
  const uname = first('uname').split(/\s+/)
  const cpu = lines('cpuinfo')
  const field = (name: string) => cpu.filter((l) => l.startsWith(name)).map((l) => l.split(':').slice(1).join(':').trim())
  const physical = new Set(field('physical id'))
  const cores = new Set(cpu.reduce<string[]>((acc, l, i) => {
    if (!l.startsWith('core id')) return acc
    const phys = cpu.slice(0, i).reverse().find((x) => x.startsWith('physical id'))
    return [...acc, `${phys ?? ''}/${l}`]
  }, []))
  const vcpus = Number(first('nproc')) || field('processor').length || 0
  const memKib = Number(/(\d+)/.exec(first('mem'))?.[1] ?? 0)
  const diskKib = lines('disk').reduce((sum, l) => sum + (Number(l.split(/\s+/)[1]) || 0), 0)
  const clean = (v: string) => (/^(to be filled|default string|none|not specified|system serial number)/i.test(v) ? '' : v)
  return {
    vendor: clean(first('vendor')),
    model: clean(first('model')),
    sn: clean(first('sn')),
    cpu_model: field('model name')[0] ?? '',
    cpu_count: physical.size || (vcpus ? 1 : 0),
    cpu_cores: cores.size || vcpus,
    cpu_vcpus: vcpus,
    memory: memKib ? gib(memKib) : '',
    disk_total: diskKib ? gib(diskKib) : '',
    distribution: os.get('NAME') ?? uname[0] ?? '',
    distribution_version: os.get('VERSION_ID') ?? uname[1] ?? '',
    arch: first('arch'),
  }
}

/** Refreshes the hardware info of the assets; returns those refreshed and those that were not. */
export async function gatherFacts(db: DB, assetIds: string[], o: ProbeOptions): Promise<{ ok: string[]; failed: string[] }> {
  const assets = await loadAssets(db, assetIds)
  const domainIds = [...new Set(assets.filter((a) => a.domain_id && !a.is_gateway).map((a) => a.domain_id!))]
  const gateways = await gatewaysOf(db, domainIds)
  const creds = await credentialsFor(db, [...assets.map((a) => a.id), ...[...gateways.values()].map((g) => g.id)])
  const ok: string[] = []
  const failed: string[] = []
  await o.log(`>>> Refreshing the hardware info of ${assets.length} asset(s)`)
  const one = async (a: AssetRow) => {
    const ssh = a.protocols.find((p) => p.name === 'ssh')
    const cred = creds.get(a.id)
    if (!ssh) return `${a.name} (${a.address}): skipped, no SSH protocol`
    if (!cred) return `${a.name} (${a.address}): skipped, no privileged account to log in with`
    let via: SshTarget | undefined
    const gateway = a.domain_id && !a.is_gateway ? gateways.get(a.domain_id) : undefined
    if (gateway) {
      const gc = creds.get(gateway.id)
      if (!gc) return `${a.name} (${a.address}): failed, gateway ${gateway.name} has no privileged account to log in with`
      via = target(gateway.address, sshPort(gateway), gc)
    }
    const r = await withSsh(target(a.address, ssh.port, cred), { timeoutMs: o.timeoutMs, gateway: via, signal: o.signal },
      (s) => s.exec(FACTS_SCRIPT, { timeoutMs: 30_000, maxOutputBytes: 256 * 1024 }))
    const facts = parseFacts(r.stdout)
    await sql`update assets set gathered_info = ${JSON.stringify(facts)}::jsonb, date_updated = ${o.now()} where id = ${a.id}`.execute(db)
    ok.push(a.id)
    return `${a.name} (${a.address}): ok\n  ${facts.distribution} ${facts.distribution_version} ${facts.arch}, ${facts.cpu_vcpus} vCPU, ${facts.memory || '? G'} memory`
  }
  for (const a of assets) {
    if (o.signal?.aborted) break
    let line: string
    try {
      line = await one(a)
    } catch (err) {
      line = `${a.name} (${a.address}): failed (${describe(err)})`
    }
    if (!ok.includes(a.id)) failed.push(a.id)
    await o.log(line)
  }
  await o.log(`>>> Done: ${ok.length} refreshed, ${failed.length} not`)
  return { ok, failed }
}
