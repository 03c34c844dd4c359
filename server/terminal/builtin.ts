/**
 * The built-in terminal component (issue 30): registered once as a terminal (type koko, name "Built-in
 * terminal") with its service account and access key, it speaks the component API in process — the same routes
 * an external koko calls (`app.inject` with a signed request): sessions are opened and finished by
 * `POST/PATCH /api/v1/terminal/sessions/`, commands written in bulk by `POST /api/v1/terminal/commands/`,
 * heartbeats (load, online sessions) by `POST /api/v1/terminal/terminals/status/`, which answers its tasks
 * (kill_session). Replays go through `storeReplay`, the function the replay upload route uses.
 */
import { loadavg, totalmem, freemem } from 'node:os'
import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { sealerFor } from '../auth/otp-store.ts'
import { signRequest } from '../auth/signature.ts'
import { registerTerminal } from '../resources/terminal/components.ts'

export const BUILTIN_NAME = 'Built-in terminal'
const HEARTBEAT_MS = 30_000

export interface BuiltinIdentity { terminalId: string; userId: string; keyId: string; secret: string }

export class ComponentCallError extends Error {
  constructor(readonly status: number, readonly body: string) {
    super(`component API answered ${status}: ${body.slice(0, 300)}`)
  }
}

export class BuiltinComponent {
  private identity?: Promise<BuiltinIdentity>
  private timer?: NodeJS.Timeout
  /** Called with a session id when a kill_session task arrives. */
  onKill?: (sessionId: string, by: string) => void
  /** The ids of this process's open sessions (for the heartbeat). */
  onlineSessions: () => string[] = () => []

  constructor(private readonly app: FastifyInstance) {}

  /** The terminal row, its service account and a usable access key (registered on first use). */
  ensure(): Promise<BuiltinIdentity> {
    this.identity ??= this.register().catch((e) => {
      this.identity = undefined
      throw e
    })
    return this.identity
  }

  private async register(): Promise<BuiltinIdentity> {
    const { db } = this.app.services.database
    const cfg = this.app.services.config
    const sealer = sealerFor(cfg)
    return db.transaction().execute(async (tx) => {
      await sql`select pg_advisory_xact_lock(hashtextextended('builtin-terminal', 0))`.execute(tx)
      const row = (await sql<{ id: string; user_id: string }>`select t.id, t.user_id from terminals t join users u on u.id = t.user_id
        where t.name = ${BUILTIN_NAME} and not t.is_deleted and u.is_active limit 1`.execute(tx)).rows[0]
      if (row) {
        const keys = (await sql<{ id: string; secret: string }>`select id, secret from access_keys where user_id = ${row.user_id} and is_active order by date_created`.execute(tx)).rows
        for (const k of keys) {
          try {
            return { terminalId: row.id, userId: row.user_id, keyId: k.id, secret: sealer.open(k.secret, `access_key:${k.id}`) }
          } catch {
            // sealed under another SECRET_KEY: not usable here
          }
        }
        const { createAccessKey } = await import('../auth/signature.ts')
        const key = await createAccessKey(tx, sealer, row.user_id)
        return { terminalId: row.id, userId: row.user_id, keyId: key.id, secret: key.secret }
      }
      const t = await registerTerminal(tx, cfg, { name: BUILTIN_NAME, type: 'koko', comment: 'The SSH gateway and web terminal of this server', remoteAddr: cfg.host })
      return { terminalId: t.id, userId: t.service_account.id, keyId: t.service_account.access_key.id, secret: t.service_account.access_key.secret }
    })
  }

  /** A signed component call (in process); throws ComponentCallError on a non-2xx answer. */
  async call<T = unknown>(method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown): Promise<T> {
    const id = await this.ensure()
    const headers: Record<string, string> = { ...signRequest(id.keyId, id.secret, method, url), 'x-jms-org': 'ROOT', 'accept-language': 'en' }
    if (body !== undefined) headers['content-type'] = 'application/json'
    const r = await this.app.inject({ method, url, headers, payload: body === undefined ? undefined : JSON.stringify(body), remoteAddress: '127.0.0.1' })
    if (r.statusCode < 200 || r.statusCode > 299) throw new ComponentCallError(r.statusCode, r.body)
    return (r.body ? JSON.parse(r.body) : undefined) as T
  }

  /** One heartbeat: status, online sessions; runs the tasks it answers. */
  async heartbeat(): Promise<void> {
    const sessions = this.onlineSessions()
    const memory = Math.round((1 - freemem() / totalmem()) * 1000) / 10
    const tasks = await this.call<Array<{ id: string; name: string; args: string; kwargs: { terminated_by?: string } }>>('POST', '/api/v1/terminal/terminals/status/', {
      cpu_load: Math.round(loadavg()[0]! * 100) / 100, memory_used: Math.min(100, memory), disk_used: 0, session_online: sessions.length, sessions,
    })
    for (const task of tasks) {
      if (task.name === 'kill_session' && sessions.includes(task.args)) this.onKill?.(task.args, task.kwargs?.terminated_by ?? '')
      // tasks for sessions of another process of this server stay for that process
      if (task.name !== 'kill_session' || sessions.includes(task.args)) await this.call('PATCH', `/api/v1/terminal/tasks/${task.id}/`, { is_finished: true })
    }
  }

  private beating?: Promise<void>
  private stopped = false

  start(): void {
    if (this.timer || this.stopped) return
    const beat = () => {
      if (this.beating || this.stopped) return
      this.beating = this.heartbeat().catch((err) => {
        if (!this.stopped) this.app.log.warn({ err }, 'built-in terminal heartbeat failed')
      }).finally(() => (this.beating = undefined))
    }
    this.timer = setInterval(beat, HEARTBEAT_MS)
    this.timer.unref()
    beat()
  }

  async stop(): Promise<void> {
    this.stopped = true
    clearInterval(this.timer)
    this.timer = undefined
    await this.beating
  }
}
