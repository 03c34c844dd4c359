/**
 * `%<template id>` in a permission's accounts (contract §5.4): after the permission is saved, every asset it grants
 * gets an account from that template (through the accounts resource: its validation, sealing, history and operate
 * log), and the new accounts are pushed to their hosts by the accounts module's push task (docs/accounts.md).
 */
import type { FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import { userDisplay } from '../../engine/index.ts'
import { resolveFields } from '../../engine/fields.ts'
import { commitWrites, prepareWrite } from '../../engine/write.ts'
import { taskRunner } from '../../tasks/service.ts'
import { accounts } from '../accounts/accounts.ts'
import { ACCOUNT_TASK } from '../accounts/run.ts'
import { permissionAssets } from './grants.ts'

/** At most this many assets get template accounts per save (the rest on the next save). */
const MAX_ASSETS = 1000

/** Creates the missing template accounts on the permission's assets and queues their push; answers the new ids. */
export async function applyTemplateAccounts(req: FastifyRequest, permissionId: string): Promise<string[]> {
  const ctx = req.ctx
  const perm = await ctx.db.selectFrom('asset_permissions').select(['accounts', 'org_id']).where('id', '=', permissionId).executeTakeFirst()
  const templateIds = ((perm?.accounts ?? []) as string[]).filter((a) => a.startsWith('%')).map((a) => a.slice(1))
  if (!perm || !templateIds.length) return []
  const templates = await ctx.db.selectFrom('account_templates').select(['id', 'username', 'name'])
    .where('id', '=', sql<string>`any(${templateIds}::uuid[])`).where('org_id', '=', perm.org_id).execute()
  const assets = (await sql<{ id: string }>`select x.asset_id as id from (${permissionAssets(permissionId)}) x limit ${MAX_ASSETS}`.execute(ctx.db)).rows.map((r) => r.id)
  if (!assets.length) return []
  const fields = await resolveFields(accounts, ctx, 'create')
  const created: string[] = []
  for (const tpl of templates) {
    const have = new Set((await ctx.db.selectFrom('accounts').select('asset_id')
      .where('username', '=', tpl.username).where('asset_id', '=', sql<string>`any(${assets}::uuid[])`).execute()).map((r) => r.asset_id))
    for (const asset of assets.filter((a) => !have.has(a))) {
      const r = await prepareWrite(ctx.db, accounts, fields, { template: tpl.id, username: tpl.username, name: tpl.username, asset }, { ...ctx, orgId: perm.org_id }, { op: 'create', partial: false, req })
      if (r.errors) continue
      const [row] = await commitWrites(req, accounts, fields, [{ prepared: r.prepared! }], { op: 'create', partial: false }, fields)
      if (row?.id) created.push(String(row.id))
    }
  }
  const runner = taskRunner(req.server)
  if (created.length && runner) await runner.enqueue(ACCOUNT_TASK, { kwargs: { action: 'push', accounts: created }, creatorId: ctx.user?.id, creator: userDisplay(ctx.user), lang: ctx.lang })
  return created
}
