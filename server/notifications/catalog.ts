/**
 * The system messages (JumpServer's `SystemMessage` types): what happens, in which category, and the text sent.
 * Each message type is subscribed to in Settings → Message subscription (receivers and channels); `notify()`
 * delivers it. Labels and texts are English, translated by addMessages (server/i18n.ts).
 */
import { addMessages } from '../i18n.ts'

export interface MessageType {
  /** JumpServer-style class name, the id in the API */
  type: string
  category: string
  label: string
}

export const CATEGORIES: Record<string, string> = {
  accounts: 'Accounts',
  users: 'Users',
  settings: 'Settings',
}

export const MESSAGE_TYPES: MessageType[] = [
  { type: 'UserLoginFromNewIpMsg', category: 'users', label: 'User login from a new IP' },
  { type: 'PasswordExpirationReminderMsg', category: 'users', label: 'Password expiration reminder' },
  { type: 'AccountAutomationResultMsg', category: 'accounts', label: 'Account push, verification or secret change result' },
  { type: 'LdapImportResultMsg', category: 'settings', label: 'LDAP periodic import result' },
]

export const messageType = (type: string) => MESSAGE_TYPES.find((m) => m.type === type)

/** The delivery channels (`/api/v1/notifications/backends/`). The site message is always on. */
export const BACKENDS = [
  { name: 'site_msg', label: 'Site message' },
  { name: 'email', label: 'Email' },
] as const
export type BackendName = (typeof BACKENDS)[number]['name']

/** Subjects and bodies of the messages (English; placeholders filled by `notify`). */
export const NOTIFICATION_TEXTS = {
  newIpSubject: 'Login from a new IP: {username}',
  newIpBody: 'User {name} ({username}) logged in from {ip}, an address this user has not logged in from before.\nTime: {time}\nBackend: {backend}',
  pwExpireSubject: 'Passwords expiring soon',
  pwExpireBody: 'These users\' passwords expire within {days} days:\n{list}',
  accountSubject: 'Account automation finished: {name}',
  accountBody: 'The {kind} "{name}" finished: {ok} succeeded, {failed} failed.\n{details}',
  ldapSubject: 'LDAP periodic import finished',
  ldapBody: 'LDAP users created: {created}, updated: {updated}, skipped: {skipped}.',
  invalidBackend: '"{value}" is not a valid choice.',
  invalidUser: 'Invalid pk "{value}" - object does not exist.',
} as const

addMessages({
  Accounts: ['账号', 'アカウント'],
  Settings: ['设置', '設定'],
  'User login from a new IP': ['用户从新 IP 登录', 'ユーザーが新しい IP からログイン'],
  'Password expiration reminder': ['密码过期提醒', 'パスワード期限切れの通知'],
  'Account push, verification or secret change result': ['账号推送、验证或改密结果', 'アカウントのプッシュ・検証・シークレット変更の結果'],
  'LDAP periodic import result': ['LDAP 周期导入结果', 'LDAP 定期インポートの結果'],
  'Site message': ['站内信', 'サイトメッセージ'],
  Email: ['邮件', 'メール'],
  [NOTIFICATION_TEXTS.newIpSubject]: ['新 IP 登录：{username}', '新しい IP からのログイン: {username}'],
  [NOTIFICATION_TEXTS.newIpBody]: ['用户 {name}（{username}）从 {ip} 登录，该用户此前从未从此地址登录。\n时间：{time}\n认证方式：{backend}',
    'ユーザー {name}（{username}）が、これまでログインしたことのない {ip} からログインしました。\n時刻: {time}\n認証方式: {backend}'],
  [NOTIFICATION_TEXTS.pwExpireSubject]: ['密码即将过期', 'まもなく期限切れになるパスワード'],
  [NOTIFICATION_TEXTS.pwExpireBody]: ['以下用户的密码将在 {days} 天内过期：\n{list}', '次のユーザーのパスワードは {days} 日以内に期限切れになります:\n{list}'],
  [NOTIFICATION_TEXTS.accountSubject]: ['账号自动化已完成：{name}', 'アカウント自動化が完了しました: {name}'],
  [NOTIFICATION_TEXTS.accountBody]: ['{kind}“{name}”已完成：成功 {ok}，失败 {failed}。\n{details}', '{kind}「{name}」が完了しました: 成功 {ok}、失敗 {failed}。\n{details}'],
  [NOTIFICATION_TEXTS.ldapSubject]: ['LDAP 周期导入已完成', 'LDAP 定期インポートが完了しました'],
  [NOTIFICATION_TEXTS.ldapBody]: ['LDAP 用户新建：{created}，更新：{updated}，跳过：{skipped}。', 'LDAP ユーザー 作成: {created}、更新: {updated}、スキップ: {skipped}。'],
  [NOTIFICATION_TEXTS.invalidBackend]: ['“{value}”不是合法选项。', '"{value}" は有効な選択肢ではありません。'],
  [NOTIFICATION_TEXTS.invalidUser]: ['无效的主键“{value}”- 对象不存在。', '無効な主キー "{value}" - オブジェクトが存在しません。'],
})
