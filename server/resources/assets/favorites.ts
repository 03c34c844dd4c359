/**
 * The signed-in user's favourite assets, as JumpServer 3.2 serves /api/v1/assets/favorite-assets/ (IsValidUser,
 * queryset of the user's own rows, filter by asset, bulk delete only when `?asset=` narrows it to one row).
 * Rows are `{ asset }`; the user is implicit. Favourites span organizations (JumpServer runs it in the root org).
 */
import { randomUUID } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { isUuid, normUuid } from '../../engine/parse.ts'
import { requireUser } from '../../http/context.ts'
import { validationError } from '../../http/errors.ts'
import { addMessages, tr } from '../../i18n.ts'

addMessages({
  'The asset is already a favourite.': ['该资产已收藏。', 'この資産はすでにお気に入りです。'],
  'Bulk delete needs exactly one favourite: give ?asset=<id>.': ['批量删除需要恰好一个收藏：请提供 ?asset=<id>。', '一括削除にはお気に入りが 1 件だけ必要です：?asset=<id> を指定してください。'],
})

const paths = (p: string) => [p, p.replace(/\/$/, '')]

export function registerFavoriteAssets(app: FastifyInstance): void {
  for (const url of paths('/api/v1/assets/favorite-assets/')) {
    app.get(url, async (req) => {
      const user = requireUser(req)
      const q = req.query as Record<string, string | undefined>
      if (q.asset !== undefined && !isUuid(q.asset)) return []
      const rows = (await sql<{ asset_id: string }>`select asset_id from favorite_assets where user_id = ${user.id}
        ${q.asset !== undefined ? sql`and asset_id = ${normUuid(q.asset)}` : sql``} order by date_created, asset_id`.execute(req.ctx.db)).rows
      return rows.map((r) => ({ asset: r.asset_id }))
    })
    app.post(url, async (req, reply) => {
      const user = requireUser(req)
      const ctx = req.ctx
      const raw = (req.body as Record<string, unknown> | null)?.asset
      if (raw === undefined || raw === null || raw === '') throw validationError({ asset: [tr(ctx.lang, 'This field is required.')] })
      const id = typeof raw === 'string' && isUuid(raw) ? normUuid(raw) : null
      const asset = id ? (await sql<{ id: string; org_id: string | null }>`select id, org_id from assets where id = ${id}`.execute(ctx.db)).rows[0] : undefined
      if (!asset) throw validationError({ asset: [tr(ctx.lang, 'Invalid pk "{pk}" - object does not exist.', { pk: typeof raw === 'string' ? raw : JSON.stringify(raw) })] })
      const done = await sql`insert into favorite_assets (id, user_id, asset_id, org_id) values (${randomUUID()}, ${user.id}, ${asset.id}, ${asset.org_id})
        on conflict (user_id, asset_id) do nothing`.execute(ctx.db)
      if (!Number(done.numAffectedRows ?? 0)) throw validationError({ non_field_errors: [tr(ctx.lang, 'The asset is already a favourite.')] })
      return reply.code(201).send({ asset: asset.id })
    })
    app.delete(url, async (req, reply) => {
      const user = requireUser(req)
      const q = req.query as Record<string, string | undefined>
      if (!q.asset || !isUuid(q.asset)) throw validationError({ asset: [tr(req.ctx.lang, 'Bulk delete needs exactly one favourite: give ?asset=<id>.')] })
      await sql`delete from favorite_assets where user_id = ${user.id} and asset_id = ${normUuid(q.asset)}`.execute(req.ctx.db)
      return reply.code(204).send()
    })
  }
}
