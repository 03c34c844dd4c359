/**
 * The terminal component API (JumpServer apps/terminal, contract §1.8 and §5.8): registration with the
 * bootstrap token, heartbeats with status, tasks fetched with the heartbeat and acknowledged, the "kill
 * session" task, replay upload (gzip asciicast, bounded) and replay read/download. docs/terminal.md.
 */
import { randomUUID } from 'node:crypto'
import { createReadStream, createWriteStream } from 'node:fs'
import { mkdir, rename, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { gunzipSync, constants as zlibConstants } from 'node:zlib'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import type { DB, RowOf } from '../../db/connection.ts'
import type { ServerConfig } from '../../config.ts'
import { sealerFor } from '../../auth/otp-store.ts'
import { createAccessKey } from '../../auth/signature.ts'
import { recordOperate, resourceApi } from '../../engine/index.ts'
import type { ActionDef } from '../../engine/types.ts'
import type { Values } from '../../http/body.ts'
import { isUuid, normUuid } from '../../engine/parse.ts'
import { requirePerm, requireUser } from '../../http/context.ts'
import { ApiError, badRequest, notFound, permissionDenied } from '../../http/errors.ts'
import { formatDateTime } from '../../http/datetime.ts'
import { tr } from '../../i18n.ts'
import { ORG_IDS, ROLE_IDS } from '../../rbac/catalog.ts'
import { getSetting } from '../../settings/store.ts'
import { ALIVE_SECONDS, loadOf, sessions, terminals } from './resources.ts'
import { readRemoteReplay, REMOTE_KINDS } from './replay-remote.ts'

/** Tasks older than this are no longer handed out (JumpServer: 10 minutes). */
const TASK_WINDOW_MINUTES = 10

const fieldError = (field: string, message: string) => badRequest({ [field]: [message] })

/** The terminal of the request's user, or a 403: only a registered component may call this. */
async function componentTerminal(req: FastifyRequest): Promise<{ id: string; name: string }> {
  const user = requireUser(req)
  const r = await sql<{ id: string; name: string }>`select id, name from terminals where user_id = ${user.id} and not is_deleted`.execute(req.ctx.db)
  if (!r.rows[0]) throw permissionDenied(tr(req.ctx.lang, 'Only a terminal component may do this.'))
  return r.rows[0]
}

type TaskRow = Pick<RowOf<'terminal_tasks'>, 'id' | 'name' | 'args' | 'kwargs' | 'is_finished' | 'date_created'>

function taskView(row: TaskRow) {
  return { id: row.id, name: row.name, args: row.args, kwargs: row.kwargs ?? {}, is_finished: row.is_finished, date_created: row.date_created }
}

async function pendingTasks(req: FastifyRequest, terminalId: string) {
  const r = await sql<TaskRow>`select id, name, args, kwargs, is_finished, date_created from terminal_tasks
    where terminal_id = ${terminalId} and not is_finished and date_created > now() - make_interval(mins => ${TASK_WINDOW_MINUTES})
    order by date_created limit 100`.execute(req.ctx.db)
  return r.rows.map((row) => ({ ...taskView(row), date_created: formatDateTime(row.date_created, req.ctx.tz) }))
}

const num = (v: unknown, max: number) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= max ? v : undefined)

export function replayDir(dataDir: string): string {
  return join(dataDir, 'replays')
}

