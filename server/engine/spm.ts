/** The resources cache (contract §4.6): an id list kept 300 s under a random `spm` key. */
import { randomUUID } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import type { DB } from '../db/connection.ts'
import { requireUser } from '../http/context.ts'
import { validationError } from '../http/errors.ts'
import { tr } from '../i18n.ts'
import { pyType } from './messages.ts'
import { isUuid, refOf } from './parse.ts'

export const SPM_TTL_SECONDS = 300

/** Ids cached under `spm`; unknown, expired or malformed keys give an empty list. */
export async function spmIds(db: DB, spm: string): Promise<unknown[]> {
  if (!isUuid(spm)) return []
  const ids = (await db.selectFrom('resource_cache').select('ids').where('id', '=', spm).where('expires_at', '>', sql<Date>`now()`).executeTakeFirst())?.ids
  return Array.isArray(ids) ? ids : []
}

export async function createSpm(db: DB, ids: unknown[]): Promise<string> {
  const spm = randomUUID()
  await sql`insert into resource_cache (id, ids, expires_at)
    values (${spm}, ${JSON.stringify(ids)}::jsonb, now() + make_interval(secs => ${SPM_TTL_SECONDS}))`.execute(db)
  return spm
}

export async function registerSpmRoute(app: FastifyInstance): Promise<void> {
  app.post('/api/v1/common/resources/cache/', async (req) => {
    requireUser(req)
    const body = (req.body ?? {}) as { resources?: unknown }
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw validationError({ non_field_errors: [tr(req.ctx.lang, 'Invalid data. Expected a dictionary, but got {type}.', { type: pyType(body) })] })
    }
    const resources = body.resources
    if (resources === undefined || resources === null) return { spm: randomUUID() }
    if (!Array.isArray(resources)) {
      throw validationError({ resources: [tr(req.ctx.lang, 'Expected a list of items but got type "{type}".', { type: pyType(resources) })] })
    }
    const ids = resources.map((r) => refOf(r)).filter((x) => x !== undefined).map((x) => String(x))
    return { spm: await createSpm(req.ctx.db, ids) }
  })
}
