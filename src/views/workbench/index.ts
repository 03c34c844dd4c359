import type { PageRegistry } from '../../router/pages.ts'

/** Pages of the workbench view by route name (src/router/routes/workbench.ts). */
export const workbenchPages: PageRegistry = {
  MyHome: () => import('./MyHomePage.tsx').then((m) => m.MyHomePage),
  MyAssets: () => import('./MyAssetsPage.tsx').then((m) => m.MyAssetsPage),
}
