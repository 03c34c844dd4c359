/**
 * Settings → Applets (contract §5.8, JumpServer 3.2 terminal.Applet): applets are uploaded as zip packages
 * (`POST /api/v1/terminal/applets/upload/`, multipart `file`, `?update=1` replaces one of the same name), listed,
 * shown, switched on/off and deleted. The package is checked before anything is written: size, a readable zip,
 * bounded entries, `manifest.yml`, `icon.png` (a PNG) and `setup.yml` present (at the root or in one top folder,
 * as JumpServer's packages are zipped), the manifest a YAML mapping with a slug `name`. A refused package answers
 * 400 `{error}` (translated; lina's upload dialog shows `error`) and writes nothing. docs/terminal.md "Applets".
 */
import { randomUUID } from 'node:crypto'
import { Uint8ArrayReader, Uint8ArrayWriter, ZipReader, configure, type Entry, type FileEntry } from '@zip.js/zip.js'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import { parse as parseYaml } from 'yaml'
import type { ActionDef, FieldDef, ResourceApi, ResourceDef } from '../../engine/types.ts'
import type { Values } from '../../http/body.ts'
import type { RowOf } from '../../db/connection.ts'
import { requireUser } from '../../http/context.ts'
import { addMessages, tr } from '../../i18n.ts'
import { commentField, createdBy, dateCreated, dateUpdated, idField, updatedBy } from '../common.ts'

configure({ useWebWorkers: false })

/** Bounds of a package: the upload, its entries, each file read and the whole unpacked size. */
export const APPLET_LIMITS = { upload: 5 * 1024 * 1024, entries: 500, file: 1024 * 1024, icon: 256 * 1024, unpacked: 50 * 1024 * 1024 }
const REQUIRED_FILES = ['manifest.yml', 'icon.png', 'setup.yml']
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
const SLUG = /^[-a-zA-Z0-9_]{1,128}$/

const APPLET_MESSAGES = {
  fileRequired: 'Upload a zip file in the field "file".',
  tooLarge: 'The file is larger than {max} MB.',
  invalidZip: 'Invalid zip file',
  tooMany: 'The package holds more than {max} files.',
  unpackedTooLarge: 'The package unpacks to more than {max} MB.',
  missing: 'Applet pkg not valid, Missing file {name}',
  fileTooLarge: 'The file {name} in the package is larger than {max} KB.',
  notPng: 'icon.png is not a PNG image.',
  badManifest: 'manifest.yml is not valid YAML: {error}',
  notMapping: 'manifest.yml must be a mapping of keys to values.',
  missingName: 'Missing name in manifest.yml',
  badName: 'The name in manifest.yml may hold only letters, digits, "-" and "_" (at most 128).',
  badField: 'The field {field} in manifest.yml is not valid: {reason}',
  exists: 'Applet already exists: {name}',
}

