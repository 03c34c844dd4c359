import type { PageRegistry } from '../../router/pages.ts'

/**
 * Pages of the settings view by route name (see src/router/routes/settings.ts). Routes not listed here show the landing
 * placeholder until their page is built: add `RouteName: () => import('./area/XPage.tsx').then((m) => m.XPage)`.
 */
export const settingsPages: PageRegistry = {
  Basic: () => import('./SettingsPages.tsx').then((m) => m.BasicSettingsPage),
  Security: () => import('./SettingsPages.tsx').then((m) => m.SecuritySettingsPage),
  Clean: () => import('./SettingsPages.tsx').then((m) => m.CleanSettingsPage),
  Email: () => import('./MailLdapPages.tsx').then((m) => m.EmailSettingsPage),
  LdapSetting: () => import('./MailLdapPages.tsx').then((m) => m.LdapSettingsPage),
  Auth: () => import('./MoreSettingsPages.tsx').then((m) => m.AuthSettingsPage),
  SMS: () => import('./MoreSettingsPages.tsx').then((m) => m.SmsSettingsPage),
  InterfaceSettings: () => import('./MoreSettingsPages.tsx').then((m) => m.InterfaceSettingsPage),
  Applets: () => import('./applets/AppletsPage.tsx').then((m) => m.AppletsPage),
  TerminalSetting: () => import('./terminal/TerminalSettingsPage.tsx').then((m) => m.TerminalSettingsPage),
  Other: () => import('./MoreSettingsPages.tsx').then((m) => m.OtherSettingsPage),
  Message: () => import('./MessageSubscriptionPage.tsx').then((m) => m.MessageSubscriptionPage),
  Tools: () => import('./ToolsPage.tsx').then((m) => m.ToolsPage),
  License: () => import('./LicensePage.tsx').then((m) => m.LicensePage),
  TaskList: () => import('./tasks/TaskPages.tsx').then((m) => m.TaskListPage),
  TaskDetail: () => import('./tasks/TaskPages.tsx').then((m) => m.TaskDetailPage),
}
