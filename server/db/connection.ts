import { mkdirSync } from 'node:fs'
import { PGlite } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import {
  CompiledQuery, Kysely, PostgresAdapter, PostgresDialect, PostgresIntrospector, PostgresQueryCompiler, sql,
  type DatabaseConnection, type Dialect, type Driver, type QueryResult, type Selectable,
} from 'kysely'
import pg from 'pg'
import { startMaintenance, type Maintenance } from './maintenance.ts'
import type { DB as Tables } from './schema.gen.ts'

/** The database's tables, generated from the migrations (`npm run db:types`; see docs/engine.md). */
export type { Tables }

/** The database every server module uses: Kysely over PGlite (embedded) or node-postgres, typed by the schema. */
export type DB = Kysely<Tables>

/**
 * A whole row of one table as read (`select *`): `sql<RowOf<'accounts'>>` or a builder's `selectAll()`; pick
 * columns with `Pick<RowOf<'accounts'>, 'id' | 'username'>`.
 */
export type RowOf<T extends keyof Tables> = Selectable<Tables[T]>

export interface Database {
  db: DB
  kind: 'pglite' | 'postgres'
  /** LISTEN/NOTIFY fan-out (in-process on PGlite). */
  notify(channel: string, payload: string): Promise<void>
  listen(channel: string, handler: (payload: string) => void): Promise<() => Promise<void>>
  /**
   * PGlite only: notifications sent by SQL (a trigger's `pg_notify`), delivered to `handler` before the statement —
   * or the COMMIT — that sent them returns (the database is in this process, so nothing else can see the change
   * first). PostgreSQL has no such guarantee across processes: its notifications arrive after the commit, on
   * another connection (use `listen`).
   */
  watchSql?(channel: string, handler: (payload: string) => void): Promise<void>
  /** Called after the LISTEN connection was lost and opened again (notifications may have been missed). */
  onReconnect(handler: () => void): () => void
  close(): Promise<void>
  /** Planner statistics kept current (analyze soon after bulk writes; PGlite: autovacuum's rules on a timer). */
  maintenance: Maintenance
  /** PGlite only: a dump of the data directory (tests start new databases from it). */
  dump?: () => Promise<Blob>
}

/** A promise mutex: PGlite has one connection, so transactions must not interleave. */
class Mutex {
  private tail: Promise<void> = Promise.resolve()
  lock(): Promise<() => void> {
    let release!: () => void
    const next = new Promise<void>((r) => (release = r))
    const prev = this.tail
    this.tail = prev.then(() => next)
    return prev.then(() => release)
  }
}

class PGliteConnection implements DatabaseConnection {
  constructor(private readonly pg: PGlite) {}
  async executeQuery<R>(q: CompiledQuery): Promise<QueryResult<R>> {
    if (q.parameters.length === 0 && q.query.kind === 'RawNode') {
      // Raw scripts (migrations) may hold several statements: the simple protocol runs them all.
      const results = await this.pg.exec(q.sql)
      const last = results[results.length - 1]
      return { rows: (last?.rows ?? []) as R[], numAffectedRows: last?.affectedRows === undefined ? undefined : BigInt(last.affectedRows) }
    }
    const r = await this.pg.query<R>(q.sql, q.parameters as unknown[])
    const kind = q.query.kind
    if (kind === 'InsertQueryNode' || kind === 'UpdateQueryNode' || kind === 'DeleteQueryNode') {
      return { rows: r.rows, numAffectedRows: BigInt(r.affectedRows ?? 0) }
    }
    return { rows: r.rows, numAffectedRows: r.affectedRows === undefined ? undefined : BigInt(r.affectedRows) }
  }
  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not supported on PGlite')
  }
}

class PGliteDriver implements Driver {
  private readonly mutex = new Mutex()
  private readonly releases = new WeakMap<DatabaseConnection, () => void>()
  private readonly conn: PGliteConnection
  constructor(pglite: PGlite) { this.conn = new PGliteConnection(pglite) }
  async init(): Promise<void> {}
  async acquireConnection(): Promise<DatabaseConnection> {
    const release = await this.mutex.lock()
    this.releases.set(this.conn, release)
    return this.conn
  }
  async beginTransaction(c: DatabaseConnection): Promise<void> { await c.executeQuery(CompiledQuery.raw('begin')) }
  async commitTransaction(c: DatabaseConnection): Promise<void> { await c.executeQuery(CompiledQuery.raw('commit')) }
  async rollbackTransaction(c: DatabaseConnection): Promise<void> { await c.executeQuery(CompiledQuery.raw('rollback')) }
  async releaseConnection(c: DatabaseConnection): Promise<void> { this.releases.get(c)?.() }
  async destroy(): Promise<void> {}
}

function pgliteDialect(pglite: PGlite): Dialect {
  return {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new PGliteDriver(pglite),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  }
}

// Timestamps come back as JS Dates, bigint counts as numbers (they stay far below 2^53 here).
pg.types.setTypeParser(20, (v) => Number(v))

