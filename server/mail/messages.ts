import { addMessages } from '../i18n.ts'

/** English texts of the mail module (translated by addMessages below). */
export const MAIL_MESSAGES = {
  linkInvalid: 'This password reset link is invalid or has expired. Ask an administrator for a new one.',
  resetDone: 'Your password has been reset. You can log in with it now.',
  testSent: 'Test mail sent to {to}, please check',
  testNoRecipient: 'Enter a test recipient, or give your own account an email address',
  testSubject: 'Test mail',
  testBody: 'This is a test mail sent by the system settings. If you read it, mail works.',
  notConfigured: 'No mail server is configured',
  sendFailed: 'The mail could not be sent: {reason}',
  resetSubject: 'Reset password',
  resetBody: 'Hello {name},\n\nAn administrator reset your password. Open this link within one hour to set a new one:\n\n{link}\n\nIf you did not expect this mail, tell your administrator.',
  createdSubject: 'Create account successfully',
  createdHonorific: 'Hello',
  createdBody: 'Your account has been created successfully',
  createdAccount: 'Username: {username}',
  createdLink: 'Open this link within one hour to set your password:',
} as const

addMessages({
  [MAIL_MESSAGES.linkInvalid]: ['该密码重置链接无效或已过期，请联系管理员重新发送。', 'このパスワードリセットリンクは無効か期限切れです。管理者に新しいリンクを依頼してください。'],
  [MAIL_MESSAGES.resetDone]: ['密码已重置，现在可以用新密码登录。', 'パスワードをリセットしました。新しいパスワードでログインできます。'],
  [MAIL_MESSAGES.testSent]: ['测试邮件已发送至 {to}，请查收', 'テストメールを {to} に送信しました。確認してください'],
  [MAIL_MESSAGES.testNoRecipient]: ['请填写测试收件人，或为当前账号设置邮箱', 'テスト受信者を入力するか、自分のアカウントにメールアドレスを設定してください'],
  [MAIL_MESSAGES.testSubject]: ['测试邮件', 'テストメール'],
  [MAIL_MESSAGES.testBody]: ['这是系统设置发送的测试邮件。收到即表示邮件配置可用。', 'これはシステム設定から送信されたテストメールです。受信できればメールは正常です。'],
  [MAIL_MESSAGES.notConfigured]: ['未配置邮件服务器', 'メールサーバーが設定されていません'],
  [MAIL_MESSAGES.sendFailed]: ['邮件发送失败：{reason}', 'メールを送信できませんでした: {reason}'],
  [MAIL_MESSAGES.resetSubject]: ['重置密码', 'パスワードのリセット'],
  [MAIL_MESSAGES.resetBody]: ['{name}，您好：\n\n管理员重置了您的密码。请在一小时内打开以下链接设置新密码：\n\n{link}\n\n如非本人预期，请告知管理员。',
    '{name} 様\n\n管理者があなたのパスワードをリセットしました。1 時間以内に次のリンクを開いて新しいパスワードを設定してください:\n\n{link}\n\n心当たりがない場合は管理者に連絡してください。'],
  [MAIL_MESSAGES.createdSubject]: ['创建账号成功', 'アカウント作成に成功しました'],
  [MAIL_MESSAGES.createdHonorific]: ['您好', 'こんにちは'],
  [MAIL_MESSAGES.createdBody]: ['您的账号已创建成功', 'アカウントが正常に作成されました'],
  [MAIL_MESSAGES.createdAccount]: ['用户名：{username}', 'ユーザー名: {username}'],
  [MAIL_MESSAGES.createdLink]: ['请在一小时内打开以下链接设置密码：', '1 時間以内に次のリンクを開いてパスワードを設定してください:'],
})
