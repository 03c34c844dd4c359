/**
 * Connectivity of assets (issue 10): for each asset, each of its protocols — an SSH protocol by a real SSH
 * login with the asset's privileged account (credentials.ts), or the SSH handshake when there is none; any
 * other protocol by a TCP connect — reached through an active gateway of the asset's domain when it has one.
 * The asset's `connectivity` becomes ok (every protocol answered) or err, `date_verified` now.
 */
import { sql } from 'kysely'
import type { DB } from '../db/connection.ts'
import { credentialsFor, type AssetCredential } from './credentials.ts'
import { sshHandshake, sshLogin, SshError, tcpProbe, type SshTarget } from './ssh.ts'

export interface ProbeOptions {
  timeoutMs?: number
  signal?: AbortSignal
  log: (text: string) => Promise<void>
  now: () => Date
  /** Probe the SSH protocol on this port instead (a gateway's test-connective `port`). */
  portOverride?: number
}

export interface AssetRow {
  id: string
  name: string
  address: string
  domain_id: string | null
  is_gateway: boolean
  protocols: Array<{ name: string; port: number }>
}

const SSH_PROTOCOLS = new Set(['ssh', 'sftp'])
/** Assets tested at once. */
const PARALLEL = 8

export async function loadAssets(db: DB, ids: string[]): Promise<AssetRow[]> {
  if (!ids.length) return []
  const r = await sql<AssetRow>`select a.id, a.name, a.address, a.domain_id,
      a.platform_id in (select p.id from platforms p where p.name = 'Gateway') as is_gateway,
      coalesce((select json_agg(json_build_object('name', ap.name, 'port', ap.port) order by ap.id) from asset_protocols ap where ap.asset_id = a.id), '[]'::json) as protocols
    from assets a where a.id = any(${ids}::uuid[]) order by a.name, a.id`.execute(db)
  return r.rows
}

/** An active gateway of each domain (the one tested ok most recently first), with its SSH port. */
export async function gatewaysOf(db: DB, domainIds: string[]): Promise<Map<string, AssetRow>> {
  if (!domainIds.length) return new Map()
  const r = await sql<{ id: string; domain_id: string }>`select distinct on (a.domain_id) a.id, a.domain_id from assets a
    where a.domain_id = any(${domainIds}::uuid[]) and a.is_active
      and a.platform_id in (select p.id from platforms p where p.name = 'Gateway')
    order by a.domain_id, (a.connectivity = 'ok') desc, a.name, a.id`.execute(db)
  const rows = await loadAssets(db, r.rows.map((x) => x.id))
  const byId = new Map(rows.map((g) => [g.id, g]))
  return new Map(r.rows.map((x) => [x.domain_id, byId.get(x.id)!]))
}

export const sshPort = (a: AssetRow) => a.protocols.find((p) => p.name === 'ssh')?.port ?? 22
export const target = (host: string, port: number, c: AssetCredential): SshTarget => ({
  host, port, username: c.username, password: c.password, privateKey: c.privateKey, passphrase: c.passphrase,
})

export function describe(err: unknown): string {
  if (err instanceof SshError) return `${err.kind}: ${err.message}`
  return err instanceof Error ? err.message : String(err)
}

/** Tests the assets; returns the ids that answered and those that did not. */
export async function testConnectivity(db: DB, assetIds: string[], o: ProbeOptions): Promise<{ ok: string[]; failed: string[] }> {
  const assets = await loadAssets(db, assetIds)
  const domainIds = [...new Set(assets.filter((a) => a.domain_id && !a.is_gateway).map((a) => a.domain_id!))]
  const gateways = await gatewaysOf(db, domainIds)
  const creds = await credentialsFor(db, [...assets.map((a) => a.id), ...[...gateways.values()].map((g) => g.id)])
  const ok: string[] = []
  const failed: string[] = []
  await o.log(`>>> Testing the connectivity of ${assets.length} asset(s)`)

  const testOne = async (a: AssetRow) => {
    const lines: string[] = []
    let good = true
    const gateway = a.domain_id && !a.is_gateway ? gateways.get(a.domain_id) : undefined
    let via: SshTarget | undefined
    if (a.domain_id && !a.is_gateway) {
      if (!gateway) {
        lines.push(`  the domain has no active gateway: connecting directly`)
      } else {
        const gc = creds.get(gateway.id)
        if (!gc) {
          lines.push(`  gateway ${gateway.name} (${gateway.address}) has no privileged account to log in with`)
          good = false
        } else {
          via = target(gateway.address, sshPort(gateway), gc)
          lines.push(`  through gateway ${gateway.name} (${gateway.address}:${sshPort(gateway)})`)
        }
      }
    }
    const protocols = o.portOverride ? [{ name: 'ssh', port: o.portOverride }] : a.protocols
    if (!protocols.length) lines.push('  no protocols to test')
    const cred = creds.get(a.id)
    for (const p of good ? protocols : []) {
      const options = { timeoutMs: o.timeoutMs, gateway: via, signal: o.signal }
      try {
        if (SSH_PROTOCOLS.has(p.name) && cred) {
          const r = await sshLogin(target(a.address, p.port, cred), options)
          lines.push(`  ${p.name}/${p.port}: ok, logged in as ${cred.label ?? cred.username} (${r.serverVersion}, ${r.hostKeyFingerprint})`)
        } else if (SSH_PROTOCOLS.has(p.name)) {
          const r = await sshHandshake({ host: a.address, port: p.port }, options)
          lines.push(`  ${p.name}/${p.port}: ok, SSH handshake (${r.serverVersion}, ${r.hostKeyFingerprint}); no privileged account to log in with`)
        } else {
          await tcpProbe(a.address, p.port, options)
          lines.push(`  ${p.name}/${p.port}: ok, port open`)
        }
      } catch (err) {
        good = false
        lines.push(`  ${p.name}/${p.port}: failed (${describe(err)})`)
      }
    }
    const state = good && protocols.length ? 'ok' : good ? '-' : 'err'
    await sql`update assets set connectivity = ${state}, date_verified = ${o.now()} where id = ${a.id}`.execute(db)
    ;(state === 'err' ? failed : ok).push(a.id)
    await o.log([`${a.name} (${a.address}): ${state === 'ok' ? 'ok' : state === 'err' ? 'failed' : 'unknown'}`, ...lines].join('\n'))
  }

  let next = 0
  const worker = async () => {
    while (next < assets.length && !o.signal?.aborted) await testOne(assets[next++]!)
  }
  await Promise.all(Array.from({ length: Math.min(PARALLEL, assets.length) }, worker))
  await o.log(`>>> Done: ${ok.length} ok, ${failed.length} failed`)
  return { ok, failed }
}
