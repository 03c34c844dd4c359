/**
 * Playbooks and adhoc templates (JumpServer 3.2's `ops.Playbook`, `ops.AdHoc`; docs/jobs.md). A playbook is a
 * folder `DATA_DIR/ops/playbook/<id>/` whose `main.yml` is run; it is created empty (a `main.yml` placeholder) or
 * from an uploaded zip (bounded: upload size, entry count, inflated bytes; names checked so nothing lands outside
 * the folder), then browsed and edited through `playbook/<id>/file/` (lina's Workspace calls). Both are the
 * creator's own, as in JumpServer.
 */
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join, posix, relative, resolve, sep } from 'node:path'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import { isUuid, normUuid } from '../engine/parse.ts'
import { UploadTooLarge, zipEntries } from '../engine/files.ts'
import type { ResourceApi, ResourceDef } from '../engine/types.ts'
import type { Values } from '../http/body.ts'
import { requirePerm, requireUser } from '../http/context.ts'
import { detailError, notFound, validationError } from '../http/errors.ts'
import { addMessages, tr } from '../i18n.ts'
import { commentField, createdBy, dateCreated, dateUpdated, idField, nameField } from '../resources/common.ts'

/** Bounds of an uploaded playbook (the xlsx import's way: the zip's size, then entries and inflated bytes). */
export const PLAYBOOK_LIMITS = { upload: 5 * 1024 * 1024, entries: 500, unzipped: 20 * 1024 * 1024, file: 1024 * 1024, pathChars: 255, depth: 10 }

/** JumpServer 3.2's dangerous keywords (ops/models/playbook.py), compared on a line with its spaces removed. */
export const DANGEROUS_KEYWORDS = ['delegate_to:localhost', 'delegate_to:127.0.0.1', 'local_action', 'connection:local']
/**
 * Ours besides: files and folders Ansible loads next to a playbook and runs on the server itself (plugins,
 * modules, a configuration), refused in an upload and in the editor.
 */
export const FORBIDDEN_NAMES = /^(ansible\.cfg|library|module_utils|plugins|collections|[a-z]+_plugins)$/i

export const playbookSettings = { dataDir: './data' }

export const playbookDir = (id: string) => join(resolve(playbookSettings.dataDir), 'ops', 'playbook', id)

const M = {
  unsafePath: 'The path "{name}" is not allowed in a playbook.',
  tooMany: 'The archive has more than {n} files.',
  noMain: 'The playbook has no main.yml at its top.',
  invalidZip: 'Invalid zip file',
  fileRequired: 'Upload a zip file in the field "path".',
  tooLarge: 'The file is larger than {n} MB.',
  protected: '{name} cannot be renamed or deleted.',
  exists: '{name} already exists.',
  notFound: 'No such file.',
  notText: 'Unsupported file content',
  inUse: 'Currently playbook is being used in a job',
  keyRequired: 'key is required',
}
addMessages({
  [M.unsafePath]: ['路径「{name}」不允许出现在 Playbook 中。', 'パス「{name}」は Playbook に含められません。'],
  [M.tooMany]: ['压缩包中的文件超过 {n} 个。', 'アーカイブのファイルが {n} 個を超えています。'],
  [M.noMain]: ['Playbook 顶层没有 main.yml。', 'Playbook の最上位に main.yml がありません。'],
  [M.invalidZip]: ['无效的 zip 文件', '無効な zip ファイル'],
  [M.fileRequired]: ['请在字段 "path" 中上传 zip 文件。', 'フィールド "path" に zip ファイルをアップロードしてください。'],
  [M.tooLarge]: ['文件超过 {n} MB。', 'ファイルが {n} MB を超えています。'],
  [M.protected]: ['{name} 不能重命名或删除。', '{name} は名前の変更や削除ができません。'],
  [M.exists]: ['{name} 已存在。', '{name} はすでに存在します。'],
  [M.notFound]: ['文件不存在。', 'ファイルがありません。'],
  [M.notText]: ['不支持的文件内容', 'サポートされていないファイル内容'],
  [M.inUse]: ['当前 Playbook 正在被作业使用', 'この Playbook はジョブで使用中です'],
  [M.keyRequired]: ['key 是必填项', 'key は必須です'],
  'Playbook template': ['Playbook 模板', 'Playbook テンプレート'],
  Templates: ['模板管理', 'テンプレート'],
  'Command template': ['命令模板', 'コマンドテンプレート'],
  Module: ['模块', 'モジュール'],
  Args: ['参数', '引数'],
  'Create method': ['创建方式', '作成方法'],
  Blank: ['空白', '空白'],
  Upload: ['上传', 'アップロード'],
  'VCS URL': ['VCS 地址', 'VCS URL'],
})

