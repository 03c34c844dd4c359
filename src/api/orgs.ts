import type { Org } from '../../machines/index.ts'
import { ApiError, request } from './client.ts'

export type { Org }

export const CURRENT_ORG_URL = '/api/v1/orgs/orgs/current/'

/** Normalises an organization object (contract §4.3); throws when it has no id. */
export function parseOrg(raw: unknown): Org {
  const o = (raw ?? {}) as Record<string, unknown>
  if (typeof o.id !== 'string' || !o.id) throw new ApiError(0, raw, 'Invalid organization')
  return { id: o.id, name: typeof o.name === 'string' ? o.name : o.id, is_default: o.is_default === true, is_root: o.is_root === true }
}

/** The organization the server resolves for this request (optionally for `oid`). */
export async function fetchCurrentOrg(oid?: string, signal?: AbortSignal): Promise<Org> {
  return parseOrg(await request('get', CURRENT_ORG_URL, { signal, searchParams: oid ? { oid } : undefined }))
}
