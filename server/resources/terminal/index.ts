/** The terminal module: component API, replay storage, my-* lists, the dashboard figures, log retention. */
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { resourceApi } from '../../engine/index.ts'
import { requireUser } from '../../http/context.ts'
import { addCleanRule } from '../../tasks/cleanup.ts'
import { registerComponentRoutes, replayDir } from './components.ts'
import { registerDashboard } from './dashboard.ts'
import { commands, ftpLogs, loginLogs, passwordChangeLogs, sessions, terminals } from './resources.ts'
import { applets } from './applets.ts'
import { APPLET_HOST_RESOURCES } from './applet-hosts.ts'
import { commandStorages, endpointRules, endpoints, registerEndpointRoutes, replayStorages } from './storages.ts'
import { storageTreeAction } from './storage-tree.ts'
import { replayUploads } from './replay-remote.ts'
import { sessionJoinRecords, sessionSharings } from './sharing.ts'

export { commands, ftpLogs, loginLogs, passwordChangeLogs, sessions, terminals }

// lina's commands page reads the command storages as a tree first
commandStorages.actions = [...(commandStorages.actions ?? []), storageTreeAction(commands)]

/** Resources of this module, registered through RESOURCES (server/resources/index.ts). */
export const TERMINAL_RESOURCES = [terminals, sessions, commands, ftpLogs, loginLogs, passwordChangeLogs,
  replayStorages, commandStorages, endpoints, endpointRules, applets, ...APPLET_HOST_RESOURCES, sessionSharings, sessionJoinRecords]

/** Replay directory per database handle (the clean-up task knows its database, not the app's configuration). */
const replayRoots = new WeakMap<object, string>()

// Retention (the Clean settings), applied by the daily clean-up task (server/tasks/cleanup.ts).
addCleanRule({ label: 'FTP logs', table: 'ftp_logs', column: 'date_start', setting: 'FTP_LOG_KEEP_DAYS' })
// A deleted session's replay file goes with it (rows first: a file left by a failure is garbage, never a
// session pointing at a missing file).
addCleanRule({
  label: 'finished sessions', table: 'terminal_sessions', column: 'date_start', setting: 'TERMINAL_SESSION_KEEP_DURATION', where: 'is_finished',
  returning: ['id', 'replay_path'],
  afterDelete: async (rows, ctx) => {
    const root = replayRoots.get(ctx.db)
    const files = rows.map((r) => r.replay_path).filter((p): p is string => typeof p === 'string' && p !== '')
    if (!root || !files.length) return
    let failed = 0
    for (const p of files) {
      // Paths are `<day>/<id>.cast.gz` as the upload wrote them; anything else is not ours to delete.
      if (!/^\d{4}-\d{2}-\d{2}\/[0-9a-f-]{36}\.cast\.gz$/.test(p)) continue
      await rm(join(root, p), { force: true }).catch(() => { failed++ })
    }
    await ctx.log(`  removed ${files.length - failed} replay files${failed ? ` (${failed} could not be removed)` : ''}`)
  },
})
addCleanRule({ label: 'commands', table: 'commands', column: 'datetime', setting: 'TERMINAL_SESSION_KEEP_DURATION' })
addCleanRule({ label: 'finished component tasks', table: 'terminal_tasks', column: 'date_created', setting: 'TASK_LOG_KEEP_DAYS' })

export async function registerTerminal(app: FastifyInstance): Promise<void> {
  const root = replayDir(app.services.config.dataDir)
  replayRoots.set(app.services.database, root)
  replayRoots.set(app.services.database.db, root)
  // replays queued for a replay storage with a backend (S3 family, azure) are uploaded in the background (replay-remote.ts)
  const uploads = replayUploads(app)
  app.addHook('onReady', async () => uploads.start())
  app.addHook('onClose', async () => { await uploads.stop() })
  await registerComponentRoutes(app)
  await registerEndpointRoutes(app)
  await registerDashboard(app)
  // The user's own login logs (any authenticated user).
  for (const url of ['/api/v1/audits/my-login-logs/', '/api/v1/audits/my-login-logs']) {
    app.get(url, async (req) => {
      const user = requireUser(req)
      return resourceApi(loginLogs).listResponse(req, { extra: sql`t.username = ${user.username}` })
    })
  }
}
