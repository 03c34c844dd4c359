/**
 * One way to reach a host (issue 29): asset → domain/gateway → protocol/port → account/secret → host key. Used by
 * the connectivity tests, the account automations, applet deploys and the built-in terminal (server/terminal).
 *
 * - The gateway rule: an asset in a domain (that is not itself a gateway) is reached through an active gateway of
 *   its domain, the one tested ok most recently first, then by name; it logs in with the gateway's privileged
 *   account. A domain without an active gateway is reached directly; a gateway without a privileged account makes
 *   every login fail (`gatewayError`).
 * - Ports: the asset's protocol of that name (`asset_protocols`), 22 for SSH when it has none.
 * - Host keys (trust on first use): the first successful connection records the key's fingerprint per asset and
 *   port (`asset_host_keys`, migration 040); a different key later is refused (`host_key_changed`) until an
 *   administrator clears the recorded keys (`POST /api/v1/assets/assets/<id>/clear-host-keys/`).
 */
import { sql } from 'kysely'
import { credentialsFor, type AssetCredential } from '../automation/credentials.ts'
import type { SshTarget } from '../automation/ssh.ts'
import type { DB } from '../db/connection.ts'
import { openSecret } from '../resources/accounts/secrets.ts'

export interface AssetRow {
  id: string
  name: string
  address: string
  org_id: string
  domain_id: string | null
  is_gateway: boolean
  is_active: boolean
  protocols: Array<{ name: string; port: number }>
}

export async function loadAssets(db: DB, ids: string[]): Promise<AssetRow[]> {
  if (!ids.length) return []
  const r = await sql<AssetRow>`select a.id, a.name, a.address, a.org_id, a.domain_id, a.is_active,
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

export const portOf = (a: Pick<AssetRow, 'protocols'>, protocol = 'ssh') =>
  a.protocols.find((p) => p.name === protocol)?.port ?? (protocol === 'ssh' || protocol === 'sftp' ? 22 : 0)
export const sshPort = (a: Pick<AssetRow, 'protocols'>) => portOf(a, 'ssh')

/** An SSH target from an automation credential. */
export const target = (host: string, port: number, c: AssetCredential): SshTarget => ({
  host, port, username: c.username, password: c.password, privateKey: c.privateKey, passphrase: c.passphrase,
})

/** An account's credential (the accounts module's shape). */
export interface Credential { username: string; secretType: string; secret: string; passphrase?: string }

export function credentialTarget(host: string, port: number, cred: Credential): SshTarget {
  const t: SshTarget = { host, port, username: cred.username }
  if (cred.secretType === 'ssh_key') {
    t.privateKey = cred.secret
    if (cred.passphrase) t.passphrase = cred.passphrase
  } else t.password = cred.secret
  return t
}

/** An account of an asset with its secret opened; undefined when it is not an active account of the asset. */
export async function accountCredential(db: DB, assetId: string, accountId: string): Promise<Credential & { id: string; name: string } | undefined> {
  const a = (await sql<{ id: string; name: string; username: string; secret_type: string; secret: string | null; passphrase: string | null }>`select id, name, username, secret_type, secret, passphrase
    from accounts where id = ${accountId} and asset_id = ${assetId} and is_active`.execute(db)).rows[0]
  if (!a) return undefined
  return {
    id: a.id, name: a.name, username: a.username, secretType: a.secret_type,
    secret: openSecret(db, 'accounts', a.id, 'secret', a.secret), passphrase: openSecret(db, 'accounts', a.id, 'passphrase', a.passphrase) || undefined,
  }
}

/** How to reach one asset on one protocol: its address and port, and the gateway to go through. */
export interface Reach {
  asset: AssetRow
  port: number
  /** The gateway of the asset's domain that every login to the asset goes through (an SSH forward). */
  gateway?: SshTarget & { name: string; assetId: string }
  /** Why the asset cannot be reached: its domain's gateway has no account to log in with. */
  gatewayError?: string
}

/** Resolves the gateways of several assets at once (connectivity tests) or of one (`reachOf`). */
export async function reachAll(db: DB, assets: AssetRow[], protocol = 'ssh'): Promise<Map<string, Reach>> {
  const domainIds = [...new Set(assets.filter((a) => a.domain_id && !a.is_gateway).map((a) => a.domain_id!))]
  const gateways = await gatewaysOf(db, domainIds)
  const creds = await credentialsFor(db, [...gateways.values()].map((g) => g.id))
  const out = new Map<string, Reach>()
  for (const a of assets) {
    const reach: Reach = { asset: a, port: portOf(a, protocol) }
    const g = a.domain_id && !a.is_gateway ? gateways.get(a.domain_id) : undefined
    if (g) {
      const gc = creds.get(g.id)
      if (!gc) reach.gatewayError = `gateway ${g.name} (${g.address}) has no privileged account to log in with`
      else reach.gateway = { ...target(g.address, sshPort(g), gc), name: g.name, assetId: g.id }
    }
    out.set(a.id, reach)
  }
  return out
}

export async function reachOf(db: DB, assetId: string, protocol = 'ssh'): Promise<Reach | undefined> {
  const [asset] = await loadAssets(db, [assetId])
  if (!asset) return undefined
  return (await reachAll(db, [asset], protocol)).get(asset.id)
}

// ------------------------------------------------------------------------------------------- host keys

export async function knownHostKey(db: DB, assetId: string, port: number): Promise<string | undefined> {
  const r = await sql<{ fingerprint: string }>`select fingerprint from asset_host_keys where asset_id = ${assetId} and port = ${port}`.execute(db)
  return r.rows[0]?.fingerprint
}

/** Records the key seen on a first connection (a key recorded meanwhile by another connection stays). */
export async function recordHostKey(db: DB, assetId: string, port: number, fingerprint: string): Promise<void> {
  await sql`insert into asset_host_keys (asset_id, port, fingerprint) values (${assetId}, ${port}, ${fingerprint})
    on conflict (asset_id, port) do nothing`.execute(db)
}

/** Forgets the asset's recorded host keys (an administrator accepts a changed key); answers how many. */
export async function clearHostKeys(db: DB, assetId: string): Promise<number> {
  const r = await sql`delete from asset_host_keys where asset_id = ${assetId}`.execute(db)
  return Number(r.numAffectedRows ?? 0)
}

export async function hostKeysOf(db: DB, assetId: string): Promise<Array<{ port: number; fingerprint: string; date_created: Date }>> {
  return (await sql<{ port: number; fingerprint: string; date_created: Date }>`select port, fingerprint, date_created from asset_host_keys
    where asset_id = ${assetId} order by port`.execute(db)).rows
}
