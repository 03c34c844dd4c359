/**
 * The web file manager's HTTP API (issue 31; docs/terminal.md "Files"): the same tree, rules and FTP logs as the
 * SFTP subsystem (files.ts), for a signed-in user holding `rbac.view_filemanager`. Paths are the tree's
 * (`/<organization>/<asset>/<account>/<host path>`).
 *
 * - `GET  /api/v1/terminal/file-manager/?path=` → `{path, level, entries: [{name, type, size, mtime, mode}],
 *   truncated, actions: {upload, download, delete} | null, upload_max}` (actions: the account's, under an account)
 * - `GET  …/download/?path=` → the file, streamed (Content-Disposition attachment)
 * - `POST …/upload/?path=<folder>` multipart with one `file` part, streamed to the host; at most FTP_FILE_MAX_STORE
 *   MB (default 100): a bigger file is refused with 413 and what was written of it is removed → 201 `{path, size}`
 * - `POST …/mkdir/ {path}`, `POST …/rename/ {path, to}`, `POST …/delete/ {path}` (a folder must be empty) → 200
 *
 * Refusals: 400 with field errors (bad input), 403 (the action is not granted: logged as a failed operation), 404
 * (not in the user's tree), 413 (too large), 400 `host_error` (the host refused or cannot be reached). One
 * FileSpace (with its host connections) per user and address, closed after IDLE_MS without a request.
 */
import { Readable } from 'node:stream'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { ApiError } from '../http/errors.ts'
import { requirePerm, requireUser } from '../http/context.ts'
import { tr } from '../i18n.ts'
import { ACTION_BITS } from '../resources/perms/permissions.ts'
import { getSetting } from '../settings/store.ts'
import { FileError, FileSpace, normalize, STATUS, type Transfer } from './files.ts'
import type { TerminalManager } from './session.ts'

export const FILE_MANAGER_URL = '/api/v1/terminal/file-manager/'
const IDLE_MS = 60_000
const CHUNK = 64 * 1024
/** JumpServer's FTP_FILE_MAX_STORE default (MB). */
export const DEFAULT_UPLOAD_MAX_MB = 100

export async function uploadMaxBytes(app: FastifyInstance): Promise<number> {
  const mb = Number(await getSetting(app.services.database.db, 'FTP_FILE_MAX_STORE'))
  return (Number.isFinite(mb) && mb > 0 ? mb : DEFAULT_UPLOAD_MAX_MB) * 1024 * 1024
}

function httpError(lang: string, e: unknown): ApiError {
  if (!(e instanceof FileError)) return e as ApiError
  if (e.status === STATUS.NO_SUCH_FILE) return new ApiError(404, { detail: e.message, code: 'not_found' })
  if (e.status === STATUS.PERMISSION_DENIED) return new ApiError(403, { detail: e.message, code: 'permission_denied' })
  if (e.status === STATUS.OP_UNSUPPORTED) return new ApiError(400, { detail: e.message, code: 'unsupported' })
  return new ApiError(400, { detail: tr(lang as 'en', 'The host refused the operation: {reason}', { reason: e.message }), code: 'host_error' })
}

function field(body: unknown, name: string, lang: string): string {
  const v = (body as Record<string, unknown> | undefined)?.[name]
  if (typeof v !== 'string' || !v.trim() || !normalize(v)) throw new ApiError(400, { [name]: [tr(lang as 'en', 'Invalid path.')] })
  return v
}

