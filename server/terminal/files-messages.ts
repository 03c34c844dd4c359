import { addMessages } from '../i18n.ts'

/** The file transfer's messages (English source → zh, ja): SFTP status texts and the web file manager's errors. */
export const FILE_MESSAGES: Record<string, [zh: string, ja: string]> = {
  'No such file or folder: {path}': ['文件或文件夹不存在：{path}', 'ファイルまたはフォルダーがありません：{path}'],
  'Invalid path.': ['路径无效。', 'パスが無効です。'],
  'You are not allowed to download files from this asset.': ['您无权从此资产下载文件。', 'この資産からファイルをダウンロードする権限がありません。'],
  'You are not allowed to upload files to this asset.': ['您无权向此资产上传文件。', 'この資産にファイルをアップロードする権限がありません。'],
  'You are not allowed to delete files on this asset.': ['您无权删除此资产上的文件。', 'この資産のファイルを削除する権限がありません。'],
  'This folder is read-only: choose an account folder of an asset.': ['此文件夹只读：请选择资产下的账号文件夹。', 'このフォルダーは読み取り専用です：資産のアカウントフォルダーを選んでください。'],
  'A file can only be renamed or moved within the same account folder of an asset.': ['文件只能在同一资产的同一账号文件夹内重命名或移动。', 'ファイルは同じ資産の同じアカウントフォルダー内でのみ名前変更・移動できます。'],
  'The file is larger than the upload limit of {size} MB.': ['文件超过上传上限 {size} MB。', 'ファイルがアップロード上限 {size} MB を超えています。'],
  'The upload has no file.': ['上传内容中没有文件。', 'アップロードにファイルがありません。'],
  'The name must not be empty or contain "/".': ['名称不能为空，也不能包含“/”。', '名前は空にできず、「/」を含めることもできません。'],
  'The host refused the operation: {reason}': ['主机拒绝了该操作：{reason}', 'ホストが操作を拒否しました：{reason}'],
  'The file manager is not enabled for you.': ['您没有文件管理的权限。', 'ファイルマネージャーの権限がありません。'],
}

addMessages(FILE_MESSAGES)