/** `POST /api/v1/terminal/terminals/status/`: a heartbeat; answers the component's pending tasks. */
const heartbeat: ActionDef = {
  path: 'status', detail: false, method: 'POST', perm: null,
  handler: async (req, reply) => {
    const terminal = await componentTerminal(req)
    const body = (req.body ?? {}) as Values
    if (typeof body !== 'object' || Array.isArray(body)) throw badRequest({ non_field_errors: ['Invalid data. Expected a dictionary.'] })
    const errors: Record<string, string[]> = {}
    const statOf: Record<string, number> = {}
    for (const [k, max] of [['cpu_load', 1e6], ['memory_used', 100], ['disk_used', 100], ['session_online', 1e6]] as const) {
      if (body[k] === undefined) { statOf[k] = 0; continue }
      const v = num(body[k], max)
      if (v === undefined) errors[k] = [tr(req.ctx.lang, 'A valid number is required.')]
      else statOf[k] = v
    }
    const ids = body.sessions === undefined ? [] : body.sessions
    if (!Array.isArray(ids) || ids.length > 10_000 || !ids.every(isUuid)) errors.sessions = [tr(req.ctx.lang, 'Invalid data.')]
    if (Object.keys(errors).length) throw badRequest(errors)
    const db = req.ctx.db
    await sql`update terminals set stat = ${JSON.stringify({ ...statOf, date_created: new Date().toISOString() })}::jsonb, date_stat = now(),
      remote_addr = ${req.ip.slice(0, 128)} where id = ${terminal.id}`.execute(db)
    if ((ids as string[]).length) {
      await sql`update terminal_sessions set date_last_active = now()
        where id = any(${(ids as string[]).map(normUuid)}::uuid[]) and terminal_id = ${terminal.id}`.execute(db)
    }
    return reply.status(201).send(await pendingTasks(req, terminal.id))
  },
}

terminals.actions = [...(terminals.actions ?? []), heartbeat]

/**
 * The NOTIFY channel of the built-in terminal's live sessions (server/terminal/live.ts): `{op: "kill", session, by}`
 * reaches the process holding the session at once, on whichever process the request landed.
 */
export const TERMINAL_LIVE_CHANNEL = 'terminal_live'

/**
 * Creates a "kill_session" task for each unfinished session the caller sees (an external component fetches it with
 * its heartbeat), tells the built-in terminal's processes at once (TERMINAL_LIVE_CHANNEL) and writes an operate log
 * per session; answers `{ok: [ids]}`.
 */
async function killSessions(req: FastifyRequest, ids: unknown): Promise<{ ok: string[] }> {
  if (!Array.isArray(ids) || ids.length > 1000) throw badRequest({ non_field_errors: [tr(req.ctx.lang, 'Invalid data.')] })
  const wanted = ids.filter(isUuid).map(normUuid)
  const api = resourceApi(sessions)
  const ok: string[] = []
  const by = req.ctx.user ? `${req.ctx.user.name}(${req.ctx.user.username})` : ''
  for (const id of wanted) {
    const row = await api.getObject(req, id).catch(() => undefined)
    if (!row || row.is_finished || !row.terminal_id) continue
    await sql`insert into terminal_tasks (id, name, args, kwargs, terminal_id)
      values (${randomUUID()}, 'kill_session', ${String(row.id)}, ${JSON.stringify({ terminated_by: by })}::jsonb, ${row.terminal_id})`.execute(req.ctx.db)
    await recordOperate(req.ctx.db, req.ctx, {
      action: 'terminate', resourceType: 'Session', resource: `${String(row.user)} → ${String(row.asset)}`, resourceId: row.id, orgId: String(row.org_id),
    })
    ok.push(String(row.id))
  }
  for (const id of ok) await req.server.services.database.notify(TERMINAL_LIVE_CHANNEL, JSON.stringify({ op: 'kill', session: id, by }))
  return { ok }
}

/** Where a session's replay is written before it is complete: a temporary file beside its final place. */
export async function replayTemp(root: string, row: Record<string, unknown>): Promise<{ dir: string; temp: string }> {
  const day = new Date(row.date_start as Date).toISOString().slice(0, 10)
  const dir = join(root, day)
  await mkdir(dir, { recursive: true })
  return { dir, temp: join(dir, `${String(row.id)}.cast.gz.${randomUUID()}.part`) }
}

/**
 * Stores a complete replay file (written in the replay store's day folder of the session's start, as
 * `replayTemp` names it) as the session's replay: checked (gzip asciicast), renamed into place, the session row
 * updated, and queued for the default replay storage when that one has a backend (S3 family, azure: replay-remote.ts). The one way
 * a replay is kept — the upload of a component and the built-in terminal's recorder.
 * Answers false (and keeps nothing) when the file is not a gzip asciicast.
 */