/**
 * A relative path inside a playbook, or undefined when it is unsafe: absolute, `..`, a backslash or NUL, too deep
 * or too long, a hidden or forbidden part. Keys of lina's tree are such paths (the root is `root`).
 */
export function safeRelative(name: string): string | undefined {
  if (!name || name.length > PLAYBOOK_LIMITS.pathChars || name.includes('\\') || name.includes('\0') || name.startsWith('/')) return undefined
  const parts = name.replace(/\/+$/, '').split('/')
  if (parts.length > PLAYBOOK_LIMITS.depth) return undefined
  for (const p of parts) {
    if (!p || p === '.' || p === '..' || p.startsWith('.') || FORBIDDEN_NAMES.test(p) || [...p].some((c) => c.charCodeAt(0) < 32)) return undefined
  }
  return parts.join('/')
}

/** The zip's files, checked and bounded; their common top folder (`name/main.yml`) is taken off. */
export function readPlaybookZip(buf: Buffer): Array<{ name: string; data: Buffer }> {
  let entries: Array<{ name: string; data: Buffer }>
  try {
    // The directory's entry count is read before anything is inflated.
    const eocd = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]))
    if (eocd >= 0 && eocd + 12 <= buf.length && buf.readUInt16LE(eocd + 10) > PLAYBOOK_LIMITS.entries) throw new PlaybookError(M.tooMany, { n: PLAYBOOK_LIMITS.entries })
    entries = zipEntries(buf, PLAYBOOK_LIMITS.unzipped)
  } catch (e) {
    if (e instanceof PlaybookError) throw e
    if (e instanceof UploadTooLarge) throw new PlaybookError(e.text, e.vars)
    throw new PlaybookError(M.invalidZip)
  }
  if (entries.length > PLAYBOOK_LIMITS.entries) throw new PlaybookError(M.tooMany, { n: PLAYBOOK_LIMITS.entries })
  // macOS' resource forks are left out, as unzip users expect.
  entries = entries.filter((e) => !e.name.startsWith('__MACOSX/'))
  const tops = new Set(entries.map((e) => e.name.split('/')[0]))
  const strip = tops.size === 1 && entries.every((e) => e.name.includes('/')) && !entries.some((e) => e.name === 'main.yml') ? `${[...tops][0]}/` : ''
  const out: Array<{ name: string; data: Buffer }> = []
  for (const e of entries) {
    const rel = safeRelative(e.name.slice(strip.length))
    if (!rel || posix.normalize(e.name) !== e.name.replace(/\/+$/, '')) throw new PlaybookError(M.unsafePath, { name: e.name.slice(0, 200) })
    out.push({ name: rel, data: e.data })
  }
  if (!out.some((e) => e.name === 'main.yml' || e.name === 'main.yaml')) throw new PlaybookError(M.noMain)
  return out
}

export class PlaybookError extends Error {
  constructor(readonly text: string, readonly vars: Record<string, string | number> = {}) { super(text) }
}

/** Writes the checked files into a new folder; a folder that could not be filled is removed. */
function writeTree(dir: string, files: Array<{ name: string; data: Buffer }>) {
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  try {
    for (const f of files) {
      const path = inside(dir, f.name)
      mkdirSync(join(path, '..'), { recursive: true, mode: 0o700 })
      writeFileSync(path, f.data, { mode: 0o600, flag: 'wx' })
    }
  } catch (e) {
    rmSync(dir, { recursive: true, force: true })
    throw e
  }
}

/** The absolute path of a checked relative path, refused unless it is inside the folder. */
function inside(dir: string, rel: string): string {
  const path = resolve(dir, rel)
  if (path !== dir && !path.startsWith(dir + sep)) throw new PlaybookError(M.unsafePath, { name: rel })
  return path
}

/** JumpServer's dangerous keywords in a playbook's YAML files: `[{file, line, keyword}]`. */
export function dangerousKeywords(dir: string): Array<{ file: string; line: number; keyword: string }> {
  const found: Array<{ file: string; line: number; keyword: string }> = []
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const path = join(d, name)
      const st = lstatSync(path)
      const rel = relative(dir, path).split(sep).join('/')
      if (st.isSymbolicLink() || FORBIDDEN_NAMES.test(name)) found.push({ file: rel, line: 0, keyword: name })
      else if (st.isDirectory()) walk(path)
      else if (/\.ya?ml$/i.test(name) || name === 'main') {
        readFileSync(path, 'utf8').split('\n').forEach((line, i) => {
          const flat = line.replace(/[\s'"]/g, '').toLowerCase()
          for (const k of DANGEROUS_KEYWORDS) if (flat.includes(k)) found.push({ file: rel, line: i + 1, keyword: k })
        })
      }
    }
  }
  if (existsSync(dir)) walk(dir)
  return found
}

