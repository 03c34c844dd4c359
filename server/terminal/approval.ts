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
