/**
 * `GET|PUT|PATCH /api/v1/users/profile/` (contract §4.2). Writable: name, email, phone, wechat, comment,
 * public_key (write-only), mfa_level (0/1; not back to 0 when the security setting forces MFA),
 * is_first_login (only to false). Read-only and unknown keys are ignored, as DRF does. OPTIONS describes it.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import { type FieldReader, fieldsOf } from '../auth/fields.ts'
import { fieldInfo } from '../engine/fields.ts'
import { PARSES, RENDERS } from '../engine/metadata.ts'
import type { FieldDef } from '../engine/types.ts'
import { requireUser } from '../http/context.ts'
import { addMessages, tr } from '../i18n.ts'
import { MFA_CHOICES, USER_FIELDS } from '../resources/users/users.ts'
import { getSetting } from '../settings/store.ts'
import { STARTUP_MESSAGES } from './messages.ts'
import { normalizePhone } from './phone.ts'
import { isAdminBinding, loadUserRow, mfaForcedBySetting, serializeProfile, userBindings } from './profile-view.ts'
import { parseSshPublicKey } from './ssh-key.ts'

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

async function readChanges(req: FastifyRequest, f: FieldReader, partial: boolean): Promise<Record<string, unknown>> {
  const userId = req.ctx.user!.id
  const out: Record<string, unknown> = {}
  const name = f.string('name', { required: !partial, maxLength: 128 })
  if (name !== undefined) out.name = name
  const email = f.string('email', { required: !partial, maxLength: 128 })
  if (email !== undefined) {
    if (!EMAIL.test(email)) f.error('email', STARTUP_MESSAGES.invalidEmail)
    else {
      const taken = await sql`select 1 from users where lower(email) = lower(${email}) and id <> ${userId}`.execute(req.ctx.db)
      if (taken.rows.length) f.error('email', 'This field must be unique.')
      else out.email = email
    }
  }
  const wechat = f.string('wechat', { blank: true, maxLength: 128 })
  if (wechat !== undefined) out.wechat = wechat
  const comment = f.string('comment', { blank: true, maxLength: 4096 })
  if (comment !== undefined) out.comment = comment
  if (f.has('phone')) {
    const p = normalizePhone(f.body.phone)
    if (p.ok) out.phone = p.value
    else f.error('phone', STARTUP_MESSAGES.invalidPhone)
  }
  if (f.has('public_key')) {
    const key = f.body.public_key
    if (key === null || key === '') out.public_key = ''
    else if (parseSshPublicKey(key)) out.public_key = String(key).trim()
    else f.error('public_key', STARTUP_MESSAGES.invalidSshKey)
  }
  const level = f.choice('mfa_level', [0, 1] as const)
  if (level !== undefined) {
    const u = await loadUserRow(req, userId)
    const isAdmin = (await userBindings(req, userId)).some((b) => isAdminBinding(b.role_id))
    const forced = u.mfa_level === 2 || mfaForcedBySetting(await getSetting(req.ctx.db, 'SECURITY_MFA_AUTH'), isAdmin)
    if (forced && level === 0) f.error('mfa_level', STARTUP_MESSAGES.mfaForced)
    else if (u.mfa_level !== 2) out.mfa_level = level
  }
  const first = f.boolean('is_first_login')
  if (first === true) f.error('is_first_login', STARTUP_MESSAGES.onlyFalse)
  else if (first === false) out.is_first_login = false
  return out
}

async function update(req: FastifyRequest, partial: boolean) {
  const user = requireUser(req)
  const f = fieldsOf(req)
  const changes = await readChanges(req, f, partial)
  f.done()
  const cols = Object.keys(changes)
  if (cols.length) {
    const sets = cols.map((c) => sql`${sql.ref(c)} = ${changes[c]}`)
    try {
      await sql`update users set ${sql.join(sets)}, updated_by = ${user.username}, date_updated = now()
        where id = ${user.id}`.execute(req.ctx.db)
    } catch (e) {
      if ((e as { code?: string }).code !== '23505') throw e
      f.error('email', 'This field must be unique.') // a concurrent update took the address
      f.done()
    }
  }
  return serializeProfile(req, user.id)
}

/** What OPTIONS describes for the profile: the user fields the profile reads, and those PUT/PATCH change. */
const PROFILE_READ = ['id', 'username', 'name', 'email', 'phone', 'wechat', 'comment', 'mfa_level', 'source', 'is_first_login',
  'need_update_password', 'date_joined', 'last_login', 'date_expired', 'date_password_last_updated', 'is_valid', 'avatar_url']
const PROFILE_WRITE = new Set(['name', 'email', 'phone', 'wechat', 'comment', 'public_key', 'mfa_level', 'is_first_login'])

/**
 * OPTIONS of the profile (the reference console builds its first-login page and profile form from it): the user
 * fields, with those the profile cannot change read-only, and MFA offered as off/on only.
 */
function profileMetadata(req: FastifyRequest): Record<string, unknown> {
  requireUser(req)
  const byName = new Map(USER_FIELDS.map((f) => [f.name, f]))
  const info = (name: string, writable: boolean) => {
    const f = byName.get(name)!
    const def: FieldDef = writable ? { ...f } : { ...f, read_only: true }
    if (name === 'mfa_level') def.choices = MFA_CHOICES.filter((c) => c.value !== 2)
    if (name === 'is_first_login') def.read_only = false
    return [name, fieldInfo(def, req.ctx)] as const
  }
  const put = Object.fromEntries([...PROFILE_READ, 'public_key'].filter((n) => byName.has(n)).map((n) => info(n, PROFILE_WRITE.has(n))))
  const get = Object.fromEntries(PROFILE_READ.filter((n) => byName.has(n)).map((n) => info(n, false)))
  return {
    name: tr(req.ctx.lang, 'User profile'),
    description: '',
    renders: RENDERS,
    parses: PARSES,
    actions: { PUT: put, GET: get },
  }
}

export function registerProfile(app: FastifyInstance): void {
  app.options('/api/v1/users/profile/', async (req) => profileMetadata(req))
  app.get('/api/v1/users/profile/', async (req) => serializeProfile(req, requireUser(req).id))
  app.put('/api/v1/users/profile/', async (req) => update(req, false))
  app.patch('/api/v1/users/profile/', async (req) => update(req, true))
}

addMessages({ 'User profile': ['用户信息', 'ユーザープロファイル'] })