// ------------------------------------------------------------------------------------------------ resources

const own = (ctx: { user?: { id: string } | null }) => (ctx.user ? sql`t.creator_id = ${ctx.user.id}` : sql`false`)
const creatorColumns = (_values: Values, ctx: { user?: { id: string } | null }, info: { op: string }) =>
  info.op === 'create' && ctx.user ? { creator_id: ctx.user.id } : {}

/** Workbench → Templates → Commands (`/api/v1/ops/adhocs/`). */
export const adhocs: ResourceDef<'ops_adhocs'> = {
  name: 'ops.adhoc', app: 'ops', model: 'adhoc', verboseName: 'Command template', title: 'Templates',
  path: '/api/v1/ops/adhocs/', table: 'ops_adhocs', orgScoped: true, ownObjects: true, scope: own,
  fields: [
    idField(), nameField(),
    { name: 'module', type: 'choice', label: 'Module', default: 'shell', choices: [{ value: 'shell', label: 'Shell' }] },
    { name: 'args', type: 'text', label: 'Args', required: true, max_length: 8192 },
    commentField, createdBy, dateCreated, dateUpdated,
  ],
  search: ['name', 'args'], filters: ['id', 'name', 'module'],
  ordering: { fields: ['name', 'date_created', 'date_updated'], default: ['-date_updated'] },
  hooks: { columns: creatorColumns },
}

/** Workbench → Templates → Playbooks (`/api/v1/ops/playbooks/`): created empty, or from a zip (multipart). */
export const playbooks: ResourceDef<'ops_playbooks'> = {
  name: 'ops.playbook', app: 'ops', model: 'playbook', verboseName: 'Playbook template', title: 'Templates',
  path: '/api/v1/ops/playbooks/', table: 'ops_playbooks', orgScoped: true, ownObjects: true, scope: own,
  fields: [
    idField(), nameField(),
    { name: 'create_method', type: 'choice', label: 'Create method', default: 'blank', read_only: true, choices: [{ value: 'blank', label: 'Blank' }, { value: 'upload', label: 'Upload' }] },
    commentField, createdBy, dateCreated, dateUpdated,
  ],
  search: ['name', 'comment'], filters: ['id', 'name'],
  ordering: { fields: ['name', 'date_created', 'date_updated'], default: ['-date_updated'] },
  hooks: {
    columns: creatorColumns,
    create: createPlaybook,
    async beforeDelete(tx, row, ctx) {
      const used = await tx.selectFrom('ops_jobs').select('id').where('playbook_id', '=', String(row.id)).limit(1).executeTakeFirst()
      if (used) throw detailError(400, tr(ctx.lang, M.inUse), 'playbook_has_job')
    },
    async destroy(tx, row) {
      await tx.deleteFrom('ops_playbooks').where('id', '=', String(row.id)).execute()
      rmSync(playbookDir(String(row.id)), { recursive: true, force: true })
    },
  },
}

/** `POST /api/v1/ops/playbooks/`: JSON `{name, comment}` makes an empty playbook; multipart `path` a zip's. */
async function createPlaybook(req: FastifyRequest, reply: FastifyReply, api: ResourceApi): Promise<unknown> {
  const lang = req.ctx.lang
  let name = ''
  let comment = ''
  let files: Array<{ name: string; data: Buffer }> = [{ name: 'main.yml', data: Buffer.from('## write your playbook here\n') }]
  let method = 'blank'
  let fields: Record<string, unknown> | undefined
  if (req.isMultipart()) {
    let zip: Buffer | undefined
    let fileName = ''
    try {
      for await (const part of req.parts({ limits: { fileSize: PLAYBOOK_LIMITS.upload, files: 1, fields: 10, fieldSize: 4096 } })) {
        if (part.type === 'file') {
          fileName = part.filename ?? ''
          zip = await part.toBuffer()
        } else if (part.fieldname === 'name') name = String(part.value ?? '')
        else if (part.fieldname === 'comment') comment = String(part.value ?? '')
      }
    } catch (e) {
      const code = (e as { code?: string }).code
      if (code === 'FST_REQ_FILE_TOO_LARGE') throw validationError({ path: [tr(lang, M.tooLarge, { n: PLAYBOOK_LIMITS.upload / 1024 / 1024 })] })
      throw e
    }
    if (!zip) throw validationError({ path: [tr(lang, M.fileRequired)] })
    try {
      files = readPlaybookZip(zip)
    } catch (e) {
      if (e instanceof PlaybookError) throw validationError({ path: [tr(lang, e.text, e.vars)] })
      throw e
    }
    if (!name) name = fileName.replace(/\.zip$/i, '').replace(/^.*[\\/]/, '')
    method = 'upload'
  } else {
    const body = (req.body && typeof req.body === 'object' ? req.body : {}) as Record<string, unknown>
    // The engine checks the values as sent (types included).
    fields = { ...body }
  }
  // The engine's create checks the name and comment (400 field errors) and stores the row; the folder follows.
  const row = await api.create(req, fields ?? { name: name.trim(), comment })
  const id = String(row.id)
  try {
    writeTree(playbookDir(id), files)
    if (method === 'upload') await req.ctx.db.updateTable('ops_playbooks').set({ create_method: method }).where('id', '=', id).execute()
  } catch (e) {
    await req.ctx.db.deleteFrom('ops_playbooks').where('id', '=', id).execute()
    throw e
  }
  reply.code(201)
  const [out] = await api.serialize(req, [await api.getObject(req, id)])
  return out
}

