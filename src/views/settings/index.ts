import { lazyPage, type PageRegistry } from '../../router/resources.ts'

/**
 * Pages of the settings view by route name (see src/router/routes/settings.ts). Routes not listed here show the landing
 * placeholder until their page is built: add `RouteName: lazyPage(() => import('./area/XPage.tsx'), 'XPage')`.
 */
export const settingsPages: PageRegistry = {
  Basic: lazyPage(() => import('./SettingsPages.tsx'), 'BasicSettingsPage'),
  Security: lazyPage(() => import('./SettingsPages.tsx'), 'SecuritySettingsPage'),
  Clean: lazyPage(() => import('./SettingsPages.tsx'), 'CleanSettingsPage'),
  Email: lazyPage(() => import('./MailLdapPages.tsx'), 'EmailSettingsPage'),
  LdapSetting: lazyPage(() => import('./MailLdapPages.tsx'), 'LdapSettingsPage'),
  Auth: lazyPage(() => import('./MoreSettingsPages.tsx'), 'AuthSettingsPage'),
  SMS: lazyPage(() => import('./MoreSettingsPages.tsx'), 'SmsSettingsPage'),
  InterfaceSettings: lazyPage(() => import('./MoreSettingsPages.tsx'), 'InterfaceSettingsPage'),
  Applets: lazyPage(() => import('./applets/AppletsPage.tsx'), 'AppletsPage'),
  TerminalSetting: lazyPage(() => import('./terminal/TerminalSettingsPage.tsx'), 'TerminalSettingsPage'),
  Other: lazyPage(() => import('./MoreSettingsPages.tsx'), 'OtherSettingsPage'),
  Message: lazyPage(() => import('./MessageSubscriptionPage.tsx'), 'MessageSubscriptionPage'),
  Tools: lazyPage(() => import('./ToolsPage.tsx'), 'ToolsPage'),
  License: lazyPage(() => import('./LicensePage.tsx'), 'LicensePage'),
  TaskList: lazyPage(() => import('./tasks/TaskPages.tsx'), 'TaskListPage'),
  TaskDetail: lazyPage(() => import('./tasks/TaskPages.tsx'), 'TaskDetailPage'),
}
