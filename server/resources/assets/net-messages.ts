import { addMessages } from '../../i18n.ts'

/** Labels and messages of domains, gateways, labels and connectivity (English source; zh and ja). */
addMessages({
  'Domain': ['网域', 'ドメイン'],
  'Gateway': ['网关', 'ゲートウェイ'],
  'Label': ['标签', 'ラベル'],
  'Gateways amount': ['网关数量', 'ゲートウェイ数'],
  'Domains amount': ['网域数量', 'ドメイン数'],
  'User': ['用户', 'ユーザー'],
  'System': ['系统', 'システム'],
  'A label with this name and value already exists.': ['已存在相同名称和值的标签。', '同じ名前と値のラベルが既に存在します。'],
})

addMessages({
  'Test assets connectivity': ['测试资产可连接性', '資産の接続性をテスト'],
  'Test gateways connectivity': ['测试网关可连接性', 'ゲートウェイの接続性をテスト'],
  'Update assets hardware info': ['更新资产硬件信息', '資産のハードウェア情報を更新'],
  'Ensure the port is a number between 1 and 65535.': ['请确保端口是 1 到 65535 之间的数字。', 'ポートは 1 から 65535 までの数値にしてください。'],
  'Background tasks are not running': ['后台任务未运行', 'バックグラウンドタスクが実行されていません'],
})
