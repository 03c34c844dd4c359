/**
 * The events that send system messages (each through `notify()`):
 * - a user logs in from an IP this user never logged in from before (with SECURITY_CHECK_DIFFERENT_CITY_LOGIN on;
 *   *differs*: JumpServer compares cities from its GeoIP database, which this server does not carry — it compares
 *   addresses) → UserLoginFromNewIpMsg, from the login bookkeeping (server/auth/complete.ts);
 * - passwords expiring within 5 days (SECURITY_PASSWORD_EXPIRATION_TIME) → PasswordExpirationReminderMsg, the daily
 *   task `users.tasks.check_password_expired`;
 * - an account automation execution (push, change secret, gather) ends → AccountAutomationResultMsg, and a
 *   verify/push of accounts ends (server/resources/accounts/run.ts);
 * - the periodic LDAP import ends → LdapImportResultMsg (server/ldap/sync.ts).
 */
import { sql } from 'kysely'
import type { Database, DB } from '../db/connection.ts'
import { addMessages } from '../i18n.ts'
import { getSetting } from '../settings/store.ts'
import { defineTask } from '../tasks/kinds.ts'
import { NOTIFICATION_TEXTS } from './catalog.ts'
import { notify, notifyLater } from './notify.ts'

/** Days before the expiry a password's owner is listed. */
export const EXPIRY_WARNING_DAYS = 5
export const PASSWORD_EXPIRY_TASK = 'users.tasks.check_password_expired'

/**
 * Called by the login bookkeeping before the success is logged: a user who has logged in before, never from this
 * address, sends the new-IP message (in the background: the login never waits for it).
 */
export async function checkNewIpLogin(database: Database, db: DB, user: { id: string; username: string }, ip: string, backend: string,
  log: (text: string) => void): Promise<void> {
  if ((await getSetting<boolean>(db, 'SECURITY_CHECK_DIFFERENT_CITY_LOGIN')) === false) return
  const r = (await sql<{ before: boolean; here: boolean }>`select
      exists (select 1 from login_logs where username = ${user.username} and status) as before,
      exists (select 1 from login_logs where username = ${user.username} and status and ip = ${ip}) as here`.execute(db)).rows[0]
  if (!r?.before || r.here) return
  const name = (await sql<{ name: string }>`select name from users where id = ${user.id}`.execute(db)).rows[0]?.name ?? user.username
  notifyLater(database, 'UserLoginFromNewIpMsg', {
    subject: NOTIFICATION_TEXTS.newIpSubject, message: NOTIFICATION_TEXTS.newIpBody,
    vars: { username: user.username, name, ip, time: new Date().toISOString(), backend },
  }, log)
}

export function registerNotifyEvents(_database: Database): void {
  defineTask({
    name: PASSWORD_EXPIRY_TASK,
    displayName: 'Check password expired',
    comment: 'Tells the subscribers of the password expiration reminder which passwords expire soon',
    schedule: { crontab: '0 10 * * *', enabled: true },
    async run(ctx) {
      const days = Number(await getSetting(ctx.db, 'SECURITY_PASSWORD_EXPIRATION_TIME')) || 9999
      const rows = (await sql<{ username: string; name: string; expires: Date }>`select username, name,
          date_password_last_updated + make_interval(days => ${days}) as expires from users
        where is_active and source = 'local' and date_password_last_updated is not null
          and date_password_last_updated + make_interval(days => ${days}) < now() + make_interval(days => ${EXPIRY_WARNING_DAYS})
        order by expires limit 500`.execute(ctx.db)).rows
      await ctx.log(`${rows.length} password(s) expire within ${EXPIRY_WARNING_DAYS} days`)
      if (!rows.length) return { users: 0 }
      const list = rows.map((r) => `- ${r.name}(${r.username}): ${new Date(r.expires).toISOString().slice(0, 10)}`).join('\n')
      const sent = await notify(ctx.database, 'PasswordExpirationReminderMsg', { subject: NOTIFICATION_TEXTS.pwExpireSubject, message: NOTIFICATION_TEXTS.pwExpireBody, vars: { days: EXPIRY_WARNING_DAYS, list } },
        (t) => void ctx.log(t))
      return { users: rows.length, mailed: sent.mailed.length }
    },
  })
}

addMessages({
  'Check password expired': ['检查密码过期', 'パスワードの期限切れを確認'],
  'Tells the subscribers of the password expiration reminder which passwords expire soon': [
    '告知密码过期提醒的订阅者哪些密码即将过期', 'パスワード期限切れ通知の購読者に、まもなく期限切れになるパスワードを知らせます'],
})
