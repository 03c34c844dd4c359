/**
 * Approval gates of the built-in terminal (issue 30): a login asset ACL or a command filter ACL with the action
 * `review` makes the connection (or the command) wait for a ticket. The tickets module installs a gate with
 * `setApprovalGate`; without one, review refuses with "needs approval" (`needs_approval`).
 */

export interface ApprovalRequest {
  kind: 'login_asset' | 'command'
  orgId: string
  userId: string
  assetId: string
  accountId: string | null
  accountName: string
  aclId: string
  aclName: string
  reviewerIds: string[]
  sessionId?: string
  command?: string
  remoteAddr?: string
  loginFrom: 'WT' | 'ST'
}

export interface ApprovalHandle {
  ticketId: string
  decision: Promise<'approved' | 'rejected' | 'closed'>
  cancel(): Promise<void>
}

export type ApprovalGate = (req: ApprovalRequest) => Promise<ApprovalHandle>

let gate: ApprovalGate | undefined

export function setApprovalGate(next: ApprovalGate | undefined): void {
  gate = next
}

export function getApprovalGate(): ApprovalGate | undefined {
  return gate
}

/**
 * A ticket opened before the connection: a connection token asked with `?create_ticket=1` under a login review
 * (the token is inactive until the ticket's final approval activates it). The web terminal's `connect` on such a
 * token waits on it: `reviewers` are the ticket's assignees' names; `decision` resolves with the decision and who
 * made it (the rejecting reviewers); `cancel()` closes the ticket.
 */
export interface TicketWaitHandle {
  reviewers: string[]
  decision: Promise<{ decision: 'approved' | 'rejected' | 'closed'; by: string[] }>
  cancel(): Promise<void>
}

export type TicketWaiter = (ticketId: string) => Promise<TicketWaitHandle>

let waiter: TicketWaiter | undefined

export function setTicketWaiter(next: TicketWaiter | undefined): void {
  waiter = next
}

export function getTicketWaiter(): TicketWaiter | undefined {
  return waiter
}
