/** The console route of a ticket's detail page by type (the reference's paths; route catalogue "Tickets"). */
import type { TicketType } from '../../api/tickets.ts'

export const TICKET_DETAIL_PATHS: Record<TicketType, string> = {
  apply_asset: '/tickets/tickets/request-host-perm/:id',
  login_confirm: '/tickets/tickets/login-confirm/:id',
  login_asset_confirm: '/tickets/tickets/login-host-confirm/:id',
  command_confirm: '/tickets/tickets/command-confirm/:id',
}

/** Route name → the ticket type its detail page shows (TicketDetailPage: any type, looked up). */
export const DETAIL_ROUTE_TYPES: Record<string, TicketType | undefined> = {
  TicketDetail: 'apply_asset', LoginTicketDetail: 'login_confirm', LoginAssetTicketDetail: 'login_asset_confirm', CommandConfirmTicketDetail: 'command_confirm',
}

export const detailPathOf = (type: string, id: string) =>
  (TICKET_DETAIL_PATHS[type as TicketType] ?? '/tickets/tickets/:id').replace(':id', encodeURIComponent(id))