export async function storeReplay(db: DB, root: string, row: Record<string, unknown>, temp: string): Promise<boolean> {
  const day = new Date(row.date_start as Date).toISOString().slice(0, 10)
  const final = join(root, day, `${String(row.id)}.cast.gz`)
  try {
    if (!(await looksLikeGzipAsciicast(temp))) return false
    const size = (await stat(temp)).size
    await rename(temp, final)
    await sql`update terminal_sessions set has_replay = true, replay_path = ${join(day, `${String(row.id)}.cast.gz`)}, replay_size = ${size}
      where id = ${String(row.id)}`.execute(db)
    // the default replay storage, when it has a backend, gets it (replay-remote.ts; the local copy stays until then)
    await sql`insert into replay_uploads (session_id, storage_id)
      select ${String(row.id)}, s.id from replay_storages s where s.is_default and s.type in (${sql.join([...REMOTE_KINDS])})
      on conflict (session_id) do update set storage_id = excluded.storage_id, attempts = 0, next_attempt = now(), last_error = ''`.execute(db)
    return true
  } finally {
    await rm(temp, { force: true })
  }
}

function replayInfo(req: FastifyRequest, row: RowOf<'terminal_sessions'>) {
  return {
    type: 'asciicast',
    src: `/api/v1/terminal/sessions/${row.id}/replay/download/`,
    user: row.user, asset: row.asset, account: row.account, protocol: row.protocol,
    date_start: formatDateTime(row.date_start, req.ctx.tz), date_end: formatDateTime(row.date_end, req.ctx.tz),
    size: Number(row.replay_size ?? 0),
  }
}

/** Replays: upload (component), info and download (auditors). */
function replayActions(): Array<ActionDef<RowOf<'terminal_sessions'>>> {
  const cfgOf = (req: FastifyRequest) => req.server.services.config
  const upload: ActionDef<RowOf<'terminal_sessions'>> = {
    path: 'replay', detail: true, method: 'POST', perm: 'terminal.change_session',
    handler: async (req, reply, api, id) => {
      const cfg = cfgOf(req)
      const root = replayDir(cfg.dataDir)
      const row = await api.getObject(req, id!)
      if (!req.isMultipart()) throw fieldError('file', tr(req.ctx.lang, 'No file was submitted.'))
      const max = cfg.replayMaxBytes
      const part = await req.file({ limits: { fileSize: max, files: 1 } })
      if (!part) throw fieldError('file', tr(req.ctx.lang, 'No file was submitted.'))
      const { temp } = await replayTemp(root, row)
      try {
        await pipeline(part.file, createWriteStream(temp, { mode: 0o600 }))
        if (part.file.truncated) throw fieldError('file', tr(req.ctx.lang, 'The file is larger than {max} bytes.', { max }))
        const stored = await storeReplay(req.ctx.db, root, row, temp)
        if (!stored) throw fieldError('file', tr(req.ctx.lang, 'Not a gzip-compressed asciicast file.'))
      } finally {
        await rm(temp, { force: true })
      }
      return reply.status(201).send({ msg: 'ok' })
    },
  }
  const info: ActionDef<RowOf<'terminal_sessions'>> = {
    path: 'replay', detail: true, method: 'GET', perm: 'terminal.view_sessionreplay',
    handler: async (req, _reply, api, id) => {
      const row = await api.getObject(req, id!)
      // No replay (yet): `type: "none"` and no source, so a console can say so (the session exists).
      if (!row.has_replay) return { ...replayInfo(req, row), type: 'none', src: null }
      return replayInfo(req, row)
    },
  }
  return [upload, info]
}

/**
 * `GET …/sessions/<id>/replay/download/`: the stored file. A plain route (not an engine action): a session
 * without a replay answers 404 here, which the engine's read-action rule (an allowed read of an existing object
 * answers 200) does not fit.
 */
