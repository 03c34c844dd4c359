/** Special actions of the users resource (contract §4.11). */
import { randomUUID } from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import { clearFailures } from '../../auth/limits.ts'
import type { ActionDef, ResourceApi } from '../../engine/types.ts'
import { bodyObject, refId } from '../../http/body.ts'
import type { RowOf } from '../../db/connection.ts'

type UserRow = RowOf<'users'>
type UserApi = ResourceApi<UserRow>
import { withTx } from '../../engine/write.ts'
import { isUuid, normUuid } from '../../engine/parse.ts'
import { ApiError, validationError } from '../../http/errors.ts'
import { addMessages, tr } from '../../i18n.ts'
import { ORG_IDS } from '../../rbac/catalog.ts'
import { assertCanManage } from '../../rbac/manage.ts'
import { endUserSessions } from '../../http/session.ts'
import { getSetting } from '../../settings/store.ts'
import { createResetLink } from './reset.ts'
import { sendResetMail, type MailUser } from '../../mail/mails.ts'
import { MAIL_MESSAGES } from '../../mail/messages.ts'
import { MailError } from '../../mail/sender.ts'

/** Removing from an organization is a membership change (org-scope permission), unlike deleting a user. */
export const REMOVE_PERM = 'users.remove_user|users.change_user'
const MINI = ['id', 'name', 'username']

function refuseInRoot(req: FastifyRequest): void {
  if (req.ctx.orgId === ORG_IDS.ROOT) throw new ApiError(400, { error: tr(req.ctx.lang, 'Cannot save in the root organization') })
}

/** Deletes the users' org bindings (and their group memberships) in the current organization. */
async function removeFromOrg(req: FastifyRequest, api: UserApi, rows: UserRow[]): Promise<void> {
  refuseInRoot(req)
  const ids = rows.map((r) => r.id)
  if (!ids.length) return
  await withTx(req.ctx.db, api.def, async (tx) => {
    await sql`delete from role_bindings where user_id = any(${ids}::uuid[]) and scope = 'org' and org_id = ${req.ctx.orgId}`.execute(tx)
    await sql`delete from user_group_members where user_id = any(${ids}::uuid[])
      and usergroup_id in (select id from user_groups where org_id = ${req.ctx.orgId})`.execute(tx)
    for (const row of rows) await api.audit(tx, req, 'update', row, [{ field: 'Org roles', before: '', after: '' }])
  }, req.ctx.lang)
}

function idList(req: FastifyRequest, value: unknown, field: string): string[] {
  if (!Array.isArray(value) || !value.length) throw validationError({ [field]: [tr(req.ctx.lang, 'This field is required.')] })
  const ids = value.map(refId)
  const bad = ids.find((v) => !isUuid(v))
  if (bad !== undefined) throw validationError({ [field]: [tr(req.ctx.lang, 'Invalid pk "{pk}" - object does not exist.', { pk: String(bad) })] })
  return [...new Set(ids.map((v) => normUuid(v as string)))]
}

async function invite(req: FastifyRequest, reply: FastifyReply, api: UserApi) {
  refuseInRoot(req)
  const body = bodyObject(req)
  const userIds = idList(req, body.users, 'users')
  const roleIds = idList(req, body.org_roles, 'org_roles')
  const db = req.ctx.db
  const users = (await sql<UserRow>`select * from users where id = any(${userIds}::uuid[])`.execute(db)).rows
  const missingUser = userIds.find((id) => !users.some((u) => u.id === id))
  const roles = (await sql<{ id: string }>`select id from roles where id = any(${roleIds}::uuid[]) and scope = 'org'`.execute(db)).rows
  const missingRole = roleIds.find((id) => !roles.some((r) => r.id === id))
  const errors: Record<string, string[]> = {}
  if (missingUser) errors.users = [tr(req.ctx.lang, 'Invalid pk "{pk}" - object does not exist.', { pk: missingUser })]
  if (missingRole) errors.org_roles = [tr(req.ctx.lang, 'Invalid pk "{pk}" - object does not exist.', { pk: missingRole })]
  if (Object.keys(errors).length) throw validationError(errors)
  await withTx(db, api.def, async (tx) => {
    for (const u of users) {
      for (const r of roleIds) {
        await sql`insert into role_bindings (id, user_id, role_id, scope, org_id) values (${randomUUID()}, ${u.id}, ${r}, 'org', ${req.ctx.orgId})
          on conflict do nothing`.execute(tx)
      }
      await api.audit(tx, req, 'update', u)
    }
  }, req.ctx.lang)
  return reply.status(201).send({ users: userIds, org_roles: roleIds })
}