export function registerFileManager(app: FastifyInstance, manager: TerminalManager): void {
  const spaces = new Map<string, { space: FileSpace; used: number }>()
  const sweep = setInterval(() => {
    const now = Date.now()
    for (const [k, v] of spaces) if (now - v.used > IDLE_MS) {
      spaces.delete(k)
      v.space.close()
    }
  }, 15_000)
  sweep.unref()
  app.addHook('onClose', async () => {
    clearInterval(sweep)
    for (const v of spaces.values()) v.space.close()
    spaces.clear()
  })

  async function spaceOf(req: FastifyRequest): Promise<FileSpace> {
    await requirePerm(req, 'rbac.view_filemanager')
    const user = requireUser(req)
    const key = `${user.id}|${req.ip}|${req.ctx.lang}`
    let s = spaces.get(key)
    if (!s) {
      // each host connection is a session of the audit (protocol sftp, from the web); terminating one closes the space
      const space: FileSpace = new FileSpace(app.services.database.db, { id: user.id, username: user.username, name: user.name }, {
        remoteAddr: req.ip, lang: req.ctx.lang, tz: app.services.config.timeZone,
        sessions: { manager, loginFrom: 'WT', onTerminated: () => {
          if (spaces.get(key)?.space === space) spaces.delete(key)
          space.close()
        } },
      })
      s = { space, used: 0 }
      spaces.set(key, s)
    }
    s.used = Date.now()
    return s.space
  }

  const route = (method: 'GET' | 'POST', suffix: string, handler: (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>) => {
    for (const url of [`${FILE_MANAGER_URL}${suffix}`, `${FILE_MANAGER_URL}${suffix}`.replace(/\/$/, '')]) {
      app.route({ method, url, handler: async (req, reply) => {
        try {
          return await handler(req, reply)
        } catch (e) {
          throw httpError(req.ctx.lang, e)
        }
      } })
    }
  }
  const query = (req: FastifyRequest, name: string) => {
    const v = (req.query as Record<string, unknown>)[name]
    return typeof v === 'string' ? v : ''
  }

  route('GET', '', async (req) => {
    const space = await spaceOf(req)
    const raw = query(req, 'path') || '/'
    if (!normalize(raw)) throw new ApiError(400, { path: [tr(req.ctx.lang, 'Invalid path.')] })
    const place = await space.resolve(raw)
    const upload_max = await uploadMaxBytes(app)
    if (place.level !== 'remote') {
      const names = await space.virtualEntries(place)
      return { path: place.path, level: place.level, entries: names.map((name) => ({ name, type: 'dir', size: 0, mtime: 0, mode: 0o555 })), truncated: false, actions: null, upload_max }
    }
    const { entries, truncated } = await space.list(place)
    entries.sort((a, b) => Number(b.type === 'dir') - Number(a.type === 'dir') || a.name.localeCompare(b.name))
    const bits = place.account.actions
    return {
      path: place.path, level: place.level, entries, truncated, upload_max,
      actions: { upload: (bits & ACTION_BITS.upload!) !== 0, download: (bits & ACTION_BITS.download!) !== 0, delete: (bits & ACTION_BITS.delete!) !== 0 },
    }
  })

  route('GET', 'download/', async (req, reply) => {
    const space = await spaceOf(req)
    const raw = query(req, 'path')
    if (!raw || !normalize(raw)) throw new ApiError(400, { path: [tr(req.ctx.lang, 'Invalid path.')] })
    const t = await space.open(raw, 'read')
    let size: number
    try {
      const st = await new Promise<{ size?: number; mode: number }>((resolve, reject) => t.sftp.fstat(t.handle, (err, a) => (err ? reject(err) : resolve(a))))
      if ((st.mode & 0o170000) === 0o040000) throw new FileError(STATUS.OP_UNSUPPORTED, tr(req.ctx.lang, 'Invalid path.'))
      size = Number(st.size ?? -1)
    } catch (e) {
      await t.close(false).catch(() => undefined)
      throw e
    }
    const name = t.place.remote.split('/').pop() || 'download'
    reply.header('Content-Type', 'application/octet-stream')
    if (size >= 0) reply.header('Content-Length', String(size))
    reply.header('Content-Disposition', `attachment; filename="${name.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`)
    reply.header('Cache-Control', 'private, no-store')
    return reply.send(readStream(t, size))
  })

  route('POST', 'upload/', async (req, reply) => {
    const space = await spaceOf(req)
    const lang = req.ctx.lang
    const dir = query(req, 'path')
    if (!dir || !normalize(dir)) throw new ApiError(400, { path: [tr(lang, 'Invalid path.')] })
    // permission and size before the body is read
    const folder = await space.remote(dir)
    await space.require(folder, 'upload', 'upload')
    const max = await uploadMaxBytes(app)
    const tooLarge = () => new ApiError(413, { detail: tr(lang, 'The file is larger than the upload limit of {size} MB.', { size: Math.round(max / 1048576) }), code: 'too_large' })
    if (Number(req.headers['content-length'] ?? 0) > max + 64 * 1024) throw tooLarge()
    if (!req.isMultipart()) throw new ApiError(400, { file: [tr(lang, 'The upload has no file.')] })
    const part = await req.file({ limits: { fileSize: max, files: 1 } })
    if (!part) throw new ApiError(400, { file: [tr(lang, 'The upload has no file.')] })
    const name = part.filename
    if (!name || name.includes('/') || name === '.' || name === '..' || name.includes('\0')) {
      part.file.resume()
      throw new ApiError(400, { file: [tr(lang, 'The name must not be empty or contain "/".')] })
    }
    const target = `${folder.path}/${name}`
    const t = await space.open(target, 'write').catch((e: unknown) => {
      part.file.resume()
      throw e
    })
    let position = 0
    let ok = false
    try {
      for await (const chunk of part.file as AsyncIterable<Buffer>) {
        await t.write(chunk, position, true)
        position += chunk.length
      }
      ok = !part.file.truncated
    } finally {
      if (!ok) part.file.resume()
      await t.close(ok)
      if (!ok) await new Promise<void>((resolve) => t.sftp.unlink(t.place.remote, () => resolve()))
    }
    if (part.file.truncated) throw tooLarge()
    return reply.code(201).send({ path: target, size: position })
  })

  route('POST', 'mkdir/', async (req) => {
    const space = await spaceOf(req)
    await space.mkdir(field(req.body, 'path', req.ctx.lang))
    return { ok: true }
  })

  route('POST', 'rename/', async (req) => {
    const space = await spaceOf(req)
    const from = field(req.body, 'path', req.ctx.lang)
    const to = field(req.body, 'to', req.ctx.lang)
    await space.rename(from, to)
    return { ok: true }
  })

  route('POST', 'delete/', async (req) => {
    const space = await spaceOf(req)
    const path = field(req.body, 'path', req.ctx.lang)
    const st = await space.stat(path, false)
    if ((st.mode & 0o170000) === 0o040000) await space.rmdir(path)
    else await space.remove(path)
    return { ok: true }
  })
}

/** The host's file as a stream: sequential reads of CHUNK bytes, pulled as the client takes them. */
function readStream(t: Transfer, size: number): Readable {
  let position = 0
  return new Readable({
    highWaterMark: CHUNK * 4,
    read() {
      const buf = Buffer.allocUnsafe(CHUNK)
      t.read(buf, position, true).then((n) => {
        if (n === 0) {
          this.push(null)
          return
        }
        position += n
        this.push(buf.subarray(0, n))
      }, (e: unknown) => this.destroy(e as Error))
    },
    destroy(err, cb) {
      // complete when every byte was read (or the size was unknown and the end was reached)
      const whole = !err && (size < 0 ? this.readableEnded : position >= size)
      t.close(whole).then(() => cb(err), () => cb(err))
    },
  })
}