function registerReplayDownload(app: FastifyInstance): void {
  for (const url of ['/api/v1/terminal/sessions/:id/replay/download/', '/api/v1/terminal/sessions/:id/replay/download']) {
    app.get(url, async (req, reply) => {
      await requirePerm(req, 'terminal.download_sessionreplay|terminal.view_sessionreplay')
      const row = await resourceApi(sessions).getObject(req, (req.params as { id: string }).id)
      if (!row.has_replay || typeof row.replay_path !== 'string') throw new ApiError(404, { detail: tr(req.ctx.lang, 'The session has no replay.'), code: 'not_found' })
      const path = join(replayDir(req.server.services.config.dataDir), row.replay_path)
      const size = await stat(path).then((s) => s.size, () => -1)
      if (size >= 0) return sendFile(reply, createReadStream(path), size, `${row.id}.cast.gz`)
      // uploaded to a replay storage (its local copy removed): read back from there
      if (!row.replay_storage_id) throw new ApiError(404, { detail: tr(req.ctx.lang, 'The session has no replay.'), code: 'not_found' })
      let remote: Awaited<ReturnType<typeof readRemoteReplay>>
      try {
        remote = await readRemoteReplay(req.server.services.config, req.ctx.db, row.replay_storage_id, row.replay_path)
      } catch (e) {
        throw new ApiError(404, { detail: tr(req.ctx.lang, 'The replay could not be read from its replay storage: {error}', { error: e instanceof Error ? e.message : String(e) }), code: 'replay_unavailable' })
      }
      return sendFile(reply, remote.stream, remote.length, `${row.id}.cast.gz`)
    })
  }
}

function sendFile(reply: FastifyReply, body: NodeJS.ReadableStream, size: number | undefined, name: string) {
  reply.header('Content-Type', 'application/gzip')
  if (size !== undefined) reply.header('Content-Length', String(size))
  reply.header('Content-Disposition', `attachment; filename="${name}"`)
  reply.header('Cache-Control', 'private, no-store')
  return reply.send(body)
}

/** Gzip magic, and the first decompressed bytes are an asciicast header (a JSON object with `version`). */
async function looksLikeGzipAsciicast(path: string): Promise<boolean> {
  const fh = await import('node:fs/promises').then((m) => m.open(path, 'r'))
  try {
    const buf = Buffer.alloc(64 * 1024)
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0)
    const head = buf.subarray(0, bytesRead)
    if (head.length < 10 || head[0] !== 0x1f || head[1] !== 0x8b) return false
    let text: string
    try {
      text = gunzipSync(head, { finishFlush: zlibConstants.Z_SYNC_FLUSH }).toString('utf8')
    } catch {
      return false
    }
    const first = text.split('\n', 1)[0] ?? ''
    if (!first.trimStart().startsWith('{')) return false
    return /"version"\s*:\s*[12]\b/.test(first)
  } finally {
    await fh.close()
  }
}

sessions.actions = [...(sessions.actions ?? []), ...replayActions()]

/**
 * Registers a terminal component: a service-account user with the SystemComponent role and an access key, and the
 * terminal row (a name in use gets a random suffix, as JumpServer does for a component registering again). The
 * one way a terminal is registered — the bootstrap-token route and the built-in terminal (server/terminal).
 */
