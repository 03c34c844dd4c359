/**
 * A request's identity — its session, the session's user, the user's role bindings and the organizations the
 * request and its session name — read in ONE query (server/http/context.ts builds `req.ctx` from it), and kept in
 * memory between requests where that is exact: beside PGlite, whose database lives in this process, triggers (migration 125)
 * announce every change of a session, a user, a role binding or an organization before the statement (or COMMIT)
 * that made it returns, and the entries it touches are dropped. On PostgreSQL, several processes share the
 * database and a notification reaches the others only after the commit, so nothing is kept: the query runs for
 * every request. docs/decisions/the-request-s-identity-is-cached-only-beside-an-in-process-database.md.
 */
import { sql } from 'kysely'
import type { Database, DB } from '../db/connection.ts'
import type { BindingRow } from '../rbac/perms.ts'
import type { AuthUser, SessionData } from './request-context.ts'

/** An organization named by the request that is not a keyword: looked up by id or by name. */
export type OrgLookup = { lookupId: string } | { lookupName: string }

/** The session's columns, then its user's (as `AuthUser`, the id as `user_id`), bindings and organizations. */
export interface IdentityRow extends Omit<AuthUser, 'id'> {
  session_id: string | null
  session_data: SessionData | null
  session_expires: Date | null
  /** The organization the session's `oid` names, when it is an existing organization's id (else null). */
  session_org: string | null
  user_id: string | null
  bindings: BindingRow[] | null
  orgs: { id: string; name: string }[] | null
}

const UUID = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$'

/** The one query: undefined when there is nothing to read (no session cookie, no organization to look up). */
export async function readIdentity(db: DB, sid: string | undefined, lookups: readonly OrgLookup[]): Promise<IdentityRow | undefined> {
  const ids = lookups.flatMap((v) => ('lookupId' in v ? [v.lookupId] : []))
  const names = lookups.flatMap((v) => ('lookupName' in v ? [v.lookupName] : []))
  const orgs = ids.length || names.length
    ? sql`(select json_agg(json_build_object('id', o.id, 'name', o.name)) from organizations o
        where o.id = any(${ids}::uuid[]) or o.name = any(${names}::text[]))`
    : sql`null::json`
  if (!sid) {
    if (!ids.length && !names.length) return undefined
    return (await sql<IdentityRow>`select null as session_id, ${orgs} as orgs`.execute(db)).rows[0]
  }
  return (await sql<IdentityRow>`select s.id as session_id, s.data as session_data, s.expires_at as session_expires,
      (select o.id from organizations o where o.id = case when s.data ->> 'oid' ~ ${UUID} then (s.data ->> 'oid')::uuid end) as session_org,
      u.id as user_id, u.username, u.name, u.email, u.is_active, u.source, u.is_first_login, u.date_expired,
      case when u.id is null then null else (select coalesce(json_agg(json_build_object('role_id', b.role_id, 'scope', b.scope, 'org_id', b.org_id)), '[]'::json)
        from role_bindings b where b.user_id = u.id) end as bindings,
      ${orgs} as orgs
    from (select 1) as one
    left join sessions s on s.id = ${sid} and s.expires_at > now()
    left join users u on u.id = case when s.data ->> 'userId' ~ ${UUID} then (s.data ->> 'userId')::uuid end`.execute(db)).rows[0]
}

export interface IdentityReader {
  read(sid: string | undefined, lookups: readonly OrgLookup[]): Promise<IdentityRow | undefined>
  /** Entries kept, and lines of its two indexes (tests). */
  readonly size: number
  readonly indexed?: number
}

/** At most this many identities are kept (each ≈ 3 KB: the session data holds its RSA key); past it the cache starts again empty. */
const MAX_ENTRIES = 5_000
export const IDENTITY_CHANNEL = 'identity_changed'

/**
 * Reads identities through a cache where the database allows an exact one (PGlite), else directly. `afterRead`
 * (tests) runs between a read and its keeping: what another request may do in that gap.
 */
export async function identityReader(database: Database, opts: { afterRead?: () => Promise<void> } = {}): Promise<IdentityReader> {
  const db = database.db
  if (database.kind !== 'pglite' || !database.watchSql) {
    return {
      size: 0,
      async read(sid, lookups) {
        const row = await readIdentity(db, sid, lookups)
        await opts.afterRead?.()
        return row
      },
    }
  }

  const entries = new Map<string, IdentityRow>()
  const bySession = new Map<string, Set<string>>()
  const byUser = new Map<string, Set<string>>()
  // Bumped by every change: a read that a change overtook is not kept (it may hold what was true before).
  let generation = 0
  const index = (map: Map<string, Set<string>>, k: string, key: string) => {
    let s = map.get(k)
    if (!s) map.set(k, (s = new Set()))
    s.add(key)
  }
  /** Drops entries and their index lines (neither index outgrows the entries). */
  const drop = (keys: Set<string> | undefined) => {
    for (const k of [...(keys ?? [])]) {
      const e = entries.get(k)
      if (!e) continue
      entries.delete(k)
      const unindex = (map: Map<string, Set<string>>, at: string | null) => {
        const set = at ? map.get(at) : undefined
        if (!set) return
        set.delete(k)
        if (!set.size) map.delete(at!)
      }
      unindex(bySession, e.session_id)
      unindex(byUser, e.user_id)
    }
  }
  const clear = () => {
    entries.clear()
    bySession.clear()
    byUser.clear()
  }
  await database.watchSql(IDENTITY_CHANNEL, (payload) => {
    generation++
    if (payload.startsWith('s:')) drop(bySession.get(payload.slice(2)))
    else if (payload.startsWith('u:')) drop(byUser.get(payload.slice(2)))
    else clear()
  })
  // The triggers of migration 125 notify this connection only.
  await sql`select set_config('bastion.identity_notify', 'on', false)`.execute(db)

  const copy = (r: IdentityRow): IdentityRow => ({ ...r, session_data: r.session_data && structuredClone(r.session_data) })
  return {
    get size() { return entries.size },
    get indexed() { return [...bySession.values(), ...byUser.values()].reduce((n, set) => n + set.size, 0) },
    async read(sid, lookups) {
      if (!sid) return readIdentity(db, sid, lookups)
      const key = `${sid}\n${JSON.stringify(lookups)}`
      const hit = entries.get(key)
      if (hit) {
        if (hit.session_expires && hit.session_expires.getTime() > Date.now()) return copy(hit)
        drop(new Set([key])) // expired: read again
      }
      const seen = generation
      const row = await readIdentity(db, sid, lookups)
      await opts.afterRead?.()
      if (row?.session_id && row.session_expires && seen === generation) {
        if (entries.size >= MAX_ENTRIES) clear()
        if (row.bindings) Object.freeze(row.bindings)
        entries.set(key, row)
        index(bySession, row.session_id, key)
        if (row.user_id) index(byUser, row.user_id, key)
        return copy(row)
      }
      return row
    },
  }
}
