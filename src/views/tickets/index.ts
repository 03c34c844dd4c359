import { lazyPage, type PageRegistry } from '../../router/resources.ts'

/**
 * Pages of the tickets view by route name (src/router/routes/tickets.ts; docs/tickets.md).
 */
export const ticketsPages: PageRegistry = {
  MyTicketList: lazyPage(() => import('./TicketListPages.tsx'), 'MyTicketListPage'),
  AssignedTicketList: lazyPage(() => import('./TicketListPages.tsx'), 'AssignedTicketListPage'),
  RequestAssetPermTicketCreate: lazyPage(() => import('./RequestAssetPage.tsx'), 'RequestAssetPage'),
  TicketDetail: lazyPage(() => import('./TicketDetailPage.tsx'), 'AssetTicketDetailPage'),
  LoginAssetTicketDetail: lazyPage(() => import('./TicketDetailPage.tsx'), 'LoginAssetTicketDetailPage'),
  LoginTicketDetail: lazyPage(() => import('./TicketDetailPage.tsx'), 'LoginTicketDetailPage'),
  CommandConfirmTicketDetail: lazyPage(() => import('./TicketDetailPage.tsx'), 'CommandTicketDetailPage'),
  TicketDetailPage: lazyPage(() => import('./TicketDetailPage.tsx'), 'AnyTicketDetailPage'),
  TicketFlow: lazyPage(() => import('./FlowPages.tsx'), 'FlowListPage'),
  // Flows are not created (JumpServer: every type has the root's; an organization edits its copy): the list.
  TicketFlowCreate: lazyPage(() => import('./FlowPages.tsx'), 'FlowListPage'),
  TicketFlowUpdate: lazyPage(() => import('./FlowPages.tsx'), 'FlowEditPage'),
  FlowDetail: lazyPage(() => import('./FlowPages.tsx'), 'FlowEditPage'),
}
