/**
 * Accounts, account templates, their readable secrets and the account automations (docs/accounts.md). The
 * resources are registered with every other one (RESOURCES, server/resources/index.ts); this module adds the
 * special routes: readable secrets, bulk creation, verify/push tasks.
 */
import type { FastifyInstance } from 'fastify'
import { accounts } from './accounts.ts'
import { backupPlans, changeSecretAutomations, gatherAutomations, pushAutomations } from './automations.ts'
import { registerBackup } from './backup.ts'
import { registerBulkAccounts } from './bulk.ts'
import { registerGatheredSync } from './gathered.ts'
import { automationRecords, backupExecutions, changeSecretExecutions, gatherExecutions, gatheredAccounts, pushExecutions } from './executions.ts'
import { registerAccountTasks } from './tasks.ts'
import './run.ts'
import { registerPendingSecretView, registerSecretView } from './secret-views.ts'
import { installAccountSealer } from './secrets.ts'
import { accountTemplates } from './templates.ts'

export const ACCOUNT_RESOURCES = [
  accountTemplates, accounts, pushAutomations, changeSecretAutomations, gatherAutomations, backupPlans,
  pushExecutions, changeSecretExecutions, gatherExecutions, backupExecutions, automationRecords, gatheredAccounts,
]

export async function registerAccounts(app: FastifyInstance): Promise<void> {
  installAccountSealer(app)
  registerBulkAccounts(app)
  registerBackup(app)
  registerGatheredSync(app)
  registerAccountTasks(app)
  registerSecretView(app, { path: '/api/v1/accounts/account-template-secrets/', def: accountTemplates, perm: 'accounts.view_accounttemplatesecret' })
  registerSecretView(app, { path: '/api/v1/accounts/account-secrets/', def: accounts, perm: 'accounts.view_accountsecret', histories: true })
  registerPendingSecretView(app, automationRecords, 'accounts.view_accountsecret')
}
