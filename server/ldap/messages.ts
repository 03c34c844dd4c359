import { addMessages } from '../i18n.ts'

/** English texts of the LDAP tools (contract §4.17 wording where it has one). */
export const LDAP_MESSAGES = {
  matched: 'Succeed: Match {n} s user',
  loginOk: 'Authentication success: {username}',
  errServer: 'Error (Invalid LDAP server): {reason}',
  errBind: 'Error (Invalid Bind DN or password): {reason}',
  errSearch: 'Error (Invalid user OU or user search filter): {reason}',
  errAttrMap: 'Error (Invalid attribute map): {reason}',
  errUser: 'Authentication failed (user not found): {reason}',
  errPassword: 'Authentication failed (username or password incorrect): {reason}',
  usernameList: 'username_list: a list of usernames, or ["*"] for every user',
  orgInvalid: 'The organization does not exist or cannot hold users',
  notLdapUser: 'User {username} exists and is not an LDAP user',
  imported: 'Imported {n} users successfully (Organization: {org})',
} as const

addMessages({
  [LDAP_MESSAGES.matched]: ['成功匹配 {n} 个用户', '成功: {n} 人のユーザーに一致しました'],
  [LDAP_MESSAGES.loginOk]: ['认证成功: {username}', '認証成功: {username}'],
  [LDAP_MESSAGES.errServer]: ['错误 (LDAP 服务器无效): {reason}', 'エラー (無効な LDAP サーバー): {reason}'],
  [LDAP_MESSAGES.errBind]: ['错误 (绑定 DN 或密码无效): {reason}', 'エラー (無効なバインド DN またはパスワード): {reason}'],
  [LDAP_MESSAGES.errSearch]: ['错误 (用户 OU 或用户过滤器无效): {reason}', 'エラー (無効なユーザー OU またはユーザー検索フィルター): {reason}'],
  [LDAP_MESSAGES.errAttrMap]: ['错误 (属性映射无效): {reason}', 'エラー (無効な属性マッピング): {reason}'],
  [LDAP_MESSAGES.errUser]: ['认证失败 (用户不存在): {reason}', '認証失敗 (ユーザーが見つかりません): {reason}'],
  [LDAP_MESSAGES.errPassword]: ['认证失败 (用户名或密码不正确): {reason}', '認証失敗 (ユーザー名またはパスワードが正しくありません): {reason}'],
  [LDAP_MESSAGES.usernameList]: ['username_list：用户名列表，或 ["*"] 表示全部用户', 'username_list: ユーザー名のリスト、またはすべてのユーザーを表す ["*"]'],
  [LDAP_MESSAGES.orgInvalid]: ['组织不存在或不能包含用户', '組織が存在しないか、ユーザーを含めることができません'],
  [LDAP_MESSAGES.notLdapUser]: ['用户 {username} 已存在且不是 LDAP 用户', 'ユーザー {username} は既に存在し、LDAP ユーザーではありません'],
  [LDAP_MESSAGES.imported]: ['成功导入 {n} 个用户 (组织: {org})', '{n} 人のユーザーをインポートしました (組織: {org})'],
})
