/**
 * The server tests `npm test` runs a second time on PostgreSQL (the `postgres` step of scripts/test-all.ts).
 *
 * Every server test runs on PGlite in the `unit` step. PGlite is PostgreSQL itself (the same parser, planner and
 * executor compiled to WebAssembly), so a test of request handling, validation, permissions or translations gives
 * the same answer on both. What differs is around the engine: one connection, serialised, in the server's own
 * process (PGlite) against a pool of backends that really run at once, several server processes sharing one
 * database, `LISTEN/NOTIFY` between processes, `FOR UPDATE SKIP LOCKED`, advisory locks, triggers racing each other,
 * and the planner's statistics — and the server's version: CI's PostgreSQL (15) is older than PGlite's, so every
 * resource's SQL runs once on it (the conformance lifecycle, declarations and permission suites). The files below
 * test those; each says why it is here. Left out, for instance: the conformance bad-input suite (the longest
 * server file): it sends malformed values to every field, which the server's own validation answers; the queries
 * it reaches are those the lifecycle suite runs on PostgreSQL. A file that starts testing
 * such a thing belongs here (scripts/postgres-suite.test.ts checks that every entry exists).
 */
export const POSTGRES_SUITE: readonly { file: string; why: string }[] = [
  { file: 'server/conformance/declarations.test.ts', why: 'every resource\'s declarations against the migrated schema of the engine' },
  { file: 'server/conformance/lifecycle.test.ts', why: 'every resource\'s list, search (trigram indexes proved by EXPLAIN), create, update and delete SQL' },
  { file: 'server/conformance/permissions-1.test.ts', why: 'every resource\'s permission scopes as SQL conditions' },
  { file: 'server/conformance/permissions-2.test.ts', why: 'as permissions-1' },
  { file: 'server/conformance/permissions-3.test.ts', why: 'as permissions-1' },
  { file: 'server/db/maintenance.test.ts', why: 'planner statistics and analyze after bulk rewrites (autovacuum on PostgreSQL, our rules on PGlite)' },
  { file: 'server/engine/engine.test.ts', why: 'the engine\'s generated queries: filters, ordering, paging, JSON columns' },
  { file: 'server/engine/counts.test.ts', why: 'unfiltered list counts kept by triggers (migration 024), exact under concurrent writes' },
  { file: 'server/engine/daycounts.test.ts', why: 'the per-day count cache of dated lists (migration 032)' },
  { file: 'server/resources/load.test.ts', why: 'concurrent writers: no lost update and no 5xx with a pool of real backends' },
  { file: 'server/resources/assets/assets.test.ts', why: 'the node tree: paths, subtree moves and cached counts kept by triggers (migrations 010, 023, 030)' },
  { file: 'server/resources/perms/perms.test.ts', why: 'the grant cache and its targeted invalidation by triggers (migrations 018, 025, 031)' },
  { file: 'server/resources/users/users.test.ts', why: 'organization membership denormalised by a trigger (migration 004)' },
  { file: 'server/security/sessions.test.ts', why: 'sessions saved by difference and ended by a trigger (migration 007), under concurrent requests' },
  { file: 'server/http/identity.test.ts', why: 'a request\'s identity (session, user, bindings) kept in memory only beside PGlite: on PostgreSQL read by every request, and a logout, a disable or a role change counts at once (issue 32)' },
  { file: 'server/security/multiprocess.test.ts', why: 'two server processes on one database: sessions, one-time codes, settings cache' },
  { file: 'server/realtime/socket.test.ts', why: 'site-message counts pushed to sockets through LISTEN/NOTIFY' },
  { file: 'server/tasks/runner.test.ts', why: 'the task queue: claims with FOR UPDATE SKIP LOCKED, leases, two runners on one database' },
  { file: 'server/tasks/processes.test.ts', why: 'task runners in separate processes' },
  { file: 'server/security/first-start.test.ts', why: 'two processes started at once on one empty database: the seed under the migration lock (issue 36)' },
  { file: 'server/tickets/tickets.test.ts', why: 'a ticket decided by another connection pool reaches the waiting gate through LISTEN/NOTIFY (issue 32)' },
  { file: 'server/cloud/schedule-processes.test.ts', why: 'a periodic cloud sync task fires once across two server instances, each its own connection pool, both finding it due at once (issue 37)' },
  { file: 'server/terminal/live-processes.test.ts', why: 'two server processes on one database: monitor, share, join and terminate reach the process holding the SSH session through LISTEN/NOTIFY; a dead process\'s sessions finished by the other once its lease expired (issue 31)' },
  { file: 'server/resources/terminal/replay-storage.test.ts', why: 'replay uploads to an S3 replay storage claimed with FOR UPDATE SKIP LOCKED, due times on the injected clock (issue 30)' },
  { file: 'server/tasks/api.test.ts', why: 'task executions, logs and schedules through the API, with the runner working beside it' },
]
