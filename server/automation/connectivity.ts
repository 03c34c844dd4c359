/**
 * Connectivity of assets (issue 10): for each asset, each of its protocols — an SSH protocol by a real SSH
 * login with the asset's privileged account (credentials.ts), or the SSH handshake when there is none; any
 * other protocol by a TCP connect — reached through an active gateway of the asset's domain when it has one.
 * The asset's `connectivity` becomes ok (every protocol answered) or err, `date_verified` now.
 */
import { sql } from 'kysely'
import type { DB } from '../db/connection.ts'
import { loadAssets, reachAll, target, type AssetRow } from '../ssh/target.ts'
import { credentialsFor } from './credentials.ts'
import { sshHandshake, sshLogin, SshError, tcpProbe, type SshTarget } from './ssh.ts'

export { gatewaysOf, loadAssets, sshPort, target, type AssetRow } from '../ssh/target.ts'

export interface ProbeOptions {
  timeoutMs?: number
  signal?: AbortSignal
  log: (text: string) => Promise<void>
  now: () => Date
  /** Probe the SSH protocol on this port instead (a gateway's test-connective `port`). */
  portOverride?: number
}

const SSH_PROTOCOLS = new Set(['ssh', 'sftp'])
/** Assets tested at once. */
const PARALLEL = 8

export function describe(err: unknown): string {
  if (err instanceof SshError) return `${err.kind}: ${err.message}`
  return err instanceof Error ? err.message : String(err)
}

/** Tests the assets; returns the ids that answered and those that did not. */
export async function testConnectivity(db: DB, assetIds: string[], o: ProbeOptions): Promise<{ ok: string[]; failed: string[] }> {
  const assets = await loadAssets(db, assetIds)
  const reaches = await reachAll(db, assets)
  const creds = await credentialsFor(db, assets.map((a) => a.id))
  const ok: string[] = []
  const failed: string[] = []
  await o.log(`>>> Testing the connectivity of ${assets.length} asset(s)`)

  const testOne = async (a: AssetRow) => {
    const lines: string[] = []
    let good = true
    const reach = reaches.get(a.id)!
    let via: SshTarget | undefined
    if (a.domain_id && !a.is_gateway) {
      if (reach.gatewayError) {
        lines.push(`  ${reach.gatewayError}`)
        good = false
      } else if (!reach.gateway) {
        lines.push(`  the domain has no active gateway: connecting directly`)
      } else {
        via = reach.gateway
        lines.push(`  through gateway ${reach.gateway.name} (${reach.gateway.host}:${reach.gateway.port})`)
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
