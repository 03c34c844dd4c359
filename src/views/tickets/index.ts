import type { PageRegistry } from '../../router/pages.ts'

/**
 * Pages of the tickets view by route name (src/router/routes/tickets.ts; docs/tickets.md). Grouped here so the
 * lead can move them into the feature's entries.ts.
 */
export const ticketsPages: PageRegistry = {
  MyTicketList: () => import('./TicketListPages.tsx').then((m) => m.MyTicketListPage),
  AssignedTicketList: () => import('./TicketListPages.tsx').then((m) => m.AssignedTicketListPage),
  RequestAssetPermTicketCreate: () => import('./RequestAssetPage.tsx').then((m) => m.RequestAssetPage),
  TicketDetail: () => import('./TicketDetailPage.tsx').then((m) => m.AssetTicketDetailPage),
  LoginAssetTicketDetail: () => import('./TicketDetailPage.tsx').then((m) => m.LoginAssetTicketDetailPage),
  LoginTicketDetail: () => import('./TicketDetailPage.tsx').then((m) => m.LoginTicketDetailPage),
  CommandConfirmTicketDetail: () => import('./TicketDetailPage.tsx').then((m) => m.CommandTicketDetailPage),
  TicketDetailPage: () => import('./TicketDetailPage.tsx').then((m) => m.AnyTicketDetailPage),
  TicketFlow: () => import('./FlowPages.tsx').then((m) => m.FlowListPage),
  // Flows are not created (JumpServer: every type has the root's; an organization edits its copy): the list.
  TicketFlowCreate: () => import('./FlowPages.tsx').then((m) => m.FlowListPage),
  TicketFlowUpdate: () => import('./FlowPages.tsx').then((m) => m.FlowEditPage),
  FlowDetail: () => import('./FlowPages.tsx').then((m) => m.FlowEditPage),
}
