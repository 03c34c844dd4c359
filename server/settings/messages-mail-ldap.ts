/** zh and ja of the Email content and LDAP settings (declarations.ts), kept apart from messages.ts for merges. */
import { addMessages, hasTranslation } from '../i18n.ts'
import { CRONTAB_ERROR, LDAP_FILTER_ERROR, LDAP_MAP_ERROR, LDAP_URI_ERROR } from './declarations.ts'

const ENTRIES: Record<string, [zh: string, ja: string]> = {
  'Email content': ['邮件内容', 'メールの内容'],
  'Create user email subject': ['创建用户邮件的主题', 'ユーザー作成メールの件名'],
  'Tips: When creating a user, send the subject of the email (eg:Create account successfully)': ['提示: 创建用户时，发送设置密码邮件的主题 (例如: 创建用户成功)', 'ヒント: ユーザーを作成するときに送信するメールの件名 (例: アカウントが正常に作成されました)'],
  'Create user honorific': ['创建用户邮件的敬语', 'ユーザー作成メールの敬称'],
  'Tips: When creating a user, send the honorific of the email (eg:Hello)': ['提示: 创建用户时，发送设置密码邮件的敬语 (例如: 你好)', 'ヒント: ユーザーを作成するときに送信するメールの敬称 (例: こんにちは)'],
  'Create user email content': ['创建用户邮件的内容', 'ユーザー作成メールの内容'],
  'Tips: Email content': ['提示: 邮件内容', 'ヒント: メールの内容'],
  Signature: ['署名', '署名'],
  'Tips: Email signature (eg:jumpserver)': ['提示: 邮件的署名 (例如: jumpserver)', 'ヒント: メールの署名 (例: jumpserver)'],
  LDAP: ['LDAP', 'LDAP'],
  'LDAP server': ['LDAP 地址', 'LDAP サーバー'],
  'eg: ldap://localhost:389': ['如: ldap://localhost:389', '例: ldap://localhost:389'],
  'Bind DN': ['绑定 DN', 'バインド DN'],
  Password: ['密码', 'パスワード'],
  'User OU': ['用户 OU', 'ユーザー OU'],
  'Use | split multiple OUs': ['多个 OU 使用 | 分割', '複数の OU は | で区切ります'],
  'User search filter': ['用户过滤器', 'ユーザー検索フィルター'],
  'Choice may be (cn|uid|sAMAccountName)=%(user)s)': ['可能的选项是(cn或uid或sAMAccountName=%(user)s)', '選択は (cn|uid|sAMAccountName)=%(user)s)'],
  'User attr map': ['用户属性映射', 'ユーザー属性マッピング'],
  'User attr map present how to map LDAP user attr to jumpserver, username,name,email is jumpserver attr': [
    '用户属性映射代表怎样将 LDAP 中用户属性映射到系统用户上，username, name, email 是系统的用户属性',
    'ユーザー属性マッピングは、LDAP のユーザー属性をシステムのユーザーに対応付ける方法です。username、name、email はシステムのユーザー属性です'],
  Organization: ['组织', '組織'],
  'The organization that imported and periodically synchronized users join': ['导入和定期同步的用户加入的组织', 'インポートおよび定期同期されたユーザーが参加する組織'],
  'Periodic perform': ['定时执行', '定期実行'],
  'Regularly perform': ['定期执行', '定期的に実行'],
  'eg: Every Sunday 03:05 run <5 3 * * 0>; a 5-field crontab (minute hour day month weekday); it takes priority over the cycle': [
    '如: 每周日 03:05 执行 <5 3 * * 0>；5 位 crontab 表达式 (分 时 日 月 周)；优先于周期执行',
    '例: 毎週日曜日 03:05 に実行 <5 3 * * 0>; 5 フィールドの crontab (分 時 日 月 曜日); サイクル実行より優先されます'],
  'Cycle perform': ['周期执行', 'サイクル実行'],
  'Unit: hour': ['单位: 时', '単位: 時間'],
  'Connect timeout': ['连接超时时间', '接続タイムアウト'],
  'Unit: second': ['单位: 秒', '単位: 秒'],
  'Search paged size': ['搜索分页数量', '検索ページサイズ'],
  'Enable LDAP auth': ['启用 LDAP 认证', 'LDAP 認証の有効化'],
  [LDAP_URI_ERROR]: ['请输入 ldap:// 或 ldaps:// 地址，包含主机和可选的端口', 'ホストと任意のポートを含む ldap:// または ldaps:// のアドレスを入力してください'],
  [LDAP_FILTER_ERROR]: ['过滤器必须用括号括起来并包含 %(user)s', 'フィルターは括弧で囲み、%(user)s を含める必要があります'],
  [LDAP_MAP_ERROR]: ['需为字符串组成的 JSON 对象，且至少映射 username，例如 {"username": "uid", "name": "cn", "email": "mail"}',
    '少なくとも username を対応付ける文字列の JSON オブジェクトが必要です。例: {"username": "uid", "name": "cn", "email": "mail"}'],
  [CRONTAB_ERROR]: ['请输入有效的 5 位 crontab 表达式', '有効な 5 フィールドの crontab 式を入力してください'],
}

addMessages(Object.fromEntries(Object.entries(ENTRIES).filter(([en]) => !hasTranslation('zh', en) || !hasTranslation('ja', en))))
