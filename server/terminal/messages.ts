import { addMessages } from '../i18n.ts'

/** The built-in terminal's messages (English source → zh, ja), shown on the user's screen or in error frames. */
export const TERMINAL_MESSAGES: Record<string, [zh: string, ja: string]> = {
  'The connection token is not valid or has expired.': ['连接令牌无效或已过期。', '接続トークンが無効か期限切れです。'],
  'You are not allowed to connect to this asset with this account.': ['您无权使用该账号连接此资产。', 'このアカウントでこの資産に接続する権限がありません。'],
  'The asset does not exist or is not active.': ['资产不存在或未激活。', '資産が存在しないか、無効です。'],
  'The login was refused by the asset login rule "{name}".': ['登录被资产登录规则「{name}」拒绝。', 'ログインは資産ログインルール「{name}」により拒否されました。'],
  'This login needs approval (rule "{name}") and no approval is available.': ['此登录需要审批（规则「{name}」），但当前无法审批。', 'このログインには承認が必要です（ルール「{name}」）が、承認は利用できません。'],
  'The login was not approved.': ['登录未被批准。', 'ログインは承認されませんでした。'],
  'The login was rejected by {name}.': ['登录被 {name} 拒绝。', 'ログインは {name} により却下されました。'],
  'The login request was closed before it was approved.': ['登录申请在批准前已关闭。', 'ログイン申請は承認される前に閉じられました。'],
  'This login needs approval and no approval is available.': ['此登录需要审批，但当前无法审批。', 'このログインには承認が必要ですが、承認は利用できません。'],
  'The host key of {host} has changed (recorded {old}, offered {new}). An administrator must clear the recorded key on the asset before you can connect.': [
    '{host} 的主机密钥已变更（记录为 {old}，现为 {new}）。需管理员在资产上清除已记录的密钥后才能连接。',
    '{host} のホスト鍵が変更されました（記録 {old}、提示 {new}）。接続するには管理者が資産の記録済み鍵を消去する必要があります。'],
  'Cannot reach the asset: {reason}': ['无法连接资产：{reason}', '資産に接続できません：{reason}'],
  'The asset refused the account\'s credentials.': ['资产拒绝了账号的凭据。', '資産がアカウントの認証情報を拒否しました。'],
  'The account has no secret to log in with.': ['该账号没有可用于登录的密钥。', 'このアカウントにはログインに使う秘密情報がありません。'],
  'Command "{command}" was rejected by the command filter "{name}".': ['命令「{command}」被命令过滤规则「{name}」拒绝。', 'コマンド「{command}」はコマンドフィルター「{name}」により拒否されました。'],
  'Input typed with echo off was refused by the command filter "{name}".': ['关闭回显时输入的内容被命令过滤规则「{name}」拒绝。', 'エコーオフで入力された内容はコマンドフィルター「{name}」により拒否されました。'],
  'Command "{command}" needs approval (rule "{name}") and no approval is available.': ['命令「{command}」需要审批（规则「{name}」），但当前无法审批。', 'コマンド「{command}」には承認が必要です（ルール「{name}」）が、承認は利用できません。'],
  'Command "{command}" was not approved.': ['命令「{command}」未被批准。', 'コマンド「{command}」は承認されませんでした。'],
  'Waiting for approval (ticket {ticket})…': ['等待审批（工单 {ticket}）…', '承認待ち（チケット {ticket}）…'],
  'The session was idle for more than {minutes} minutes and was closed.': ['会话空闲超过 {minutes} 分钟，已关闭。', 'セッションが {minutes} 分以上アイドル状態だったため閉じられました。'],
  'The session reached its maximum length of {hours} hours and was closed.': ['会话已达到最长 {hours} 小时，已关闭。', 'セッションが最大 {hours} 時間に達したため閉じられました。'],
  'Your permission to this asset has ended; the session was closed.': ['您对此资产的授权已失效，会话已关闭。', 'この資産への権限が終了したため、セッションは閉じられました。'],
  'Your user is disabled or expired; the session was closed.': ['您的用户已被禁用或已过期，会话已关闭。', 'ユーザーが無効化または期限切れのため、セッションは閉じられました。'],
  'The session was terminated by {by}.': ['会话已被 {by} 终止。', 'セッションは {by} によって終了されました。'],
  'The session was terminated by an administrator.': ['会话已被管理员终止。', 'セッションは管理者によって終了されました。'],
  'The connection to the asset was closed.': ['与资产的连接已关闭。', '資産との接続が閉じられました。'],
  'The session ended.': ['会话已结束。', 'セッションが終了しました。'],
  'The session does not exist or can no longer be resumed.': ['会话不存在或已无法恢复。', 'セッションが存在しないか、再開できません。'],
  'Too many open terminals.': ['打开的终端过多。', '開いている端末が多すぎます。'],
  'Too much input.': ['输入过多。', '入力が多すぎます。'],
  'The server is shutting down.': ['服务器正在关闭。', 'サーバーを停止しています。'],
  'Not signed in.': ['未登录。', 'サインインしていません。'],
  // the SSH gateway's menu and prompts
  'Welcome, {name}.': ['欢迎，{name}。', 'ようこそ、{name} さん。'],
  'Type a number to connect, text to search by name or address, Enter to list all, q to leave.': [
    '输入编号连接，输入文字按名称或地址搜索，回车列出全部，q 退出。', '番号で接続、文字で名前やアドレスを検索、Enter で一覧、q で終了。'],
  'No granted asset matches.': ['没有匹配的已授权资产。', '一致する許可済み資産はありません。'],
  'Choose an account:': ['选择账号：', 'アカウントを選択：'],
  'Username: ': ['用户名：', 'ユーザー名：'],
  'Password: ': ['密码：', 'パスワード：'],
  'OTP code: ': ['动态码：', 'ワンタイムコード：'],
  'waiting for approval…': ['等待审批…', '承認待ち…'],
  'Connecting to {asset}…': ['正在连接 {asset}…', '{asset} に接続しています…'],
  'The asset "{asset}" is not granted to you.': ['资产「{asset}」未授权给您。', '資産「{asset}」はあなたに許可されていません。'],
  'Goodbye.': ['再见。', 'さようなら。'],
}

addMessages(TERMINAL_MESSAGES)
