/** The terminal module: component API, replay storage, my-* lists, the dashboard figures, log retention. */
import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { resourceApi } from '../../engine/index.ts'
import { requireUser } from '../../http/context.ts'
import { addCleanRule } from '../../tasks/cleanup.ts'
import { registerComponentRoutes } from './components.ts'
import { registerDashboard } from './dashboard.ts'
import { commands, ftpLogs, loginLogs, passwordChangeLogs, sessions, terminals } from './resources.ts'

export { commands, ftpLogs, loginLogs, passwordChangeLogs, sessions, terminals }

/** Resources of this module, registered through RESOURCES (server/resources/index.ts). */
export const TERMINAL_RESOURCES = [terminals, sessions, commands, ftpLogs, loginLogs, passwordChangeLogs]

// Retention (the Clean settings), applied by the daily clean-up task (server/tasks/cleanup.ts).
addCleanRule({ label: 'FTP logs', table: 'ftp_logs', column: 'date_start', setting: 'FTP_LOG_KEEP_DAYS' })
addCleanRule({ label: 'finished sessions', table: 'terminal_sessions', column: 'date_start', setting: 'TERMINAL_SESSION_KEEP_DURATION', where: 'is_finished' })
addCleanRule({ label: 'commands', table: 'commands', column: 'datetime', setting: 'TERMINAL_SESSION_KEEP_DURATION' })
addCleanRule({ label: 'finished component tasks', table: 'terminal_tasks', column: 'date_created', setting: 'TASK_LOG_KEEP_DAYS' })

export async function registerTerminal(app: FastifyInstance): Promise<void> {
  await registerComponentRoutes(app)
  await registerDashboard(app)
  // The user's own login logs (any authenticated user).
  for (const url of ['/api/v1/audits/my-login-logs/', '/api/v1/audits/my-login-logs']) {
    app.get(url, async (req) => {
      const user = requireUser(req)
      return resourceApi(loginLogs).listResponse(req, { extra: sql`t.username = ${user.username}` })
    })
  }
}
