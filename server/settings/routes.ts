/**
 * `GET|PUT|PATCH|OPTIONS /api/v1/settings/setting/?category=<name>` (contract §4.18), served from the declarations:
 * one flat object per category (default `basic`). Every verb needs the category's permission at system scope
 * (JumpServer's SettingsApi checks it for every method, OPTIONS included). Writes validate every key with the
 * engine's field rules (400 with field errors, nothing saved), save only the keys present in the body in one
 * transaction together with their operate log, seal secrets at rest and never return them: a read shows
 * `SECRETS_SET: {KEY: true|false}` instead, and an empty secret in a write keeps the stored one.
 */
import { registerXpackInterface } from './xpack-interface.ts'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { decryptOrPlain } from '../auth/secret.ts'
import { SECRET_MASK } from '../engine/audit.ts'
import { labelOf, fieldInfo } from '../engine/fields.ts'
import { toDisplay } from '../engine/kinds.ts'
import { PARSES } from '../engine/metadata.ts'
import { pyType } from '../engine/messages.ts'
import { parseObject } from '../engine/parse.ts'
import type { DiffEntry, FieldDef } from '../engine/types.ts'
import { recordOperate, withTx } from '../engine/index.ts'
import { requirePerm, requireUser } from '../http/context.ts'
import { validationError } from '../http/errors.ts'
import { tr } from '../i18n.ts'
import { ORG_IDS } from '../rbac/catalog.ts'
import { CATEGORIES, type SettingsCategory } from './declarations.ts'
import { allSettings, invalidateSettingsCache, sealSetting, setSettings } from './store.ts'
import { IMAGE_URL_PREFIX, registerSettingImages, storeImage, UploadedImage } from './images.ts'
import './messages.ts'
import './messages-rest.ts'
import type { Values } from '../http/body.ts'

export const SETTINGS_API = '/api/v1/settings/setting/'

function categoryOf(req: FastifyRequest): SettingsCategory {
  const raw = (req.query as Record<string, unknown> | undefined)?.category
  const name = typeof raw === 'string' && raw !== '' ? raw : Array.isArray(raw) ? String(raw[0]) : 'basic'
  const cat = CATEGORIES.get(name)
  if (!cat) throw validationError({ category: [tr(req.ctx.lang, '"{input}" is not a valid choice.', { input: name.slice(0, 64) })] })
  return cat
}

/** Resolves the category and checks its permission (system scope: only system role bindings count). */
async function authorized(req: FastifyRequest, kind: 'view' | 'change'): Promise<SettingsCategory> {
  requireUser(req)
  const cat = categoryOf(req)
  await requirePerm(req, cat.perms[kind], ORG_IDS.ROOT)
  return cat
}

const isSecret = (f: FieldDef) => !!(f.secret || f.write_only)

/** Stored value with a nested object's missing keys filled from the declaration. */
function outValue(f: FieldDef, v: unknown): unknown {
  if (f.type === 'nested' && f.default && typeof f.default === 'object') {
    return { ...(f.default as Values), ...(v && typeof v === 'object' && !Array.isArray(v) ? (v as Values) : {}) }
  }
  return v === undefined ? null : v
}

/** Operate-log text of a value: a plain choice shows its (English) label. */
function shown(f: FieldDef, v: unknown): string {
  const choice = f.choices?.find((c) => c.value === v)
  return choice ? choice.label : toDisplay(f, v)
}

export async function readCategory(req: FastifyRequest, cat: SettingsCategory): Promise<Values> {
  const stored = await allSettings(req.ctx.db)
  const out: Values = {}
  const secrets: Record<string, boolean> = {}
  for (const f of cat.fields) {
    const v = stored.get(f.name)
    if (isSecret(f)) secrets[f.name] = typeof v === 'string' && v !== ''
    else out[f.name] = outValue(f, v)
  }
  cat.represent?.(out)
  if (Object.keys(secrets).length) out.SECRETS_SET = secrets
  return out
}

