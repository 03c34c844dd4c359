import { lazyPage, type PageRegistry } from '../../router/resources.ts'

/** Pages of the profile view by route name (see src/router/routes/profile.ts); others show the landing page. */
export const profilePages: PageRegistry = {
  ProfileInfo: lazyPage(() => import('./ProfileInfoPage.tsx'), 'ProfileInfoPage'),
  ProfileSetting: lazyPage(() => import('./PreferencesPage.tsx'), 'PreferencesPage'),
  ApiKey: lazyPage(() => import('./ApiKeysPage.tsx'), 'ApiKeysPage'),
  TempPassword: lazyPage(() => import('./TempPasswordPage.tsx'), 'TempPasswordPage'),
  ConnectionToken: lazyPage(() => import('./ConnectionTokensPage.tsx'), 'ConnectionTokensPage'),
  ProfileImprovement: lazyPage(() => import('./improvement/ProfileImprovementPage.tsx'), 'ProfileImprovementPage'),
}