/** A detail action that updates the user row and answers with the serialized user. */
const NO_MAIL_SERVER = 'No mail server is configured, so no reset link can be sent. Configure email in the system settings, or set a new password in the user\'s form.'
addMessages({
  [NO_MAIL_SERVER]: ['未配置邮件服务器，无法发送重置链接。请在系统设置中配置邮件，或在用户表单中直接设置新密码。',
    'メールサーバーが設定されていないため、リセットリンクを送信できません。システム設定でメールを設定するか、ユーザーのフォームで新しいパスワードを設定してください。'],
})

function rowAction(path: string, apply: (req: FastifyRequest, row: UserRow, api: UserApi) => Promise<void>, answer: 'user' | 'msg' = 'user'): ActionDef<UserRow> {
  return {
    path, detail: true, method: 'PUT', perm: 'users.change_user',
    handler: async (req, _reply, api, id) => {
      const row = await api.getObject(req, id!)
      await assertCanManage(req.ctx.db, req.ctx, [String(row.id)])
      await apply(req, row, api)
      if (answer === 'msg') return { msg: tr(req.ctx.lang, 'success') }
      const [out] = await api.serialize(req, [row], { action: 'retrieve' })
      return out
    },
  }
}

/** Runs a change in a transaction with its operate log (the changed secret is masked). */
async function audited(req: FastifyRequest, api: UserApi, row: UserRow, fn: (tx: typeof req.ctx.db) => Promise<void>, field: string): Promise<void> {
  await withTx(req.ctx.db, api.def, async (tx) => {
    await fn(tx)
    await api.audit(tx, req, 'update', row, [{ field, before: '******', after: '******' }])
  }, req.ctx.lang)
}

export const userActions: Array<ActionDef<UserRow>> = [
  {
    path: 'suggestions', detail: false, method: 'GET', perm: 'users.match_user',
    // Suggestions look at every user (JumpServer runs them in the root organization), first 10, mini.
    handler: (req, _reply, api) => api.listResponse(req, { only: MINI, limit: 10, bare: true, ctx: { ...req.ctx, orgId: ORG_IDS.ROOT } }),
  },
  { path: 'invite', detail: false, method: 'POST', perm: 'users.invite_user', handler: invite },
  {
    path: 'remove', detail: false, method: 'POST', perm: REMOVE_PERM,
    handler: async (req, reply, api) => {
      const q = (req.query ?? {}) as Record<string, string>
      if (!q.spm && !q.ids) return reply.status(400).send('')
      await removeFromOrg(req, api, await api.filteredRows(req))
      return reply.status(204).send()
    },
  },
  {
    path: 'remove', detail: true, method: 'POST', perm: REMOVE_PERM,
    handler: async (req, reply, api, id) => {
      await removeFromOrg(req, api, [await api.getObject(req, id!)])
      return reply.status(204).send()
    },
  },
  rowAction('password/reset', async (req, row, api) => {
    // The link goes out by mail: without a mail server nothing would reach the user, so say so (issue 17).
    if (!String((await getSetting(req.ctx.db, 'EMAIL_HOST')) ?? '').trim()) {
      throw new ApiError(400, { detail: tr(req.ctx.lang, NO_MAIL_SERVER), code: 'email_not_configured' })
    }
    // The administrator deems the password compromised: the user's sessions and tokens end now. The link goes out
    // by mail before the commit: a mail server that refuses it changes nothing (400 with its reason).
    await audited(req, api, row, async (tx) => {
      const link = await createResetLink(tx, row.id, req)
      await endUserSessions(tx, row.id)
      try {
        await sendResetMail(tx, req.server.services.config, req.ctx.lang, row as unknown as MailUser, link)
      } catch (e) {
        if (e instanceof MailError) throw new ApiError(400, { detail: tr(req.ctx.lang, MAIL_MESSAGES.sendFailed, { reason: e.message }), code: 'email_send_failed' })
        throw e
      }
    }, 'Password')
  }),
  rowAction('mfa/reset', async (req, row, api) => {
    await audited(req, api, row, async (tx) => {
      await sql`update users set otp_secret = '', otp_last_counter = 0, date_updated = now() where id = ${row.id}`.execute(tx)
    }, 'MFA')
  }, 'msg'),
  rowAction('unblock', async (req, row) => {
    await clearFailures(req.ctx.db, row.username)
  }),
  rowAction('pubkey/reset', async (req, row, api) => {
    await audited(req, api, row, async (tx) => {
      await sql`update users set public_key = '', date_updated = now() where id = ${row.id}`.execute(tx)
    }, 'Public key')
  }),
]
