import type { FastifyInstance } from 'fastify'
import { installLoginAclHook } from './acl.ts'
import { registerConfirm } from './confirm-routes.ts'
import { registerLogin } from './login.ts'
import { registerLogout } from './logout.ts'
import { registerOidc } from './oidc.ts'
import './messages.ts'
import { installSmsBackend } from './sms.ts'
import { registerTokens } from './tokens.ts'

/** login, logout, tokens, MFA, confirm. */
export async function registerAuth(app: FastifyInstance): Promise<void> {
  installLoginAclHook(app)
  installSmsBackend(app)
  registerLogin(app)
  registerLogout(app)
  registerTokens(app)
  registerConfirm(app)
  registerOidc(app)
}
