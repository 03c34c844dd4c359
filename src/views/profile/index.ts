import { lazyPage, type PageRegistry } from '../../router/resources.ts'

/** Pages of the profile view by route name (see src/router/routes/profile.ts); others show the landing page. */
export const profilePages: PageRegistry = {
  ConnectionToken: lazyPage(() => import('./ConnectionTokensPage.tsx'), 'ConnectionTokensPage'),
  ProfileImprovement: lazyPage(() => import('./improvement/ProfileImprovementPage.tsx'), 'ProfileImprovementPage'),
}
