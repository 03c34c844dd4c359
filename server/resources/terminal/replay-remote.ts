/**
 * Replays in a replay storage of Settings → Terminal (docs/terminal.md "Replay storages"): JumpServer keeps a
 * replay in its local store, then its task uploads it to the external storage and removes the local copy; the
 * replay API reads it back from there. Here the same, for the storages with a backend (replay-backend.ts: the S3
 * family in s3.ts, Azure Blob storage in azure.ts; swift stays local, docs/decisions/replay-storages-s3-sigv4-of-our-own.md):
 * - `storeReplay` (components.ts) queues a stored replay (`replay_uploads`) when the default replay storage has one;
 * - `ReplayUploads.runDue` uploads what is due, under the replay's relative path (`<day>/<session>.cast.gz`, as
 *   JumpServer names the object), marks the session's `replay_storage_id`, then removes the local copy; a failure
 *   keeps the local copy and the row, with the next attempt backing off (1 min, doubling, at most 1 h);
 * - `readRemoteReplay` streams a replay whose local copy is gone from its storage (the download route).
 * Queued rows are claimed for 10 minutes before an attempt, so two server processes on one database do not both
 * upload one replay.
 */
import { existsSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import type { ServerConfig } from '../../config.ts'
import type { DB, RowOf } from '../../db/connection.ts'
import { sealerFor } from '../../auth/otp-store.ts'
import { jsonObject } from '../../http/body.ts'
import { azureClientOf } from './azure.ts'
import type { ReplayBackend } from './replay-backend.ts'
import { s3ClientOf, S3_KINDS } from './s3.ts'

/** The sealing context of a storage's secret (storages.ts seals with it). */
export const storageSealContext = (table: string, id: string, key: string) => `terminal.${table}:${id}:${key}`

type StorageRow = RowOf<'replay_storages'>

/** The replay storage kinds with a backend: replays stored with the default one go there. */
export const REMOTE_KINDS: ReadonlySet<string> = new Set([...S3_KINDS, 'azure'])

/** The secrets of the kinds with a backend (sealed in the row's meta). */
const SECRETS = ['SECRET_KEY', 'ACCOUNT_KEY']

/** The backend of a kind from its meta (secrets opened), or undefined when the kind has none or a value is missing. */
export function backendOf(type: string, meta: Record<string, unknown>): ReplayBackend | undefined {
  if (type === 'azure') return azureClientOf(meta)
  return s3ClientOf(type, meta)
}

/** The backend of a replay storage row (its secrets opened), or undefined when its kind has none. */
export function replayStorageClient(config: ServerConfig, row: Pick<StorageRow, 'id' | 'type' | 'meta'>): ReplayBackend | undefined {
  if (!REMOTE_KINDS.has(row.type)) return undefined
  const meta = { ...jsonObject(row.meta) }
  for (const k of SECRETS) {
    const v = meta[k]
    if (typeof v === 'string' && v !== '') meta[k] = sealerFor(config).open(v, storageSealContext('replay_storages', row.id, k))
  }
  return backendOf(row.type, meta)
}

const CLAIM_MS = 10 * 60_000
const FIRST_RETRY_MS = 60_000
const MAX_RETRY_MS = 3_600_000
/** Uploads per pass. */
const BATCH = 20
/** How often the queue is looked at (a finished session also starts a pass at once). */
const POLL_MS = 30_000

/** The wait before attempt `n + 1` after `n` failed ones. */
export const retryDelay = (attempts: number) => Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1))

export interface UploadOutcome { session: string; ok: boolean; error?: string }

/** Per server (app): the queue's runner. */
export class ReplayUploads {
  /** The clock of the schedule (tests inject one). */
  now: () => number = () => Date.now()
  private timer?: NodeJS.Timeout
  private running?: Promise<UploadOutcome[]>

  constructor(private readonly db: () => DB, private readonly config: ServerConfig, private readonly root: string, private readonly log: FastifyInstance['log']) {}

  start(): void {
    this.timer = setInterval(() => void this.kick(), POLL_MS)
    this.timer.unref()
  }