// ------------------------------------------------------------------------------------------ the file browser

interface TreeNode { name: string; title: string; id: string; pId: string; isParent: boolean; open: boolean; temp: boolean; iconSkin?: string }

function tree(name: string, dir: string): TreeNode[] {
  const nodes: TreeNode[] = [{ name, title: name, id: 'root', pId: '', isParent: true, open: true, temp: false }]
  const walk = (d: string, parent: string) => {
    const all = readdirSync(d, { withFileTypes: true })
    const dirs = all.filter((e) => e.isDirectory()).map((e) => e.name).sort()
    const files = all.filter((e) => e.isFile()).map((e) => e.name).sort()
    for (const n of dirs) {
      const id = parent === 'root' ? n : `${parent}/${n}`
      nodes.push({ name: n, title: n, id, pId: parent, isParent: true, open: true, temp: false })
      walk(join(d, n), id)
    }
    for (const n of files) nodes.push({ name: n, title: n, id: parent === 'root' ? n : `${parent}/${n}`, pId: parent, isParent: false, open: false, temp: false, iconSkin: 'file' })
  }
  if (existsSync(dir)) walk(dir, 'root')
  return nodes
}

const PROTECTED = ['root', 'main.yml']

/** lina's Workspace calls: `GET|POST|PATCH|DELETE /api/v1/ops/playbook/<id>/file/` (`ops.change_playbook`). */
export function registerPlaybookFiles(app: FastifyInstance): void {
  const ownPlaybook = async (req: FastifyRequest) => {
    await requirePerm(req, 'ops.change_playbook')
    const user = requireUser(req)
    const raw = (req.params as { id: string }).id
    if (!isUuid(raw)) throw notFound('Playbook')
    const p = await req.ctx.db.selectFrom('ops_playbooks').select(['id', 'name']).where('id', '=', normUuid(raw))
      .where('creator_id', '=', user.id).where('org_id', '=', req.ctx.orgId).executeTakeFirst()
    if (!p) throw notFound('Playbook')
    return { ...p, dir: playbookDir(p.id) }
  }
  const keyOf = (req: FastifyRequest, raw: unknown, allowRoot = false): string => {
    const key = typeof raw === 'string' ? raw.replace(/^root\//, '') : ''
    if (allowRoot && (key === 'root' || key === '')) return ''
    const rel = safeRelative(key)
    if (!rel) throw validationError({ key: [tr(req.ctx.lang, M.unsafePath, { name: key.slice(0, 200) })] })
    return rel
  }
  const touched = (req: FastifyRequest, id: string) => req.ctx.db.updateTable('ops_playbooks').set({ date_updated: new Date() }).where('id', '=', id).execute()

  app.get('/api/v1/ops/playbook/:id/file/', async (req) => {
    const p = await ownPlaybook(req)
    const q = req.query as { key?: string }
    if (!q.key) return tree(p.name, p.dir)
    const path = inside(p.dir, keyOf(req, q.key))
    if (!existsSync(path) || !statSync(path).isFile()) throw detailError(404, tr(req.ctx.lang, M.notFound), 'not_found')
    if (statSync(path).size > PLAYBOOK_LIMITS.file) return { content: tr(req.ctx.lang, M.notText) }
    const buf = readFileSync(path)
    const text = new TextDecoder('utf-8', { fatal: false }).decode(buf)
    return { content: buf.includes(0) || text.includes('\uFFFD') ? tr(req.ctx.lang, M.notText) : text }
  })

  app.post('/api/v1/ops/playbook/:id/file/', async (req) => {
    const p = await ownPlaybook(req)
    const body = (req.body ?? {}) as { key?: unknown; is_directory?: unknown; name?: unknown; content?: unknown }
    const parent = keyOf(req, body.key, true)
    const isDir = body.is_directory === true
    const content = typeof body.content === 'string' ? body.content : ''
    if (Buffer.byteLength(content) > PLAYBOOK_LIMITS.file) throw validationError({ content: [tr(req.ctx.lang, M.tooLarge, { n: 1 })] })
    const wanted = typeof body.name === 'string' && body.name ? body.name : isDir ? 'new_dir' : 'new_file.yml'
    if (wanted.includes('/') || !safeRelative(wanted)) throw validationError({ name: [tr(req.ctx.lang, M.unsafePath, { name: wanted.slice(0, 200) })] })
    const parentPath = inside(p.dir, parent || '.')
    if (!existsSync(parentPath) || !statSync(parentPath).isDirectory()) throw detailError(404, tr(req.ctx.lang, M.notFound), 'not_found')
    if (countFiles(p.dir) >= PLAYBOOK_LIMITS.entries) throw validationError({ name: [tr(req.ctx.lang, M.tooMany, { n: PLAYBOOK_LIMITS.entries })] })
    let name = wanted
    for (let n = 1; existsSync(join(parentPath, name)); n++) name = `${wanted}(${n})`
    const rel = parent ? `${parent}/${name}` : name
    if (!safeRelative(rel)) throw validationError({ name: [tr(req.ctx.lang, M.unsafePath, { name: rel })] })
    const path = inside(p.dir, rel)
    if (isDir) mkdirSync(path, { mode: 0o700 })
    else writeFileSync(path, content, { mode: 0o600, flag: 'wx' })
    await touched(req, p.id)
    const node: TreeNode = { name, title: name, id: rel, pId: parent || 'root', isParent: isDir, open: true, temp: false }
    if (!isDir) node.iconSkin = 'file'
    return node
  })

  app.patch('/api/v1/ops/playbook/:id/file/', async (req) => {
    const p = await ownPlaybook(req)
    const body = (req.body ?? {}) as { key?: unknown; new_name?: unknown; content?: unknown; is_directory?: unknown }
    const lang = req.ctx.lang
    const key = keyOf(req, body.key)
    const path = inside(p.dir, key)
    if (!existsSync(path)) throw detailError(404, tr(lang, M.notFound), 'not_found')
    if (typeof body.new_name === 'string' && body.new_name) {
      if (PROTECTED.includes(key)) throw detailError(400, tr(lang, M.protected, { name: key }), 'protected')
      const newName = body.new_name
      if (newName.includes('/') || !safeRelative(newName)) throw validationError({ new_name: [tr(lang, M.unsafePath, { name: newName.slice(0, 200) })] })
      const target = inside(p.dir, key.includes('/') ? `${key.slice(0, key.lastIndexOf('/'))}/${newName}` : newName)
      if (target === path) return {}
      if (existsSync(target)) throw validationError({ new_name: [tr(lang, M.exists, { name: newName })] })
      renameSync(path, target)
    } else {
      if (!statSync(path).isFile()) return {}
      const content = typeof body.content === 'string' ? body.content : ''
      if (Buffer.byteLength(content) > PLAYBOOK_LIMITS.file) throw validationError({ content: [tr(lang, M.tooLarge, { n: 1 })] })
      writeFileSync(path, content, { mode: 0o600 })
    }
    await touched(req, p.id)
    return {}
  })

  app.delete('/api/v1/ops/playbook/:id/file/', async (req) => {
    const p = await ownPlaybook(req)
    const raw = (req.query as { key?: string }).key
    if (!raw) throw detailError(400, tr(req.ctx.lang, M.keyRequired), 'invalid')
    const key = keyOf(req, raw)
    if (PROTECTED.includes(key)) throw detailError(400, tr(req.ctx.lang, M.protected, { name: key }), 'protected')
    const path = inside(p.dir, key)
    if (!existsSync(path)) throw detailError(404, tr(req.ctx.lang, M.notFound), 'not_found')
    rmSync(path, { recursive: true, force: true })
    await touched(req, p.id)
    return { msg: 'ok' }
  })
}

function countFiles(dir: string): number {
  let n = 0
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      n++
      if (e.isDirectory()) walk(join(d, e.name))
    }
  }
  walk(dir)
  return n
}
