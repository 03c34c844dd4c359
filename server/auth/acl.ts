import type { FastifyInstance, FastifyRequest } from 'fastify'

/**
 * Hook for login ACLs (a later issue): called after the password (and before MFA) for every web and token
 * login. The ACL module replaces `app.loginAclCheck` in its register function. `reject` ends the attempt
 * with 400 code `acl_rejected` and a login log with reason "ACL is not allowed".
 */
export type LoginAclDecision =
  | { action: 'accept' }
  | { action: 'reject'; message?: string }
  /** A web login waits for one of the reviewers (a login_confirm ticket: server/tickets/login-confirm.ts). */
  | { action: 'review'; reviewerIds: string[] }

export interface LoginAclSubject {
  userId: string
  username: string
  ip: string
  type: 'W' | 'T'
}

export type LoginAclCheck = (req: FastifyRequest, subject: LoginAclSubject) => Promise<LoginAclDecision>

declare module 'fastify' {
  interface FastifyInstance {
    loginAclCheck: LoginAclCheck
  }
}

export const acceptAll: LoginAclCheck = async () => ({ action: 'accept' })

export function installLoginAclHook(app: FastifyInstance): void {
  if (!app.hasDecorator('loginAclCheck')) app.decorate('loginAclCheck', acceptAll)
}
