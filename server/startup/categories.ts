/**
 * `GET /api/v1/assets/categories/` (bare array, paginated with `limit`), `…/categories/types/` (flat) and
 * `…/categories/constraints/?category=&type=` (one constraints object, `{}` when unknown). Without a valid
 * licence only community types are listed; the custom category lists the types of custom platforms.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { requireUser } from '../http/context.ts'
import type { Lang } from '../http/request-context.ts'
import { tr } from '../i18n.ts'
import { AUTOMATION_ITEMS, CATEGORIES, type CategoryDef, ITEM_LABELS, PROTOCOLS, type TypeDef } from './categories-data.ts'
import { requestLicense } from './license.ts'

export function constraintsOf(cat: CategoryDef, type: TypeDef, lang: Lang): Record<string, unknown> {
  const b = { ...cat.base, ...type.base }
  const enabled = type.automation?.ansible_enabled ?? cat.automation.ansible_enabled
  const items = { ...cat.automation.items, ...type.automation?.items }
  const [familyId, familyLabel] = type.family ?? cat.family
  const automation: Record<string, unknown> = { ansible_enabled: enabled, ansible_config: type.automation?.ansible_config ?? cat.automation.ansible_config }
  for (const item of AUTOMATION_ITEMS) {
    const on = enabled && items[item] === true
    automation[`${item}_enabled`] = on
    if (on) automation[`${item}_methods`] = [{ id: `${familyId}_${item}`, name: `${familyLabel} ${tr(lang, ITEM_LABELS[item])}` }]
  }
  const protocols = type.protocols.map((name, i) => {
    const p = PROTOCOLS[name]!
    return { name, port: p.port, secret_types: p.secret_types, setting: p.setting, ...(type.required ? { required: true } : {}), ...(i === 0 ? { default: true } : {}) }
  })
  return { charset_enabled: b.charset_enabled, charset: b.charset, domain_enabled: b.domain_enabled, su_enabled: b.su_enabled, su_methods: b.su_methods, protocols, automation }
}

async function visibleCategories(req: FastifyRequest): Promise<{ cat: CategoryDef; types: TypeDef[] }[]> {
  const licensed = (await requestLicense(req)).valid
  const custom = await req.server.startupHooks.customTypes(req.ctx.db)
  return CATEGORIES.map((cat) => ({
    cat,
    types: cat.value === 'custom'
      ? [...new Set(custom)].map((t): TypeDef => ({ value: t, label: t, protocols: [] }))
      : cat.types.filter((t) => licensed || !t.licensed),
  })).filter((c) => c.types.length > 0)
}

const typeEntry = (cat: CategoryDef, t: TypeDef, lang: Lang) =>
  ({ label: tr(lang, t.label), value: t.value, category: cat.value, constraints: constraintsOf(cat, t, lang) })

/** DRF limit/offset pagination when `limit` is a positive integer (contract §1.3), else the bare array. */
export function maybePaginate(req: FastifyRequest, rows: unknown[]): unknown {
  const q = (req.query ?? {}) as Record<string, string | undefined>
  const limit = Math.min(100, Number(q.limit))
  if (!Number.isInteger(limit) || limit <= 0) return rows
  const offset = Math.max(0, Number.parseInt(q.offset ?? '0', 10) || 0)
  const url = new URL(req.url, `${req.protocol}://${req.host}`)
  const link = (o: number) => {
    const u = new URL(url)
    u.searchParams.set('limit', String(limit))
    if (o > 0) u.searchParams.set('offset', String(o))
    else u.searchParams.delete('offset')
    return u.toString()
  }
  return {
    count: rows.length,
    next: offset + limit < rows.length ? link(offset + limit) : null,
    previous: offset > 0 ? link(Math.max(0, offset - limit)) : null,
    results: rows.slice(offset, offset + limit),
  }
}

export function registerCategories(app: FastifyInstance): void {
  app.get('/api/v1/assets/categories/', async (req) => {
    requireUser(req)
    const lang = req.ctx.lang
    const rows = (await visibleCategories(req)).map(({ cat, types }) => ({
      label: tr(lang, cat.label), value: cat.value, types: types.map((t) => typeEntry(cat, t, lang)),
    }))
    return maybePaginate(req, rows)
  })
  app.get('/api/v1/assets/categories/types/', async (req) => {
    requireUser(req)
    return (await visibleCategories(req)).flatMap(({ cat, types }) => types.map((t) => typeEntry(cat, t, req.ctx.lang)))
  })
  app.get('/api/v1/assets/categories/constraints/', async (req) => {
    requireUser(req)
    const q = (req.query ?? {}) as Record<string, string | undefined>
    const found = (await visibleCategories(req)).find((c) => c.cat.value === q.category)
    const type = found?.types.find((t) => t.value === q.type)
    return found && type ? constraintsOf(found.cat, type, req.ctx.lang) : {}
  })
}