  stop(): Promise<unknown> {
    clearInterval(this.timer)
    return this.running ?? Promise.resolve()
  }

  /** Starts a pass unless one runs; answers its outcome. */
  kick(): Promise<UploadOutcome[]> {
    this.running ??= this.runDue().catch((err: unknown) => {
      this.log.warn({ err }, 'replay uploads failed')
      return []
    }).finally(() => (this.running = undefined))
    return this.running
  }

  /** One pass: claims the due uploads and tries each. */
  async runDue(): Promise<UploadOutcome[]> {
    const db = this.db()
    const now = new Date(this.now())
    const claimed = (await sql<{ session_id: string; storage_id: string; attempts: number }>`
      update replay_uploads set next_attempt = ${new Date(now.getTime() + CLAIM_MS)}
      where session_id in (select session_id from replay_uploads where next_attempt <= ${now} order by next_attempt limit ${BATCH} for update skip locked)
      returning session_id, storage_id, attempts`.execute(db)).rows
    const out: UploadOutcome[] = []
    for (const job of claimed) out.push(await this.upload(db, job))
    return out
  }

  private async upload(db: DB, job: { session_id: string; storage_id: string; attempts: number }): Promise<UploadOutcome> {
    const session = (await sql<Pick<RowOf<'terminal_sessions'>, 'replay_path'>>`select replay_path from terminal_sessions where id = ${job.session_id}`.execute(db)).rows[0]
    const storage = (await sql<StorageRow>`select * from replay_storages where id = ${job.storage_id}`.execute(db)).rows[0]
    const path = session?.replay_path
    if (!path || !storage) {
      await sql`delete from replay_uploads where session_id = ${job.session_id}`.execute(db)
      return { session: job.session_id, ok: false, error: 'nothing to upload' }
    }
    const file = join(this.root, path)
    try {
      if (!existsSync(file)) throw new Error('the local replay file is missing')
      const client = replayStorageClient(this.config, storage)
      if (!client) throw new Error(`the storage "${storage.name}" has no replay backend or misses a value (endpoint, bucket, container, key)`)
      await client.putFile(path, file, 'application/gzip')
      // the row names the storage first: a reader then finds the replay there even while the local copy goes
      await sql`update terminal_sessions set replay_storage_id = ${storage.id} where id = ${job.session_id}`.execute(db)
      await sql`delete from replay_uploads where session_id = ${job.session_id}`.execute(db)
      await rm(file, { force: true })
      return { session: job.session_id, ok: true }
    } catch (e) {
      const error = e instanceof Error ? e.message : String(e)
      const attempts = job.attempts + 1
      await sql`update replay_uploads set attempts = ${attempts}, last_error = ${error.slice(0, 1000)},
        next_attempt = ${new Date(this.now() + retryDelay(attempts))} where session_id = ${job.session_id}`.execute(db)
      this.log.warn({ session: job.session_id, storage: storage.name, attempts, error }, 'replay upload failed; kept locally, tried again later')
      return { session: job.session_id, ok: false, error }
    }
  }
}

const uploaders = new WeakMap<FastifyInstance, ReplayUploads>()

/** The app's replay upload queue (registered with the terminal module). */
export function replayUploads(app: FastifyInstance): ReplayUploads {
  let u = uploaders.get(app)
  if (!u) {
    u = new ReplayUploads(() => app.services.database.db, app.services.config, join(app.services.config.dataDir, 'replays'), app.log)
    uploaders.set(app, u)
  }
  return u
}

/** A replay whose local copy is gone, read from the storage holding it. */
export async function readRemoteReplay(config: ServerConfig, db: DB, storageId: string, path: string): Promise<{ stream: NodeJS.ReadableStream; length?: number; storage: string }> {
  const storage = (await sql<StorageRow>`select * from replay_storages where id = ${storageId}`.execute(db)).rows[0]
  if (!storage) throw new Error('the replay storage was deleted')
  const client = replayStorageClient(config, storage)
  if (!client) throw new Error(`the storage "${storage.name}" has no replay backend`)
  const { stream, length } = await client.get(path)
  return { stream, length, storage: storage.name }
}
