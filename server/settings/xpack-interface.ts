/**
 * lina 3.2.2's Interface page (xpack): `GET|PUT /api/v1/xpack/interface/setting/` with JumpServer's lowercase keys
 * (`login_title, theme, logo_index, logo_logout, favicon, login_image`), the PUT as multipart/form-data (text
 * fields and up to four image files) or JSON; `PUT …/setting/restore/` → `{success}`; `GET …/themes/`. They read
 * and write the `interface` settings category (declarations-interface.ts) through the settings API's own write
 * (`writeCategory`: the same validation — real image bytes, 512 KB, no SVG —, transaction and operate log), with
 * the same permission `settings.change_interface`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { fieldInfo } from '../engine/fields.ts'
import { PARSES } from '../engine/metadata.ts'
import { requirePerm } from '../http/context.ts'
import { ApiError, validationError } from '../http/errors.ts'
import { addMessages, tr } from '../i18n.ts'
import { ORG_IDS } from '../rbac/catalog.ts'
import { INTERFACE, THEMES } from './declarations-interface.ts'
import { IMAGE_TOO_LARGE, MAX_IMAGE_BYTES } from './images.ts'
import { readCategory, writeCategory } from './routes.ts'

const BASE = '/api/v1/xpack/interface/'
/** lowercase xpack key → setting */
const KEYS: Record<string, string> = {
  login_title: 'INTERFACE_LOGIN_TITLE', theme: 'INTERFACE_THEME', logo_index: 'INTERFACE_LOGO_INDEX',
  logo_logout: 'INTERFACE_LOGO_LOGOUT', favicon: 'INTERFACE_FAVICON', login_image: 'INTERFACE_LOGIN_IMAGE',
}
const RESTORED = 'Restore default successfully.'
addMessages({ [RESTORED]: ['恢复默认成功！', 'デフォルトに戻しました。'] })

const toXpack = (row: Record<string, unknown>) => Object.fromEntries(Object.entries(KEYS).map(([k, s]) => [k, row[s] ?? null]))
const fromXpack = (body: Record<string, unknown>) => Object.fromEntries(Object.entries(KEYS).filter(([k]) => k in body).map(([k, s]) => [s, body[k]]))

async function allowed(req: FastifyRequest): Promise<void> {
  await requirePerm(req, INTERFACE.perms.change, ORG_IDS.ROOT)
}

/** The multipart body as plain values: a file becomes a data URL (its bytes are checked by the image parser). */
async function multipartBody(req: FastifyRequest): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {}
  for await (const part of req.parts({ limits: { files: 4, fields: 16, fileSize: MAX_IMAGE_BYTES + 1, fieldSize: 4096 } })) {
    if (!(part.fieldname in KEYS)) {
      if (part.type === 'file') await part.toBuffer().catch(() => undefined)
      continue
    }
    if (part.type === 'file') {
      const bytes = await part.toBuffer().catch(() => null)
      if (!bytes || part.file.truncated || bytes.length > MAX_IMAGE_BYTES) {
        throw validationError({ [part.fieldname]: [tr(req.ctx.lang, IMAGE_TOO_LARGE, { n: MAX_IMAGE_BYTES / 1024 })] })
      }
      if (bytes.length) out[part.fieldname] = `data:application/octet-stream;base64,${bytes.toString('base64')}`
    } else {
      const v = String(part.value ?? '')
      // lina sends the form's values back: "null"/"undefined" for an image not chosen means "unchanged"
      if (['logo_index', 'logo_logout', 'favicon', 'login_image'].includes(part.fieldname) && (v === 'null' || v === 'undefined' || v === '')) continue
      out[part.fieldname] = v
    }
  }
  return out
}

/** Maps the settings' field errors back to the xpack keys. */
function renameErrors(e: unknown): never {
  if (e instanceof ApiError && e.statusCode === 400 && e.body && typeof e.body === 'object' && !Array.isArray(e.body)) {
    const back = Object.fromEntries(Object.entries(KEYS).map(([k, s]) => [s, k]))
    throw new ApiError(400, Object.fromEntries(Object.entries(e.body as Record<string, unknown>).map(([k, v]) => [back[k] ?? k, v])))
  }
  throw e
}

export function registerXpackInterface(app: FastifyInstance): void {
  // lina calls both with and without the trailing slash
  for (const suffix of ['/', '']) registerAt(app, suffix)
}

function registerAt(app: FastifyInstance, suffix: string): void {
  app.get(`${BASE}setting${suffix}`, async (req) => {
    await allowed(req)
    return toXpack(await readCategory(req, INTERFACE))
  })
  app.put(`${BASE}setting${suffix}`, async (req) => {
    await allowed(req)
    const body = req.isMultipart() ? await multipartBody(req)
      : (req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? req.body as Record<string, unknown> : null)
    if (!body) throw validationError({ non_field_errors: ['Invalid data. Expected a dictionary.'] })
    const saved = await writeCategory(req, INTERFACE, fromXpack(body), true).catch(renameErrors)
    return toXpack(saved)
  })
  app.put(`${BASE}setting/restore${suffix}`, async (req) => {
    await allowed(req)
    await writeCategory(req, INTERFACE, Object.fromEntries(INTERFACE.fields.map((f) => [f.name, f.type === 'image' ? null : f.default])), true)
    return { success: tr(req.ctx.lang, RESTORED) }
  })
  // OPTIONS (lina's Interface page builds its form from it): the category's fields under the xpack keys.
  app.options(`${BASE}setting${suffix}`, async (req) => {
    await allowed(req)
    const byName = new Map(INTERFACE.fields.map((f) => [f.name, f]))
    const infos = Object.fromEntries(Object.entries(KEYS).filter(([, s]) => byName.has(s)).map(([k, s]) => [k, fieldInfo(byName.get(s)!, req.ctx)]))
    return { name: tr(req.ctx.lang, INTERFACE.title), description: '', renders: ['application/json'], parses: PARSES, actions: { GET: infos, PUT: infos } }
  })
  // the themes, at both addresses lina's versions ask
  for (const path of [`${BASE}themes${suffix}`, `${BASE}setting/themes${suffix}`]) {
    app.get(path, async (req) => {
      await allowed(req)
      return Object.entries(THEMES).map(([name, t]) => ({ name, display_name: tr(req.ctx.lang, t.label), colors: t.colors }))
    })
  }
}
