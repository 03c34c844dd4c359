/**
 * Message subscription (JumpServer's notifications app, as lina 3.2.2 calls it):
 * - `GET /api/v1/notifications/backends/` → `[{name, name_display}]` (any signed-in user)
 * - `GET /api/v1/notifications/system-msg-subscription/` → `[{category, category_label, children: [item]}]`,
 *   item `{message_type, message_type_label, users, groups, receive_backends, receivers: [{id, name}]}`
 *   (`notifications.view_systemmsgsubscription` or the settings page's `settings.change_systemmsgsubscription`)
 * - `GET|PUT|PATCH …/system-msg-subscription/<message_type>/` (`notifications.change_systemmsgsubscription` to
 *   write): `users`, `groups` (ids) and `receive_backends` (names); unknown ids or channels → 400 on the field,
 *   nothing saved; the site message is always among the channels.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import type { DB } from '../db/connection.ts'
import { isUuid } from '../engine/parse.ts'
import { requirePerm } from '../http/context.ts'
import { notFound, validationError } from '../http/errors.ts'
import type { Lang } from '../http/request-context.ts'
import { tr } from '../i18n.ts'
import { ORG_IDS } from '../rbac/catalog.ts'
import { BACKENDS, CATEGORIES, MESSAGE_TYPES, messageType, NOTIFICATION_TEXTS } from './catalog.ts'
import { setNotifyConfig } from './notify.ts'
import { registerNotifyEvents } from './events.ts'

const BASE = '/api/v1/notifications/system-msg-subscription/'
const VIEW = 'notifications.view_systemmsgsubscription|settings.change_systemmsgsubscription|notifications.change_systemmsgsubscription'
const CHANGE = 'notifications.change_systemmsgsubscription|settings.change_systemmsgsubscription'

interface Item {
  message_type: string
  message_type_label: string
  users: string[]
  groups: string[]
  receive_backends: string[]
  receivers: { id: string; name: string }[]
}

async function items(db: DB, lang: Lang, only?: string): Promise<Item[]> {
  const subs = (await sql<{ message_type: string; receive_backends: string[] }>`select message_type, receive_backends
    from system_msg_subscriptions`.execute(db)).rows
  const users = (await sql<{ message_type: string; id: string; name: string; username: string }>`select s.message_type,
    u.id::text as id, u.name, u.username from system_msg_subscription_users s join users u on u.id = s.user_id
    order by u.username`.execute(db)).rows
  const groups = (await sql<{ message_type: string; id: string }>`select message_type, usergroup_id::text as id
    from system_msg_subscription_groups`.execute(db)).rows
  const members = (await sql<{ message_type: string; id: string; name: string; username: string }>`select g.message_type,
    u.id::text as id, u.name, u.username from system_msg_subscription_groups g
    join user_group_members m on m.usergroup_id = g.usergroup_id join users u on u.id = m.user_id order by u.username`.execute(db)).rows
  return MESSAGE_TYPES.filter((m) => !only || m.type === only).map((m) => {
    const sub = subs.find((s) => s.message_type === m.type)
    const own = users.filter((u) => u.message_type === m.type)
    const receivers = new Map<string, { id: string; name: string }>()
    for (const u of [...own, ...members.filter((x) => x.message_type === m.type)]) receivers.set(u.id, { id: u.id, name: `${u.name}(${u.username})` })
    return {
      message_type: m.type,
      message_type_label: tr(lang, m.label),
      users: own.map((u) => u.id),
      groups: groups.filter((g) => g.message_type === m.type).map((g) => g.id),
      receive_backends: sub?.receive_backends ?? ['site_msg'],
      receivers: [...receivers.values()],
    }
  })
}

const idList = (v: unknown): string[] | null => (Array.isArray(v) && v.length <= 1000 && v.every((x) => typeof x === 'string' || (x && typeof x === 'object'))
  ? v.map((x) => (typeof x === 'string' ? x : String((x as { id?: unknown }).id ?? ''))) : null)

async function update(req: FastifyRequest, type: string, partial: boolean): Promise<Item> {
  await requirePerm(req, CHANGE, ORG_IDS.ROOT)
  if (!messageType(type)) throw notFound('SystemMsgSubscription')
  const body = req.body
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw validationError({ non_field_errors: ['Invalid data. Expected a dictionary, but got {datatype}.'.replace('{datatype}', Array.isArray(body) ? 'list' : typeof body)] })
  const b = body as Record<string, unknown>
  const lang = req.ctx.lang
  const db = req.ctx.db
  const errors: Record<string, string[]> = {}
  const required = (k: string) => { if (!partial && !(k in b)) errors[k] = ['This field is required.'] }
  required('receive_backends')
  let users: string[] | undefined
  let groups: string[] | undefined
  let backends: string[] | undefined
  if ('users' in b) {
    const list = idList(b.users)
    if (!list) errors.users = ['Expected a list of items but got type "{t}".'.replace('{t}', typeof b.users)]
    else {
      const bad = list.find((id) => !isUuid(id))
      const found = bad ? [] : (await sql<{ id: string }>`select id::text as id from users where id = any(${list}::uuid[])`.execute(db)).rows.map((r) => r.id)
      const missing = bad ?? list.find((id) => !found.includes(id.toLowerCase()))
      if (missing !== undefined) errors.users = [tr(lang, NOTIFICATION_TEXTS.invalidUser, { value: missing.slice(0, 64) })]
      else users = [...new Set(list.map((x) => x.toLowerCase()))]
    }
  }
  if ('groups' in b) {
    const list = idList(b.groups)
    if (!list) errors.groups = ['Expected a list of items but got type "{t}".'.replace('{t}', typeof b.groups)]
    else {
      const bad = list.find((id) => !isUuid(id))
      const found = bad ? [] : (await sql<{ id: string }>`select id::text as id from user_groups where id = any(${list}::uuid[])`.execute(db)).rows.map((r) => r.id)
      const missing = bad ?? list.find((id) => !found.includes(id.toLowerCase()))
      if (missing !== undefined) errors.groups = [tr(lang, NOTIFICATION_TEXTS.invalidUser, { value: missing.slice(0, 64) })]
      else groups = [...new Set(list.map((x) => x.toLowerCase()))]
    }
  }
  if ('receive_backends' in b) {
    const v = b.receive_backends
    if (!Array.isArray(v) || v.length > 10) errors.receive_backends = ['Expected a list of items but got type "{t}".'.replace('{t}', typeof v)]
    else {
      const bad = v.find((x) => typeof x !== 'string' || !BACKENDS.some((k) => k.name === x))
      if (bad !== undefined) errors.receive_backends = [tr(lang, NOTIFICATION_TEXTS.invalidBackend, { value: String(bad).slice(0, 64) })]
      else backends = [...new Set(['site_msg', ...(v as string[])])]
    }
  }
  if (Object.keys(errors).length) throw validationError(errors)
  await db.transaction().execute(async (tx) => {
    await sql`insert into system_msg_subscriptions (message_type) values (${type}) on conflict (message_type) do nothing`.execute(tx)
    if (backends) await sql`update system_msg_subscriptions set receive_backends = ${JSON.stringify(backends)}::jsonb, date_updated = now()
      where message_type = ${type}`.execute(tx)
    if (users) {
      await sql`delete from system_msg_subscription_users where message_type = ${type}`.execute(tx)
      if (users.length) await sql`insert into system_msg_subscription_users (message_type, user_id)
        select ${type}, uid from unnest(${users}::uuid[]) as uid`.execute(tx)
    }
    if (groups) {
      await sql`delete from system_msg_subscription_groups where message_type = ${type}`.execute(tx)
      if (groups.length) await sql`insert into system_msg_subscription_groups (message_type, usergroup_id)
        select ${type}, gid from unnest(${groups}::uuid[]) as gid`.execute(tx)
    }
  })
  return (await items(db, lang, type))[0]!
}

export function registerNotifications(app: FastifyInstance): void {
  setNotifyConfig(app.services.database, app.services.config)
  registerNotifyEvents(app.services.database)
  app.get('/api/v1/notifications/backends/', async (req) => {
    await requirePerm(req, [])
    return BACKENDS.map((b) => ({ name: b.name, name_display: tr(req.ctx.lang, b.label) }))
  })
  app.get(BASE, async (req) => {
    await requirePerm(req, VIEW, ORG_IDS.ROOT)
    const all = await items(req.ctx.db, req.ctx.lang)
    return Object.entries(CATEGORIES).map(([category, label]) => ({
      category, category_label: tr(req.ctx.lang, label),
      children: all.filter((i) => messageType(i.message_type)?.category === category),
    }))
  })
  app.get<{ Params: { type: string } }>(`${BASE}:type/`, async (req) => {
    await requirePerm(req, VIEW, ORG_IDS.ROOT)
    if (!messageType(req.params.type)) throw notFound('SystemMsgSubscription')
    return (await items(req.ctx.db, req.ctx.lang, req.params.type))[0]
  })
  app.patch<{ Params: { type: string } }>(`${BASE}:type/`, async (req) => update(req, req.params.type, true))
  app.put<{ Params: { type: string } }>(`${BASE}:type/`, async (req) => update(req, req.params.type, false))
}

