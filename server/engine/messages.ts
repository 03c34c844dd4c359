/** Messages and labels of the engine (DRF / django-filter wording), with their zh and ja translations. */
import { addMessages } from '../i18n.ts'

addMessages({
  // DRF field validation
  'Null characters are not allowed.': ['不允许使用空字符。', 'NULL 文字は使用できません。'],
  'Not a valid string.': ['不是有效的字符串。', '有効な文字列ではありません。'],
  'Enter a valid email address.': ['请输入合法的邮件地址。', '有効なメールアドレスを入力してください。'],
  'Enter a valid URL.': ['请输入合法的 URL。', '有効な URL を入力してください。'],
  'Must be a valid UUID.': ['必须是有效的 UUID。', '有効な UUID である必要があります。'],
  'A valid integer is required.': ['请填写合法的整数值。', '有効な整数が必要です。'],
  'A valid number is required.': ['请填写合法的数字。', '有効な数値が必要です。'],
  'Ensure this value is less than or equal to {n}.': ['确保该值小于或者等于 {n}。', 'この値が {n} 以下であることを確認してください。'],
  'Ensure this value is greater than or equal to {n}.': ['确保该值大于或者等于 {n}。', 'この値が {n} 以上であることを確認してください。'],
  'Ensure this field has at least {n} characters.': ['确保该字段至少包含 {n} 个字符。', 'この項目が少なくとも {n} 文字あることを確認してください。'],
  'Must be a valid boolean.': ['必须是有效的布尔值。', '有効なブール値である必要があります。'],
  'Datetime has wrong format. Use one of these formats instead: {formats}.': ['日期时间格式错误。请从这些格式中选择：{formats}。', '日時の形式が正しくありません。次のいずれかの形式を使用してください: {formats}。'],
  'Date has wrong format. Use one of these formats instead: {formats}.': ['日期格式错误。请从这些格式中选择：{formats}。', '日付の形式が正しくありません。次のいずれかの形式を使用してください: {formats}。'],
  '"{input}" is not a valid choice.': ['“{input}” 不是合法选项。', '"{input}" は有効な選択肢ではありません。'],
  'Expected a list of items but got type "{type}".': ['期望为一个包含物件的列表，得到的类型是 “{type}”。', 'リストが必要ですが、型 "{type}" が渡されました。'],
  'This list may not be empty.': ['列表不能为空。', 'このリストは空にできません。'],
  'Invalid data. Expected a dictionary, but got {type}.': ['无效数据。期待为字典类型，得到的是 {type}。', '無効なデータです。辞書が必要ですが、{type} が渡されました。'],
  'Object with {slug_name}={value} does not exist.': ['值为 {slug_name}={value} 的对象不存在。', '{slug_name}={value} のオブジェクトは存在しません。'],
  'Invalid pk "{pk}" - object does not exist.': ['无效主键 “{pk}” - 对象不存在。', '無効な主キー "{pk}" - オブジェクトが存在しません。'],
  'Incorrect type. Expected pk value, received {type}.': ['类型错误。期望为主键，得到的类型为 {type}。', '型が正しくありません。主キーが必要ですが、{type} が渡されました。'],
  'Value must be valid JSON.': ['值必须是有效的 JSON。', '値は有効な JSON である必要があります。'],
  'Invalid choice: {value}': ['无效的选项: {value}', '無効な選択肢: {value}'],
  'Duplicate value.': ['重复的值。', '値が重複しています。'],
  // django-filter
  'Select a valid choice. {value} is not one of the available choices.': ['选择一个有效的选项。{value} 不在可用的选项中。', '有効な選択肢を選んでください。{value} は選択肢にありません。'],
  'Enter a whole number.': ['输入整数。', '整数を入力してください。'],
  'Enter a valid UUID.': ['输入一个有效的 UUID。', '有効な UUID を入力してください。'],
  // engine
  'Please save in a org': ['请在组织内保存', '組織内で保存してください'],
  'Is referenced by other objects and cannot be deleted': ['被其他对象关联，不能删除', '他のオブジェクトから参照されているため削除できません'],
  '{model} object does not exist.': ['{model} 对象不存在。', '{model} オブジェクトが存在しません。'],
  'Request file format may be wrong': ['上传的文件格式错误 或 其它类型资源的文件', 'ファイル形式が間違っている可能性があります'],
  'Parse file error: {error}': ['解析文件错误: {error}', 'ファイル解析エラー: {error}'],
  'The file is too large once decompressed (more than {n} bytes)': ['文件解压后过大（超过 {n} 字节）', '展開後のファイルが大きすぎます（{n} バイトを超えています）'],
  'The file has too many rows (at most {n})': ['文件行数过多（最多 {n} 行）', 'ファイルの行数が多すぎます（最大 {n} 行）'],
  'A cell is too long (at most {n} characters)': ['单元格内容过长（最多 {n} 个字符）', 'セルが長すぎます（最大 {n} 文字）'],
  'The file holds too much text (more than {n} characters)': ['文件文本过多（超过 {n} 个字符）', 'ファイルのテキストが多すぎます（{n} 文字を超えています）'],
  'The file has too many cells (at most {n})': ['文件单元格过多（最多 {n} 个）', 'ファイルのセルが多すぎます（最大 {n} 個）'],
  'The file took too long to read (more than {n} seconds)': ['文件读取超时（超过 {n} 秒）', 'ファイルの読み込みに時間がかかりすぎました（{n} 秒超）'],
  'The file content overflowed (The maximum length `{n}` bytes)': ['文件内容太大 (最大长度 `{n}` 字节)', 'ファイルの内容が大きすぎます (最大長 `{n}` バイト)'],
  'Method "{method}" not allowed.': ['方法 “{method}” 不被允许。', 'メソッド "{method}" は許可されていません。'],
  'Yes': ['是', 'はい'],
  'No': ['否', 'いいえ'],
  'empty': ['空', '空'],
  // common labels
  'ID': ['ID', 'ID'],
  'Name': ['名称', '名前'],
  'Comment': ['备注', '備考'],
  'Created by': ['创建者', '作成者'],
  'Updated by': ['更新人', '更新者'],
  'Date created': ['创建日期', '作成日'],
  'Date updated': ['更新日期', '更新日'],
  'Organization ID': ['组织 ID', '組織 ID'],
  'Organization name': ['组织名称', '組織名'],
  'Organization': ['组织', '組織'],
  'Active': ['激活', 'アクティブ'], // not 有効, which is "Is valid" (issue 17)
  'Users amount': ['用户数量', 'ユーザー数'],
  'User': ['用户', 'ユーザー'],
  'Users': ['用户', 'ユーザー'],
  '{name} List': ['{name}列表', '{name}リスト'],
})

/** Python type names used in DRF messages. */
export function pyType(v: unknown): string {
  if (v === null || v === undefined) return 'NoneType'
  if (typeof v === 'boolean') return 'bool'
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float'
  if (typeof v === 'string') return 'str'
  if (Array.isArray(v)) return 'list'
  return 'dict'
}
