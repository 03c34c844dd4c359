import type { DB } from '../db/connection.ts'

export type Lang = 'en' | 'zh' | 'ja'

export interface SessionData {
  userId?: string
  /** Organization chosen for page requests (contract §1.6 resolution step 4). */
  oid?: string
  privateKey?: string
  publicKeyCookie?: string
  loginAt?: number
  /** Username + password passed, second factor pending. */
  mfaPending?: { userId: string; at: number; next?: string; passwordOk?: boolean }
  /** Latest user confirmation (contract §4.16): level 1 relogin, 2 password, 3 mfa. */
  confirm?: { level: number; at: number }
  smsCode?: { code: string; at: number }
  [key: string]: unknown
}

export interface Session {
  id: string
  data: SessionData
  /** Top-level keys of `data` this request set or deleted (the save writes only these). */
  changed: Set<string>
  isNew: boolean
  dirty: boolean
  /** Marks the session for deletion at the end of the request (logout). */
  destroyed: boolean
}

export interface AuthUser {
  id: string
  username: string
  name: string
  email: string
  is_active: boolean
  source: string
  is_first_login: boolean
  date_expired: Date | null
}

export interface RequestContext {
  db: DB
  session: Session | null
  user: AuthUser | null
  authBy: 'session' | 'bearer' | 'token' | 'signature' | null
  /** Resolved organization id (ROOT is the all-zero id). */
  orgId: string
  tz: string
  lang: Lang
  ip: string
  /** Permissions of the user in `orgId` (memoised per request). */
  perms(): Promise<Set<string>>
  /** Permissions of the user in another organization. */
  permsIn(orgId: string): Promise<Set<string>>
}

declare module 'fastify' {
  interface FastifyRequest {
    ctx: RequestContext
  }
}
