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
