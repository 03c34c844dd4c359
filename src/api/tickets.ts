import { ApiError, request, silent } from './client.ts'

export const TICKETS_URL = '/api/v1/tickets/tickets/'

/**
 * Open tickets waiting for this user (contract §4.15), for the header badge. Quiet: a server without the tickets
 * endpoint (404) or a user who may not list them (403) simply has no badge.
 */
export async function fetchAssignedOpenCount(userId: string, signal?: AbortSignal): Promise<number> {
  try {
    const page = await request<{ count?: unknown }>('get', TICKETS_URL, silent({
      signal,
      // only the count is shown: one row of one field (no applicant, no process map to read); lina asks a page of
      // 15 for the same number
      searchParams: { assignees__id: userId, status: 'open', offset: 0, limit: 1, fields: 'id' },
    }))
    return typeof page?.count === 'number' ? page.count : 0
  } catch (e) {
    if (e instanceof ApiError && (e.status === 404 || e.status === 403)) return 0
    throw e
  }
}

// ── Tickets (issue 32; docs/tickets.md) ──

export const TICKET_TYPE_URLS = {
  apply_asset: '/api/v1/tickets/apply-asset-tickets/',
  login_confirm: '/api/v1/tickets/apply-login-tickets/',
  login_asset_confirm: '/api/v1/tickets/apply-login-asset-tickets/',
  command_confirm: '/api/v1/tickets/apply-command-tickets/',
} as const
export type TicketType = keyof typeof TICKET_TYPE_URLS
export const TICKET_FLOWS_URL = '/api/v1/tickets/flows/'
export const TICKET_COMMENTS_URL = '/api/v1/tickets/comments/'

export interface Labeled { value: string; label: string }
export interface TicketStep {
  state: string
  approval_level: number
  assignees: string[]
  assignees_display: string[]
  processor: string | null
  processor_display: string
  approval_date: string | null
}
export interface Ticket {
  id: string
  title: string
  type: Labeled
  state: Labeled
  status: Labeled
  serial_num: string
  applicant: { id: string; name: string; username: string } | null
  approval_step: { value: number; label: string }
  process_map: TicketStep[]
  comment: string
  org_id: string
  org_name: string
  date_created: string
  [field: string]: unknown
}
export interface TicketComment { id: string; body: string; type: 'state' | 'common'; user: string | null; user_display: string; date_created: string }

export function fetchTicket(type: TicketType, id: string, signal?: AbortSignal): Promise<Ticket> {
  return request<Ticket>('get', `${TICKET_TYPE_URLS[type]}${encodeURIComponent(id)}/`, silent({ signal }))
}
/** Any ticket of the caller, whatever its type (to find which typed page shows it). */
export function fetchAnyTicket(id: string, signal?: AbortSignal): Promise<Ticket> {
  return request<Ticket>('get', `${TICKETS_URL}${encodeURIComponent(id)}/`, silent({ signal }))
}
export function fetchComments(ticketId: string, signal?: AbortSignal): Promise<TicketComment[]> {
  return request<TicketComment[]>('get', TICKET_COMMENTS_URL, silent({ signal, searchParams: { ticket_id: ticketId } }))
}
export function postComment(ticketId: string, body: string): Promise<TicketComment> {
  return request<TicketComment>('post', TICKET_COMMENTS_URL, silent({ searchParams: { ticket_id: ticketId }, json: { body, ticket: ticketId } }))
}
/** Approve (optionally with an asset request's edits: PATCH, as lina), reject or close. */
export async function ticketAction(type: TicketType, id: string, action: 'approve' | 'reject' | 'close', edits?: Record<string, unknown>): Promise<void> {
  const url = `${TICKET_TYPE_URLS[type]}${encodeURIComponent(id)}/${action}/`
  await request<unknown>(edits ? 'patch' : 'put', url, silent(edits ? { json: edits } : {}))
}
export interface AssetRequest {
  title: string
  org_id: string
  apply_nodes: string[]
  apply_assets: string[]
  apply_accounts: string[]
  apply_actions: string[]
  apply_date_start: string
  apply_date_expired: string
  comment: string
}
export function openAssetRequest(body: AssetRequest): Promise<Ticket> {
  return request<Ticket>('post', `${TICKET_TYPE_URLS.apply_asset}open/`, silent({ json: body }))
}
export interface FlowRule { level: number; strategy: Labeled; assignees_read_only: string[]; assignees_display: string[] }
export interface TicketFlow { id: string; type: Labeled; approval_level: number; rules: FlowRule[]; org_id: string; org_name: string }
export function fetchFlow(id: string, signal?: AbortSignal): Promise<TicketFlow> {
  return request<TicketFlow>('get', `${TICKET_FLOWS_URL}${encodeURIComponent(id)}/`, silent({ signal }))
}
export function saveFlow(id: string, body: { approval_level: number; rules: { strategy: string; assignees: string[] }[] }): Promise<TicketFlow> {
  return request<TicketFlow>('put', `${TICKET_FLOWS_URL}${encodeURIComponent(id)}/`, silent({ json: body }))
}