export async function registerTerminal(tx: DB, cfg: ServerConfig, o: { name: string; type: string; comment: string; remoteAddr: string }) {
  const { name, type, comment } = o
  let final = name
  const taken = await sql`select 1 from terminals where name = ${final} and not is_deleted`.execute(tx)
  if (taken.rows.length) final = `${name}_${randomUUID().slice(0, 6)}`
  const userId = randomUUID()
  const username = `${final}`.slice(0, 128)
  await sql`insert into users (id, name, username, email, is_service_account, is_first_login, comment, created_by, source)
    values (${userId}, ${`[${type}]-${final}`.slice(0, 128)}, ${`${username}-${userId.slice(0, 8)}`}, ${`${userId}@service-account.local`}, true, false,
            ${comment}, 'System', 'local')`.execute(tx)
  await sql`insert into role_bindings (id, user_id, role_id, scope) values (${randomUUID()}, ${userId}, ${ROLE_IDS.SystemComponent}, 'system')`.execute(tx)
  const key = await createAccessKey(tx, sealerFor(cfg), userId)
  const terminalId = randomUUID()
  await sql`insert into terminals (id, name, type, remote_addr, user_id, comment)
    values (${terminalId}, ${final}, ${type}, ${o.remoteAddr.slice(0, 128)}, ${userId}, ${comment})`.execute(tx)
  return { id: terminalId, name: final, comment, type, service_account: { id: userId, name: `[${type}]-${final}`.slice(0, 128), access_key: key } }
}

/** Component and console routes outside the engine's resources. */
export async function registerComponentRoutes(app: FastifyInstance): Promise<void> {
  const cfg = app.services.config
  const both = (url: string) => [url, url.slice(0, -1)]
  registerReplayDownload(app)

  // Registration: `Authorization: BootstrapToken <token>` → a service account with its access key.
  for (const url of both('/api/v1/terminal/terminal-registrations/')) {
    app.post(url, async (req, reply) => {
      const authz = String(req.headers.authorization ?? '')
      const m = /^BootstrapToken\s+(\S+)$/i.exec(authz)
      const { timingSafeEqual } = await import('node:crypto')
      const given = Buffer.from(m?.[1] ?? '')
      const want = Buffer.from(cfg.bootstrapToken ?? '')
      if (!cfg.bootstrapToken || !m || given.length !== want.length || !timingSafeEqual(given, want)) {
        return reply.status(401).header('WWW-Authenticate', 'BootstrapToken').send({ detail: tr(req.ctx.lang, 'Invalid bootstrap token.'), code: 'authentication_failed' })
      }
      if (!(await getSetting(req.ctx.db, 'SECURITY_SERVICE_ACCOUNT_REGISTRATION'))) {
        return reply.status(400).send({ error: tr(req.ctx.lang, 'service account registration disabled') })
      }
      const body = (req.body ?? {}) as Values
      if (typeof body !== 'object' || Array.isArray(body)) throw badRequest({ non_field_errors: ['Invalid data. Expected a dictionary.'] })
      const errors: Record<string, string[]> = {}
      const name = typeof body.name === 'string' ? body.name.trim() : ''
      if (!name) errors.name = [tr(req.ctx.lang, 'This field is required.')]
      else if (name.length > 100 || name.includes('\u0000')) errors.name = [tr(req.ctx.lang, 'Ensure this field has no more than {max} characters.', { max: 100 })]
      const type = body.type === undefined ? 'koko' : body.type
      const TYPES = ['koko', 'guacamole', 'omnidb', 'xrdp', 'lion', 'core', 'celery', 'magnus', 'razor', 'tinker', 'kael', 'chen', 'panda', 'video_worker']
      if (typeof type !== 'string' || !TYPES.includes(type)) errors.type = [tr(req.ctx.lang, '"{value}" is not a valid choice.', { value: String(type) })]
      const comment = typeof body.comment === 'string' ? body.comment.slice(0, 1000) : ''
      if (Object.keys(errors).length) throw badRequest(errors)
      const db = req.ctx.db
      const { id: _, ...out } = await db.transaction().execute((tx) => registerTerminal(tx, cfg, { name, type: String(type), comment, remoteAddr: req.ip }))
      return reply.status(201).send(out)
    })
  }

  // The component's own tasks, and their acknowledgement.
  for (const url of both('/api/v1/terminal/tasks/')) {
    app.get(url, async (req) => {
      const terminal = await componentTerminal(req)
      const finished = (req.query as Values | undefined)?.is_finished
      if (finished === '1' || finished === 'true') {
        const r = await sql<RowOf<'terminal_tasks'>>`select * from terminal_tasks where terminal_id = ${terminal.id} and is_finished order by date_created desc limit 100`.execute(req.ctx.db)
        return r.rows.map((row) => ({ ...taskView(row), date_created: formatDateTime(row.date_created, req.ctx.tz) }))
      }
      return pendingTasks(req, terminal.id)
    })
  }
  for (const url of both('/api/v1/terminal/tasks/kill-session/')) {
    app.post(url, async (req) => {
      await requirePerm(req, 'terminal.terminate_session')
      return killSessions(req, req.body)
    })
  }
  for (const url of both('/api/v1/terminal/tasks/:id/')) {
    app.route({ method: ['PATCH', 'PUT'], url, handler: async (req) => {
      const terminal = await componentTerminal(req)
      const id = (req.params as { id: string }).id
      if (!isUuid(id)) throw notFound('Task')
      const body = (req.body ?? {}) as Values
      if (typeof body !== 'object' || Array.isArray(body)) throw badRequest({ non_field_errors: ['Invalid data. Expected a dictionary.'] })
      if (body.is_finished !== undefined && typeof body.is_finished !== 'boolean') throw fieldError('is_finished', tr(req.ctx.lang, 'Must be a valid boolean.'))
      const r = await sql<RowOf<'terminal_tasks'>>`update terminal_tasks set is_finished = ${body.is_finished ?? true},
          date_finished = case when ${body.is_finished ?? true} then now() else null end
        where id = ${normUuid(id)} and terminal_id = ${terminal.id} returning *`.execute(req.ctx.db)
      if (!r.rows[0]) throw notFound('Task')
      return { ...taskView(r.rows[0]), date_created: formatDateTime(r.rows[0].date_created, req.ctx.tz) }
    } })
  }

  // Settings → Terminal → Monitor (lina 3.2.2): per component type, the load counts and the online sessions.
  for (const url of both('/api/v1/terminal/components/metrics/')) {
    app.get(url, async (req) => {
      await requirePerm(req, 'terminal.view_terminal', ORG_IDS.ROOT)
      return componentMetrics(req)
    })
  }

  // The user's own sessions (workbench) across organizations.
  for (const url of both('/api/v1/terminal/my-sessions/')) {
    app.get(url, async (req) => {
      const user = requireUser(req)
      return resourceApi(sessions).listResponse(req, { ctx: { ...req.ctx, orgId: ORG_IDS.ROOT }, extra: sql`t.user_id = ${user.id}` })
    })
  }
}

