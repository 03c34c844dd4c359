import { msg } from '@lingui/core/macro'
import type { RouteNode } from '../types.ts'
import { page, perm, view } from './helpers.ts'

const VIEW = 'tickets.view_ticket'
const flow = perm('tickets', 'ticketflow')
const underTickets = { hidden: true, activeMenu: '/tickets/my-tickets' }

/** Tickets view (licence + tickets.view_ticket): console-behaviour §3. */
export const ticketsRoutes: RouteNode = view('tickets', 'Tickets', msg`Tickets`, '/tickets/my-tickets', [
  page('my-tickets', 'MyTicketList', msg`My tickets`, [], { icon: 'ticket' }),
  page('assigned-tickets', 'AssignedTicketList', msg`Assigned tickets`, [], { icon: 'ticketAssigned' }),
  page('tickets/request-host-perm/create', 'RequestAssetPermTicketCreate', msg`Request asset permission`, [], underTickets),
  page('tickets/request-host-perm/:id', 'TicketDetail', msg`Ticket details`, [], underTickets),
  page('tickets/login-host-confirm/:id', 'LoginAssetTicketDetail', msg`Asset login review`, [], underTickets),
  page('tickets/login-confirm/:id', 'LoginTicketDetail', msg`Login review`, [], underTickets),
  page('tickets/command-confirm/:id', 'CommandConfirmTicketDetail', msg`Command review`, [], underTickets),
  page('tickets/:id', 'TicketDetailPage', msg`Ticket details`, [], underTickets),
  page('flow', 'TicketFlow', msg`Ticket flows`, [flow.view], {
    icon: 'flow',
    children: [
      page('create', 'TicketFlowCreate', msg`Create ticket flow`, [flow.add]),
      page(':id/update', 'TicketFlowUpdate', msg`Update ticket flow`, [flow.change]),
      page(':id', 'FlowDetail', msg`Ticket flow details`, [flow.view]),
    ],
  }),
], { permissions: [VIEW], licenseRequired: true, showOrganization: false })