addMessages({
  [APPLET_MESSAGES.fileRequired]: ['请在字段 "file" 中上传 zip 文件。', 'フィールド "file" に zip ファイルをアップロードしてください。'],
  [APPLET_MESSAGES.tooLarge]: ['文件大于 {max} MB。', 'ファイルが {max} MB を超えています。'],
  [APPLET_MESSAGES.invalidZip]: ['无效的 zip 文件', '無効な zip ファイル'],
  [APPLET_MESSAGES.tooMany]: ['应用包中的文件超过 {max} 个。', 'パッケージのファイルが {max} 個を超えています。'],
  [APPLET_MESSAGES.unpackedTooLarge]: ['应用包解压后超过 {max} MB。', 'パッケージの展開後のサイズが {max} MB を超えています。'],
  [APPLET_MESSAGES.missing]: ['应用包无效，缺少文件 {name}', 'アプリパッケージが無効です。ファイル {name} がありません'],
  [APPLET_MESSAGES.fileTooLarge]: ['应用包中的文件 {name} 大于 {max} KB。', 'パッケージ内のファイル {name} が {max} KB を超えています。'],
  [APPLET_MESSAGES.notPng]: ['icon.png 不是 PNG 图片。', 'icon.png は PNG 画像ではありません。'],
  [APPLET_MESSAGES.badManifest]: ['manifest.yml 不是有效的 YAML: {error}', 'manifest.yml は有効な YAML ではありません: {error}'],
  [APPLET_MESSAGES.notMapping]: ['manifest.yml 必须是键值映射。', 'manifest.yml はキーと値のマッピングである必要があります。'],
  [APPLET_MESSAGES.missingName]: ['manifest.yml 中缺少 name', 'manifest.yml に name がありません'],
  [APPLET_MESSAGES.badName]: ['manifest.yml 中的 name 只能包含字母、数字、"-" 和 "_"（最多 128 个）。', 'manifest.yml の name には英数字、"-"、"_" のみ使えます（128 文字まで）。'],
  [APPLET_MESSAGES.badField]: ['manifest.yml 中的字段 {field} 无效: {reason}', 'manifest.yml のフィールド {field} が無効です: {reason}'],
  [APPLET_MESSAGES.exists]: ['应用已存在: {name}', 'アプリは既に存在します: {name}'],
  'Applet': ['远程应用', 'リモートアプリ'],
  'Display name': ['显示名称', '表示名'],
  'Version': ['版本', 'バージョン'],
  'Author': ['作者', '作成者'],
  'General': ['通用', '一般'],
  'Web': ['Web', 'Web'],
  'Builtin': ['内置', '組み込み'],
  'Protocol': ['协议', 'プロトコル'],
  'Tags': ['标签', 'タグ'],
  'Icon': ['图标', 'アイコン'],
  'Readme': ['说明', '説明'],
})

/** A refusal: 400 `{error}` in JumpServer's shape. */
class PackageError extends Error {
  constructor(readonly text: string, readonly vars: Record<string, string | number> = {}) { super(text) }
}

export interface AppletPackage {
  manifest: { name: string; display_name: string; version: string; author: string; type: string; protocols: string[]; tags: string[]; comment: string }
  icon: Buffer
  readme: string
}

/** The `{{ 'Key' | trans }}` strings of JumpServer manifests, resolved through their `i18n` section (English). */
function resolveI18n(value: unknown, i18n: unknown): unknown {
  if (typeof value !== 'string') return value
  const m = /^\{\{\s*'([^']*)'\s*\|\s*trans\s*\}\}$/.exec(value.trim())
  if (!m) return value
  const entry = i18n && typeof i18n === 'object' ? (i18n as Values)[m[1]!] : undefined
  const en = entry && typeof entry === 'object' ? (entry as Values).en : undefined
  return typeof en === 'string' ? en : m[1]
}

function text(manifest: Values, field: string, max: number, fallback = ''): string {
  const v = resolveI18n(manifest[field], manifest.i18n)
  if (v === undefined || v === null) return fallback
  if (typeof v !== 'string' && typeof v !== 'number') throw new PackageError(APPLET_MESSAGES.badField, { field, reason: 'not a text' })
  const s = String(v)
  if (s.length > max) throw new PackageError(APPLET_MESSAGES.badField, { field, reason: `longer than ${max}` })
  return s
}

function strings(manifest: Values, field: string): string[] {
  const v = manifest[field]
  if (v === undefined || v === null) return []
  if (!Array.isArray(v) || v.length > 50 || v.some((x) => typeof x !== 'string' || x.length > 64)) {
    throw new PackageError(APPLET_MESSAGES.badField, { field, reason: 'not a list of short texts' })
  }
  return v as string[]
}

async function readEntry(entry: FileEntry, name: string, max: number): Promise<Buffer> {
  if (entry.uncompressedSize > max) throw new PackageError(APPLET_MESSAGES.fileTooLarge, { name, max: Math.round(max / 1024) })
  try {
    return Buffer.from(await entry.getData(new Uint8ArrayWriter()))
  } catch {
    throw new PackageError(APPLET_MESSAGES.invalidZip)
  }
}

