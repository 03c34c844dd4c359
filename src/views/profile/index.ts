import type { PageRegistry } from '../../router/pages.ts'

/** Pages of the profile view by route name (see src/router/routes/profile.ts); others show the landing page. */
export const profilePages: PageRegistry = {
  ConnectionToken: () => import('./ConnectionTokensPage.tsx').then((m) => m.ConnectionTokensPage),
  ProfileImprovement: () => import('./improvement/ProfileImprovementPage.tsx').then((m) => m.ProfileImprovementPage),
}
