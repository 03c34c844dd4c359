/** The custom pages of accounts, templates and account automations (lazy imports; kinds not named get the generic page). */
import { lazyPage, resourcePages, type PagesOf } from '../../../router/resources.ts'
import type { ACCOUNT_ENTRIES } from './entries.ts'

export const ACCOUNT_PAGES: PagesOf<typeof ACCOUNT_ENTRIES> = {
  accounts: resourcePages({
    list: lazyPage(() => import('./AccountListPage.tsx'), 'AccountListPage'),
    form: lazyPage(() => import('./AccountPages.tsx'), 'AccountFormPage'),
    detail: lazyPage(() => import('./AccountPages.tsx'), 'AccountDetailPage'),
  }),
  'account-templates': resourcePages({
    list: lazyPage(() => import('./AccountListPage.tsx'), 'AccountTemplateListPage'),
    form: lazyPage(() => import('./AccountPages.tsx'), 'AccountTemplateFormPage'),
    detail: lazyPage(() => import('./AccountPages.tsx'), 'AccountTemplateDetailPage'),
  }),
  'account-push': resourcePages({
    list: lazyPage(() => import('./AutomationListPage.tsx'), 'PushListPage'),
    detail: lazyPage(() => import('./AutomationPages.tsx'), 'PushDetailPage'),
  }),
  'account-push-executions': resourcePages({
    list: lazyPage(() => import('./AutomationListPage.tsx'), 'PushExecutionListPage'),
    detail: lazyPage(() => import('./AutomationPages.tsx'), 'PushExecutionDetailPage'),
  }),
  'account-change-secret': resourcePages({
    list: lazyPage(() => import('./AutomationListPage.tsx'), 'ChangeSecretListPage'),
    detail: lazyPage(() => import('./AutomationPages.tsx'), 'ChangeSecretDetailPage'),
  }),
  'account-change-secret-executions': resourcePages({
    list: lazyPage(() => import('./AutomationListPage.tsx'), 'ChangeSecretExecutionListPage'),
    detail: lazyPage(() => import('./AutomationPages.tsx'), 'ChangeSecretExecutionDetailPage'),
  }),
  'account-gather': resourcePages({
    list: lazyPage(() => import('./AutomationListPage.tsx'), 'GatherListPage'),
    detail: lazyPage(() => import('./AutomationPages.tsx'), 'GatherDetailPage'),
  }),
  'account-gather-executions': resourcePages({
    list: lazyPage(() => import('./AutomationListPage.tsx'), 'GatherExecutionListPage'),
    detail: lazyPage(() => import('./AutomationPages.tsx'), 'GatherExecutionDetailPage'),
  }),
  'account-backup': resourcePages({
    list: lazyPage(() => import('./AutomationListPage.tsx'), 'BackupListPage'),
    detail: lazyPage(() => import('./AutomationPages.tsx'), 'BackupDetailPage'),
  }),
  'account-backup-executions': resourcePages({
    list: lazyPage(() => import('./AutomationListPage.tsx'), 'BackupExecutionListPage'),
    detail: lazyPage(() => import('./AutomationPages.tsx'), 'BackupExecutionDetailPage'),
  }),
}
