import { sql } from 'kysely'
import type { DB } from '../db/connection.ts'

/**
 * Members of user groups, for `send` with `group_ids`. The groups tables belong to the users resource module
 * (`user_groups`, `user_group_members`); until that migration exists every group id is reported missing.
 */
export async function groupMembers(db: DB, groupIds: readonly string[]): Promise<{ members: string[]; missing: string[] }> {
  const present = (await sql<{ t: string | null; m: string | null }>`
    select to_regclass('public.user_groups')::text as t, to_regclass('public.user_group_members')::text as m`.execute(db)).rows[0]
  if (!present?.t || !present.m) return { members: [], missing: [...groupIds] }
  const found = (await sql<{ id: string }>`select id::text as id from user_groups where id = any(${[...groupIds]}::uuid[])`.execute(db)).rows
  const foundIds = new Set(found.map((r) => r.id))
  const members = (await sql<{ user_id: string }>`select distinct user_id::text as user_id from user_group_members
    where group_id = any(${[...foundIds]}::uuid[])`.execute(db)).rows.map((r) => r.user_id)
  return { members, missing: groupIds.filter((id) => !foundIds.has(id)) }
}