function describe(req: FastifyRequest, cat: SettingsCategory): Record<string, unknown> {
  const infos = Object.fromEntries(cat.fields.map((f) => [f.name, fieldInfo(f, req.ctx)]))
  return {
    name: tr(req.ctx.lang, cat.title),
    description: '',
    renders: ['application/json'],
    parses: PARSES,
    actions: { GET: infos, PUT: infos, PATCH: infos },
  }
}

async function write(req: FastifyRequest, partial: boolean): Promise<Values> {
  return writeCategory(req, await authorized(req, 'change'), req.body, partial)
}

/**
 * Validates and saves the keys of `body` in one category (the caller checked the permission): field errors → 400
 * and nothing saved; one transaction with the images and the operate log; answers the category as read.
 */
export async function writeCategory(req: FastifyRequest, cat: SettingsCategory, body: unknown, partial: boolean): Promise<Values> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw validationError({ non_field_errors: [tr(req.ctx.lang, 'Invalid data. Expected a dictionary, but got {type}.', { type: pyType(body) })] })
  }
  const input: Values = { ...(body as Values) }
  const secretsWritten: string[] = []
  for (const f of cat.fields.filter(isSecret)) {
    const v = input[f.name]
    // An empty secret keeps the stored one (contract §4.18); a PUT needs no secret either.
    if (v === undefined || v === null || v === '') delete input[f.name]
    else if (typeof v === 'string' && f.encrypted) input[f.name] = decryptOrPlain(v, req.ctx.session?.data.privateKey)
  }
  const fields = partial ? cat.fields : cat.fields.map((f) => (isSecret(f) ? { ...f, required: false } : f))
  const { values, errors } = parseObject(fields, input, req.ctx, { partial, fillDefaults: false })
  if (Object.keys(errors).length) throw validationError(errors)

  const db = req.ctx.db
  const before = new Map(await allSettings(db))
  const crossErrors = cat.clean?.(values, before)
  if (crossErrors) throw validationError(Object.fromEntries(Object.entries(crossErrors).map(([k, list]) => [k, list.map((m) => tr(req.ctx.lang, m))])))
  const toStore: Values = {}
  const diff: DiffEntry[] = []
  const images: [string, UploadedImage][] = []
  const config = req.server.services.config
  for (const f of cat.fields) {
    if (!(f.name in values)) continue
    const v = values[f.name]
    if (isSecret(f)) {
      toStore[f.name] = sealSetting(config, f.name, String(v))
      secretsWritten.push(f.name)
      diff.push({ field: labelOf(f), before: before.get(f.name) ? SECRET_MASK : '', after: SECRET_MASK })
      continue
    }
    if (f.type === 'image') {
      // an upload is stored in the transaction below; null restores the default
      if (v instanceof UploadedImage) images.push([f.name, v])
      toStore[f.name] = v instanceof UploadedImage ? `${IMAGE_URL_PREFIX}${f.name}/${v.sha}.${v.ext}` : (v ?? f.default)
      const was = String(before.get(f.name) ?? '')
      if (was !== toStore[f.name]) diff.push({ field: labelOf(f), before: was, after: String(toStore[f.name]) })
      continue
    }
    toStore[f.name] = v
    const was = shown(f, outValue(f, before.get(f.name)))
    const now = shown(f, v)
    if (was !== now) diff.push({ field: labelOf(f), before: was, after: now })
  }
  await withTx(db, undefined, async (tx) => {
    for (const [name, img] of images) await storeImage(tx, name, img)
    await setSettings(tx, toStore, db)
    if (diff.length) {
      await recordOperate(tx, req.ctx, { action: 'update', resourceType: 'Setting', resource: cat.title, resourceId: cat.name, orgId: ORG_IDS.SYSTEM, diff })
    }
  }, req.ctx.lang)
  invalidateSettingsCache(db)
  await cat.saved?.(req, values)
  return readCategory(req, cat)
}

export function registerSettingsApi(app: FastifyInstance): void {
  app.get(SETTINGS_API, async (req) => readCategory(req, await authorized(req, 'view')))
  app.put(SETTINGS_API, async (req) => write(req, false))
  app.patch(SETTINGS_API, async (req) => write(req, true))
  app.options(SETTINGS_API, async (req) => describe(req, await authorized(req, 'view')))
  registerSettingImages(app)
  registerXpackInterface(app)
}