/**
 * JumpServer's ComponentsMetricsAPIView (TypedComponentsStatusMetricsUtil): the registered, not deleted terminals
 * grouped by type (types in order, only those present), each `{normal, high, critical, offline, total,
 * session_active, type}` — the load of each from its latest heartbeat (the terminals list's `load`), and its
 * unfinished sessions in every organization.
 */
type ComponentLoads = { type: string } & Record<'normal' | 'high' | 'critical' | 'offline' | 'total' | 'session_active', number>

async function componentMetrics(req: FastifyRequest): Promise<ComponentLoads[]> {
  const r = await sql<{ type: string; stat: unknown; is_alive: boolean; online: number }>`select t.type, t.stat,
      coalesce(t.date_stat > now() - make_interval(secs => ${ALIVE_SECONDS}), false) as is_alive,
      (select count(*)::int from terminal_sessions s where s.terminal_id = t.id and not s.is_finished) as online
    from terminals t where not t.is_deleted order by t.type`.execute(req.ctx.db)
  const out: ComponentLoads[] = []
  for (const row of r.rows) {
    let m = out.at(-1)
    if (!m || m.type !== row.type) {
      m = { normal: 0, high: 0, critical: 0, offline: 0, total: 0, session_active: 0, type: row.type }
      out.push(m)
    }
    m[loadOf(row)] += 1
    m.total += 1
    m.session_active += Number(row.online)
  }
  return out
}
