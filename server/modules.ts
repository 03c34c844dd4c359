import type { FastifyInstance } from 'fastify'
import { registerAuth } from './auth/routes.ts'
import { registerStartup } from './startup/routes.ts'
import { registerResources } from './resources/index.ts'
import { registerRealtime } from './realtime/routes.ts'
import { registerTasks } from './tasks/routes.ts'
import { registerProxy } from './http/proxy.ts'
import { registerSettingsApi } from './settings/routes.ts'
import { registerComponentPages } from './http/component-pages.ts'
import { registerMail } from './mail/routes.ts'
import { registerLdap } from './ldap/routes.ts'
import { registerAccounts } from './resources/accounts/index.ts'
import { registerNotifications } from './notifications/routes.ts'
import { registerTools } from './tools/routes.ts'
import { registerSms } from './sms/routes.ts'
import { registerTerminalComponent } from './terminal/index.ts'
import { registerTickets } from './tickets/routes.ts'
import { registerJobs } from './jobs/routes.ts'

/** Every HTTP module of the server, in registration order. */
export async function registerModules(app: FastifyInstance): Promise<void> {
  if (app.services.config.jumpserverUrl) {
    await registerProxy(app)
    return
  }
  await registerAuth(app)
  await registerStartup(app)
  await registerResources(app)
  await registerAccounts(app)
  await registerTickets(app)
  registerSettingsApi(app)
  registerMail(app)
  registerLdap(app)
  registerNotifications(app)
  registerTools(app)
  registerSms(app)
  await registerRealtime(app)
  registerJobs(app)
  await registerTasks(app)
  registerTerminalComponent(app)
  registerComponentPages(app)
}
