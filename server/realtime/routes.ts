import type { FastifyInstance, FastifyRequest } from 'fastify'
import { requirePerm, requireUser } from '../http/context.ts'
import { validationError } from '../http/errors.ts'
import { addMessages, tr } from '../i18n.ts'
import { pageLinks, pageParams, type Query } from '../engine/query.ts'
import { formatDateTime } from '../http/datetime.ts'
import { SiteMessageHub } from './hub.ts'
import { groupMembers } from './groups.ts'
import { existingUsers, listMessages, markRead, storeMessage, unreadCount, type SiteMessageRow } from './store.ts'
import { parseBool, parseHasRead, parseIdList, parseText, type Errors } from './validate.ts'
import { registerSiteMessageSocket } from './socket.ts'

const BASE = '/api/v1/notifications/site-messages/'
/** Who may send site messages: a system administrator. JumpServer has no dedicated codename for it in 3.2. */
export const SEND_PERMISSION = 'notifications.change_systemmsgsubscription'

const hubs = new WeakMap<FastifyInstance, SiteMessageHub>()
/** The site-message hub of an app: other modules call `announce(userIds)` after storing messages themselves. */
export function siteMessageHub(app: FastifyInstance): SiteMessageHub | undefined {
  return hubs.get(app)
}

function serialize(row: SiteMessageRow, tz: string) {
  return {
    id: row.id,
    has_read: row.has_read,
    read_at: formatDateTime(row.read_at, tz),
    date_created: formatDateTime(row.date_created, tz),
    content: {
      id: row.content_id,
      subject: row.subject,
      message: row.message,
      date_created: formatDateTime(row.content_created, tz),
      date_updated: formatDateTime(row.content_updated, tz),
      sender: row.sender ?? '',
    },
  }
}

function body(req: FastifyRequest): Record<string, unknown> {
  const b = req.body
  return b && typeof b === 'object' && !Array.isArray(b) ? (b as Record<string, unknown>) : {}
}

/** Site messages (contract §4.13) and their websocket (§4.14). */
export async function registerRealtime(app: FastifyInstance): Promise<void> {
  const hub = new SiteMessageHub(app.services.database)
  await hub.start()
  hubs.set(app, hub)
  app.addHook('onClose', async () => hub.stop())
  const db = () => app.services.database.db

  app.get(BASE, async (req, reply) => {
    const user = requireUser(req)
    const query = (req.query ?? {}) as Record<string, unknown>
    const errors: Errors = {}
    const hasRead = parseHasRead(query.has_read, req.ctx.lang, errors)
    if (Object.keys(errors).length) throw validationError(errors)
    const page = pageParams(query as Query) ?? null
    const { rows, count } = await listMessages(db(), user.id, { hasRead, page })
    const results = rows.map((r) => serialize(r, req.ctx.tz))
    if (!page) return reply.send(results)
    return reply.send({ count, ...pageLinks(req, count, page.limit, page.offset), results })
  })

  app.get(`${BASE}unread-total/`, async (req) => {
    const user = requireUser(req)
    return { total: await unreadCount(db(), user.id) }
  })

  app.patch(`${BASE}mark-as-read/`, async (req) => {
    const user = requireUser(req)
    const errors: Errors = {}
    const ids = parseIdList(body(req).ids, 'ids', req.ctx.lang, errors, { required: true })
    if (Object.keys(errors).length) throw validationError(errors)
    if (await markRead(db(), user.id, ids)) await hub.announce([user.id])
    return { detail: tr(req.ctx.lang, 'ok') }
  })

  app.patch(`${BASE}mark-as-read-all/`, async (req) => {
    const user = requireUser(req)
    if (await markRead(db(), user.id, 'all')) await hub.announce([user.id])
    return { detail: tr(req.ctx.lang, 'ok') }
  })

  app.post(`${BASE}send/`, async (req, reply) => {
    const sender = requireUser(req)
    await requirePerm(req, SEND_PERMISSION)
    const lang = req.ctx.lang
    const input = body(req)
    const errors: Errors = {}
    const subject = parseText(input.subject, 'subject', lang, errors, 1024)
    const message = parseText(input.message, 'message', lang, errors, 10_000)
    const userIds = parseIdList(input.user_ids, 'user_ids', lang, errors, { required: false })
    const groupIds = parseIdList(input.group_ids, 'group_ids', lang, errors, { required: false })
    const isBroadcast = parseBool(input.is_broadcast, 'is_broadcast', lang, errors, false)
    if (userIds.length) {
      const found = await existingUsers(db(), userIds)
      const missing = userIds.filter((id) => !found.has(id))
      if (missing.length) errors.user_ids = missing.map((id) => tr(lang, 'Invalid pk "{pk}" - object does not exist.', { pk: id }))
    }
    let members: string[] = []
    if (groupIds.length && !errors.group_ids) {
      const resolved = await groupMembers(db(), groupIds)
      if (resolved.missing.length) errors.group_ids = resolved.missing.map((id) => tr(lang, 'Invalid pk "{pk}" - object does not exist.', { pk: id }))
      members = resolved.members
    }
    if (!Object.keys(errors).length && !isBroadcast && !userIds.length && !groupIds.length) {
      errors.non_field_errors = [tr(lang, 'Choose users or user groups, or send it to everyone.')]
    }
    if (Object.keys(errors).length) throw validationError(errors)
    const stored = await storeMessage(db(), { subject, message, senderId: sender.id, isBroadcast, userIds: [...userIds, ...members] })
    await hub.announce(isBroadcast ? 'all' : stored.recipients)
    return reply.status(201).send({
      id: stored.id, subject, message, is_broadcast: isBroadcast, recipients: stored.recipients.length,
      date_created: formatDateTime(stored.dateCreated, req.ctx.tz),
    })
  })

  registerSiteMessageSocket(app, hub)
}

addMessages({
  ok: ['ok', 'ok'],
  'Select a valid choice. {value} is not one of the available choices.': ['请选择有效的选项。{value} 不在可用选项中。', '有効な選択肢を選んでください。{value} は選択肢にありません。'],
  'Expected a list of items but got type "{type}".': ['应为列表，但得到的类型是 "{type}"。', 'リストが必要ですが、型 "{type}" が渡されました。'],
  'Must be a valid UUID.': ['必须是有效的 UUID。', '有効な UUID である必要があります。'],
  'Not a valid string.': ['不是有效的字符串。', '有効な文字列ではありません。'],
  'Must be a valid boolean.': ['必须是有效的布尔值。', '有効なブール値である必要があります。'],
  'Invalid pk "{pk}" - object does not exist.': ['无效的主键 "{pk}" - 对象不存在。', '無効な主キー "{pk}" - オブジェクトが存在しません。'],
  'Choose users or user groups, or send it to everyone.': ['请选择用户或用户组，或发送给所有人。', 'ユーザーまたはユーザーグループを選ぶか、全員に送信してください。'],
})
