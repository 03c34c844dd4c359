/**
 * React bridge of the root app actor: components read slices of it (and of its children) with selectors
 * defined at module scope, and send events. No component owns application state.
 */
import { useSelector } from '@xstate/react'
import { createContext, useContext, type ReactNode } from 'react'
import type { ActorRefFrom, SnapshotFrom } from 'xstate'
import type { siteMessagesMachine, viewOrgMachine } from '../../machines/index.ts'
import type { AppActorRef, AppSnapshot } from './appMachine.ts'

const AppActorContext = createContext<AppActorRef | null>(null)

export function AppProvider({ app, children }: { app: AppActorRef; children: ReactNode }) {
  return <AppActorContext.Provider value={app}>{children}</AppActorContext.Provider>
}

export function useAppActor(): AppActorRef {
  const app = useContext(AppActorContext)
  if (!app) throw new Error('useAppActor outside <AppProvider>')
  return app
}

export function useAppSelector<T>(selector: (snapshot: AppSnapshot) => T, compare?: (a: T, b: T) => boolean): T {
  return useSelector(useAppActor(), selector, compare)
}

export type ViewOrgRef = ActorRefFrom<typeof viewOrgMachine>
export type ViewOrgSnapshot = SnapshotFrom<typeof viewOrgMachine>
export type SiteMessagesRef = ActorRefFrom<typeof siteMessagesMachine>
export type SiteMessagesSnapshot = SnapshotFrom<typeof siteMessagesMachine>

const selectViewOrgRef = (s: AppSnapshot) => s.children.viewOrg as ViewOrgRef | undefined
const selectSiteMessagesRef = (s: AppSnapshot) => s.children.siteMessages as SiteMessagesRef | undefined

/** A slice of the view/organization state (undefined snapshot before start-up is over). */
export function useViewOrg<T>(selector: (snapshot: ViewOrgSnapshot | undefined) => T, compare?: (a: T, b: T) => boolean): T {
  return useSelector(useAppSelector(selectViewOrgRef), selector as never, compare) as T
}

export function useSiteMessagesRef(): SiteMessagesRef | undefined {
  return useAppSelector(selectSiteMessagesRef)
}

export function useSiteMessages<T>(selector: (snapshot: SiteMessagesSnapshot | undefined) => T, compare?: (a: T, b: T) => boolean): T {
  return useSelector(useSiteMessagesRef(), selector as never, compare) as T
}
