import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import type { DB } from '../db/connection.ts'
import { ORG_IDS } from '../rbac/catalog.ts'

/**
 * Data the start-up endpoints need from modules written elsewhere. The owning module may replace a hook in
 * its register function (registerResources runs after registerStartup):
 * `app.startupHooks.userGroups = async (db, userId, orgId) => …`.
 */
export interface StartupHooks {
  /** Groups of the user in the organization (profile `groups`, `[{id, name}]`). */
  userGroups(db: DB, userId: string, orgId: string): Promise<{ id: string; name: string }[]>
  /** Distinct `type` values of custom platforms (asset category "custom"). */
  customTypes(db: DB): Promise<string[]>
  /** Number of assets in every org (licence `current_asset_count`). */
  assetCount(db: DB): Promise<number>
}

declare module 'fastify' {
  interface FastifyInstance {
    startupHooks: StartupHooks
  }
}

export function installStartupHooks(app: FastifyInstance): void {
  if (app.hasDecorator('startupHooks')) return
  const hooks: StartupHooks = {
    // user_groups / user_group_members come from migration 003 (users resource); in ROOT every org counts.
    userGroups: async (db, userId, orgId) => (await sql<{ id: string; name: string }>`
      select g.id, g.name from user_groups g join user_group_members m on m.usergroup_id = g.id
      where m.user_id = ${userId} and (${orgId} = ${ORG_IDS.ROOT} or g.org_id = ${orgId}::uuid) order by g.name`.execute(db)).rows,
    customTypes: async () => [],
    assetCount: async () => 0,
  }
  app.decorate('startupHooks', hooks)
}
