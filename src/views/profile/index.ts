import type { PageRegistry } from '../../router/pages.ts'

/** Pages of the profile view by route name (see src/router/routes/profile.ts); others show the landing page. */
export const profilePages: PageRegistry = {
  // issue 34: the user menu's profile pages (kept together for the per-feature entries move)
  ProfileInfo: () => import('./ProfileInfoPage.tsx').then((m) => m.ProfileInfoPage),
  ProfileSetting: () => import('./PreferencesPage.tsx').then((m) => m.PreferencesPage),
  ApiKey: () => import('./ApiKeysPage.tsx').then((m) => m.ApiKeysPage),
  TempPassword: () => import('./TempPasswordPage.tsx').then((m) => m.TempPasswordPage),
  ConnectionToken: () => import('./ConnectionTokensPage.tsx').then((m) => m.ConnectionTokensPage),
  ProfileImprovement: () => import('./improvement/ProfileImprovementPage.tsx').then((m) => m.ProfileImprovementPage),
}