/** Checks a package and reads what the applet keeps; throws `PackageError` with the reason. Pure: writes nothing. */
export async function readAppletPackage(zip: Uint8Array): Promise<AppletPackage> {
  let entries: Entry[]
  const reader = new ZipReader(new Uint8ArrayReader(zip))
  try {
    entries = await reader.getEntries()
  } catch {
    throw new PackageError(APPLET_MESSAGES.invalidZip)
  }
  if (entries.length > APPLET_LIMITS.entries) throw new PackageError(APPLET_MESSAGES.tooMany, { max: APPLET_LIMITS.entries })
  const unpacked = entries.reduce((n, e) => n + (e.directory ? 0 : e.uncompressedSize), 0)
  if (unpacked > APPLET_LIMITS.unpacked) throw new PackageError(APPLET_MESSAGES.unpackedTooLarge, { max: APPLET_LIMITS.unpacked / 1024 / 1024 })
  const files = new Map<string, FileEntry>()
  for (const e of entries) if (!e.directory && !e.encrypted) files.set(e.filename.replace(/\\/g, '/'), e as FileEntry)
  // The package's files at the root, or in its one top folder (`<name>/manifest.yml`, as JumpServer zips them).
  let prefix = ''
  if (!files.has('manifest.yml')) {
    const tops = new Set([...files.keys()].map((f) => f.split('/')[0]))
    const top = tops.size === 1 ? [...tops][0]! : ''
    if (top && files.has(`${top}/manifest.yml`)) prefix = `${top}/`
  }
  for (const name of REQUIRED_FILES) if (!files.has(prefix + name)) throw new PackageError(APPLET_MESSAGES.missing, { name })
  const icon = await readEntry(files.get(prefix + 'icon.png')!, 'icon.png', APPLET_LIMITS.icon)
  if (icon.length < PNG.length || !icon.subarray(0, PNG.length).equals(PNG)) throw new PackageError(APPLET_MESSAGES.notPng)
  const rawManifest = (await readEntry(files.get(prefix + 'manifest.yml')!, 'manifest.yml', 64 * 1024)).toString('utf8')
  const readmeEntry = files.get(prefix + 'README.md')
  const readme = readmeEntry ? (await readEntry(readmeEntry, 'README.md', APPLET_LIMITS.file)).toString('utf8') : ''
  await reader.close().catch(() => undefined)

  let manifest: unknown
  try {
    manifest = parseYaml(rawManifest, { maxAliasCount: 10, schema: 'core' })
  } catch (e) {
    throw new PackageError(APPLET_MESSAGES.badManifest, { error: (e as Error).message.split('\n')[0]!.slice(0, 200) })
  }
  if (!manifest || typeof manifest !== 'object' || Array.isArray(manifest)) throw new PackageError(APPLET_MESSAGES.notMapping)
  const m = manifest as Values
  const name = text(m, 'name', 1000)
  if (!name) throw new PackageError(APPLET_MESSAGES.missingName)
  if (!SLUG.test(name)) throw new PackageError(APPLET_MESSAGES.badName)
  const type = text(m, 'type', 16, 'general')
  if (type !== 'general' && type !== 'web') throw new PackageError(APPLET_MESSAGES.badField, { field: 'type', reason: `"${type}" is not general or web` })
  return {
    manifest: {
      name, type,
      display_name: text(m, 'display_name', 128, name) || name,
      version: text(m, 'version', 16),
      author: text(m, 'author', 128),
      comment: text(m, 'comment', 1024),
      protocols: strings(m, 'protocols'),
      tags: strings(m, 'tags'),
    },
    icon,
    readme,
  }
}

