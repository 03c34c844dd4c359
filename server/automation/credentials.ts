/**
 * Where automations get the secret to log in to an asset with: the accounts module (issue 15) registers a
 * source that answers, per asset, its privileged account (JumpServer logs in to assets and gateways with it).
 * Without a source — or without an account for an asset — a connectivity test stops at the SSH handshake.
 */
import type { DB } from '../db/connection.ts'

export interface AssetCredential {
  username: string
  password?: string
  privateKey?: string
  passphrase?: string
  /** Shown in logs, e.g. the account's name; never the secret. */
  label?: string
}

export type CredentialSource = (db: DB, assetIds: string[]) => Promise<Map<string, AssetCredential>>

let source: CredentialSource | undefined

/** Installs the source (the accounts module); `undefined` removes it. Returns the previous one. */
export function setCredentialSource(next: CredentialSource | undefined): CredentialSource | undefined {
  const previous = source
  source = next
  return previous
}

export async function credentialsFor(db: DB, assetIds: string[]): Promise<Map<string, AssetCredential>> {
  if (!source || !assetIds.length) return new Map()
  return source(db, assetIds)
}
