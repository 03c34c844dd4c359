import { lazyPage, type PageRegistry } from '../../router/resources.ts'

/** Pages of the workbench view by route name (src/router/routes/workbench.ts). */
export const workbenchPages: PageRegistry = {
  MyHome: lazyPage(() => import('./MyHomePage.tsx'), 'MyHomePage'),
  MyAssets: lazyPage(() => import('./MyAssetsPage.tsx'), 'MyAssetsPage'),
  FileManager: lazyPage(() => import('./FileManagerPage.tsx'), 'FileManagerPage'),
  QuickJob: lazyPage(() => import('./jobs/QuickJobPage.tsx'), 'QuickJobPage'),
}