export async function openDatabase(opts: { databaseUrl?: string; dataDir?: string; memory?: boolean; loadDataDir?: Blob | File }): Promise<Database> {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10 })
    // An idle connection that the server drops (restart, failover, admin termination) must not crash the process:
    // the pool discards it and opens a new one on the next query.
    pool.on('error', (err) => console.warn(`database: idle connection lost (${err.message})`))
    const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) })
    const maintenance = startMaintenance(db, { autovacuum: false })
    const listeners = new Map<string, Set<(p: string) => void>>()
    const reconnectHandlers = new Set<() => void>()
    // The LISTEN connection is a client of its own: when it drops (a PostgreSQL restart, a terminated backend)
    // it is opened again with back-off, every channel is listened to again, and the reconnect handlers run (the
    // realtime hub re-reads the counts its sockets show: notifications sent meanwhile were lost).
    let listenClient: pg.Client | undefined
    let connecting: Promise<pg.Client> | undefined
    let closed = false
    let attempt = 0
    let retryTimer: NodeJS.Timeout | undefined
    const connectListener = (): Promise<pg.Client> => {
      if (listenClient) return Promise.resolve(listenClient)
      connecting ??= (async () => {
        const client = new pg.Client({ connectionString: opts.databaseUrl })
        const lost = (why: string) => {
          if (listenClient !== client) return
          listenClient = undefined
          client.removeAllListeners('notification')
          client.end().catch(() => undefined)
          if (!closed) {
            console.warn(`database: LISTEN connection lost (${why}); reconnecting`)
            scheduleReconnect()
          }
        }
        client.on('error', (err) => lost(err.message))
        client.on('end', () => lost('ended'))
        client.on('notification', (m) => listeners.get(m.channel)?.forEach((h) => h(m.payload ?? '')))
        try {
          await client.connect()
          for (const channel of listeners.keys()) await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`)
        } catch (err) {
          client.end().catch(() => undefined)
          throw err
        }
        listenClient = client
        attempt = 0
        return client
      })().finally(() => { connecting = undefined })
      return connecting
    }
    const scheduleReconnect = () => {
      if (closed || retryTimer) return
      const delay = Math.min(10_000, 200 * 2 ** attempt) * (0.5 + Math.random() / 2)
      attempt += 1
      retryTimer = setTimeout(() => {
        retryTimer = undefined
        connectListener().then(
          () => reconnectHandlers.forEach((h) => h()),
          (err: Error) => {
            console.warn(`database: LISTEN reconnect failed (${err.message})`)
            scheduleReconnect()
          },
        )
      }, delay)
      retryTimer.unref?.()
    }
    return {
      db,
      kind: 'postgres',
      maintenance,
      async notify(channel, payload) { await sql`select pg_notify(${channel}, ${payload})`.execute(db) },
      async listen(channel, handler) {
        let set = listeners.get(channel)
        const fresh = !set
        if (!set) listeners.set(channel, (set = new Set()))
        set.add(handler)
        const client = await connectListener()
        if (fresh && client === listenClient) await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`)
        return async () => { set!.delete(handler) }
      },
      onReconnect(handler) {
        reconnectHandlers.add(handler)
        return () => { reconnectHandlers.delete(handler) }
      },
      async close() {
        closed = true
        clearTimeout(retryTimer)
        const client = listenClient
        listenClient = undefined
        await client?.end().catch(() => undefined)
        await maintenance.stop()
        await db.destroy()
      },
    }
  }
  // pg_trgm backs the trigram indexes that keep searches fast (migration 003 creates them when available).
  const extensions = { pg_trgm }
  let pglite: PGlite
  if (opts.memory || !opts.dataDir) {
    pglite = await PGlite.create(opts.loadDataDir ? { loadDataDir: opts.loadDataDir, extensions } : { extensions })
  } else {
    mkdirSync(opts.dataDir, { recursive: true })
    pglite = await PGlite.create({ dataDir: opts.dataDir, extensions })
  }
  const db = new Kysely<Tables>({ dialect: pgliteDialect(pglite) })
  // No autovacuum in PGlite: the server keeps its statistics (server/db/maintenance.ts).
  const maintenance = startMaintenance(db, { autovacuum: true })
  const listeners = new Map<string, Set<(p: string) => void>>()
  return {
    db,
    kind: 'pglite',
    maintenance,
    async notify(channel, payload) {
      // Single process: deliver in-process, after the current tick like a real NOTIFY.
      queueMicrotask(() => listeners.get(channel)?.forEach((h) => h(payload)))
    },
    async listen(channel, handler) {
      let set = listeners.get(channel)
      if (!set) listeners.set(channel, (set = new Set()))
      set.add(handler)
      return async () => { set!.delete(handler) }
    },
    onReconnect() {
      return () => undefined
    },
    async watchSql(channel, handler) {
      // Under the driver's lock: a LISTEN must not land inside another caller's transaction.
      await db.connection().execute(async () => { await pglite.listen(channel, handler) })
    },
    async close() {
      await maintenance.stop()
      await db.destroy()
      await pglite.close()
    },
    dump: () => pglite.dumpDataDir('none') as Promise<Blob>,
  }
}
