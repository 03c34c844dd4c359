import { lazyPage, type PageRegistry } from '../../router/resources.ts'

/** Pages of the workbench view by route name (src/router/routes/workbench.ts). */
export const workbenchPages: PageRegistry = {
  MyHome: lazyPage(() => import('./MyHomePage.tsx'), 'MyHomePage'),
  MyAssets: lazyPage(() => import('./MyAssetsPage.tsx'), 'MyAssetsPage'),
  FileManager: lazyPage(() => import('./FileManagerPage.tsx'), 'FileManagerPage'),
  QuickJob: lazyPage(() => import('./jobs/QuickJobPage.tsx'), 'QuickJobPage'),
  JobList: lazyPage(() => import('./jobs/JobPages.tsx'), 'JobListPage'),
  JobCreate: lazyPage(() => import('./jobs/JobPages.tsx'), 'JobFormPage'),
  JobUpdate: lazyPage(() => import('./jobs/JobPages.tsx'), 'JobFormPage'),
  JobDetail: lazyPage(() => import('./jobs/JobPages.tsx'), 'JobDetailPage'),
  ExecutionList: lazyPage(() => import('./jobs/JobPages.tsx'), 'ExecutionListPage'),
  ExecutionDetail: lazyPage(() => import('./jobs/JobPages.tsx'), 'ExecutionDetailPage'),
  Template: lazyPage(() => import('./jobs/TemplatePages.tsx'), 'TemplatesPage'),
  AdhocCreate: lazyPage(() => import('./jobs/TemplatePages.tsx'), 'AdhocFormPage'),
  AdhocUpdate: lazyPage(() => import('./jobs/TemplatePages.tsx'), 'AdhocFormPage'),
  AdhocDetail: lazyPage(() => import('./jobs/TemplatePages.tsx'), 'AdhocFormPage'),
  PlaybookCreate: lazyPage(() => import('./jobs/TemplatePages.tsx'), 'PlaybookCreatePage'),
  PlaybookUpdate: lazyPage(() => import('./jobs/TemplatePages.tsx'), 'PlaybookEditorPage'),
  PlaybookDetail: lazyPage(() => import('./jobs/TemplatePages.tsx'), 'PlaybookEditorPage'),
}