async function upload(req: FastifyRequest, reply: FastifyReply, api: ResourceApi<RowOf<'applets'>>): Promise<unknown> {
  const lang = req.ctx.lang
  const refuse = (e: PackageError) => reply.status(400).send({ error: tr(lang, e.text, e.vars) })
  requireUser(req)
  if (!req.isMultipart()) return refuse(new PackageError(APPLET_MESSAGES.fileRequired))
  let data: Buffer
  try {
    const file = await req.file({ limits: { fileSize: APPLET_LIMITS.upload } })
    if (!file || file.fieldname !== 'file') return refuse(new PackageError(APPLET_MESSAGES.fileRequired))
    data = await file.toBuffer()
  } catch {
    return refuse(new PackageError(APPLET_MESSAGES.tooLarge, { max: APPLET_LIMITS.upload / 1024 / 1024 }))
  }
  let pkg: AppletPackage
  try {
    pkg = await readAppletPackage(data)
  } catch (e) {
    if (e instanceof PackageError) return refuse(e)
    throw e
  }
  const { manifest: m } = pkg
  const update = ['1', 'true', 'True'].includes(String((req.query as Values).update ?? ''))
  const user = requireUser(req)
  const by = `${user.name}(${user.username})`
  const id = await req.ctx.db.transaction().execute(async (tx) => {
    const existing = await tx.selectFrom('applets').select('id').where('name', '=', m.name).forUpdate().executeTakeFirst()
    if (existing && !update) return undefined
    const values = {
      display_name: m.display_name, version: m.version, author: m.author, type: m.type,
      protocols: JSON.stringify(m.protocols), tags: JSON.stringify(m.tags), comment: m.comment,
      readme: pkg.readme, icon: pkg.icon, manifest: JSON.stringify(m), updated_by: by,
    }
    let id: string
    if (existing) {
      id = existing.id
      await tx.updateTable('applets').set({ ...values, date_updated: sql`now()` }).where('id', '=', id).execute()
    } else {
      id = randomUUID()
      await tx.insertInto('applets').values({ id, name: m.name, ...values, created_by: by }).execute()
    }
    const [row] = await api.serialize(req, [{ id, name: m.name }], { db: tx, only: ['id', 'name'] })
    await api.audit(tx, req, existing ? 'update' : 'create', { ...row, id, name: m.name })
    return id
  })
  if (!id) return refuse(new PackageError(APPLET_MESSAGES.exists, { name: m.name }))
  const [row] = await api.serialize(req, [await api.getObject(req, id)])
  return reply.status(201).send(row)
}

const uploadAction: ActionDef = { path: 'upload', detail: false, method: 'POST', perm: 'terminal.add_applet', systemPerm: true, handler: upload }

const fields: FieldDef[] = [
  idField(),
  { name: 'name', type: 'string', label: 'Name', read_only: true },
  { name: 'display_name', type: 'string', label: 'Display name', max_length: 128, required: false },
  { name: 'is_active', type: 'boolean', label: 'Is active', default: true },
  { name: 'version', type: 'string', label: 'Version', read_only: true },
  { name: 'author', type: 'string', label: 'Author', read_only: true },
  { name: 'type', type: 'labeled_choice', label: 'Type', read_only: true, choices: [{ value: 'general', label: 'General' }, { value: 'web', label: 'Web' }] },
  { name: 'builtin', type: 'boolean', label: 'Builtin', read_only: true },
  { name: 'protocols', type: 'list', label: 'Protocol', read_only: true },
  { name: 'tags', type: 'list', label: 'Tags', read_only: true },
  commentField,
  // JumpServer answers a media URL; the icon lives in the row here, so it is answered as a data URL.
  { name: 'icon', type: 'string', label: 'Icon', read_only: true, column: 'icon',
    get: (row) => (row.icon ? `data:image/png;base64,${Buffer.from(row.icon as Uint8Array).toString('base64')}` : null) },
  { name: 'readme', type: 'text', label: 'Readme', read_only: true },
  createdBy, updatedBy, dateCreated, dateUpdated,
]

export const applets: ResourceDef<'applets'> = {
  name: 'terminal.applet',
  app: 'terminal',
  model: 'applet',
  verboseName: 'Applet',
  path: '/api/v1/terminal/applets/',
  table: 'applets',
  systemPerms: true,
  verbs: ['list', 'retrieve', 'update', 'destroy', 'bulk_destroy', 'export'],
  refusals: { create: 'Upload an applet package (zip) to /api/v1/terminal/applets/upload/' },
  fields,
  search: ['name', 'display_name', 'author'],
  filters: ['name', 'version', 'builtin', 'is_active'],
  ordering: { fields: ['name', 'display_name', 'version', 'date_created'], default: ['name'] },
  sizes: { mini: ['id', 'name', 'display_name', 'is_active'] },
  unexport: ['icon', 'readme'],
  actions: [uploadAction],
}

addMessages({
  'Upload an applet package (zip) to /api/v1/terminal/applets/upload/': [
    '请上传应用包 (zip) 到 /api/v1/terminal/applets/upload/', 'アプリパッケージ (zip) を /api/v1/terminal/applets/upload/ にアップロードしてください'],
})
