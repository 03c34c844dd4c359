/**
 * What the signed-in user may do where they are: permissions valid in the current organization, the
 * organization, and who they are. The app shell provides it (from its root actor); generic pages read it.
 */
import { createContext, useContext, type ReactNode } from 'react'
import { ROOT_ORG_ID } from '../../api/client.ts'
import type { PermSet } from './perms.ts'

export interface Access {
  perms: PermSet
  orgId: string | undefined
  userId: string | undefined
  /** holds the built-in SystemAdmin role */
  isSystemAdmin: boolean
}

export const NO_ACCESS: Access = { perms: new Set(), orgId: undefined, userId: undefined, isSystemAdmin: false }

const AccessContext = createContext<Access>(NO_ACCESS)

export function AccessProvider({ value, children }: { value: Access; children: ReactNode }) {
  return <AccessContext.Provider value={value}>{children}</AccessContext.Provider>
}

export function useAccess(): Access {
  return useContext(AccessContext)
}

export function isRootOrg(access: Pick<Access, 'orgId'>): boolean {
  return access.orgId === ROOT_ORG_ID
}
