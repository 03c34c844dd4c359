import { sql } from 'kysely'
import type { DB } from '../db/connection.ts'

/** Members of user groups (tables of the users resources), for `send` with `group_ids`; unknown ids reported. */
export async function groupMembers(db: DB, groupIds: readonly string[]): Promise<{ members: string[]; missing: string[] }> {
  const found = (await sql<{ id: string }>`select id::text as id from user_groups where id = any(${[...groupIds]}::uuid[])`.execute(db)).rows
  const foundIds = new Set(found.map((r) => r.id))
  const members = foundIds.size
    ? (await sql<{ user_id: string }>`select distinct user_id::text as user_id from user_group_members
        where usergroup_id = any(${[...foundIds]}::uuid[])`.execute(db)).rows.map((r) => r.user_id)
    : []
  return { members, missing: groupIds.filter((id) => !foundIds.has(id)) }
}
