/**
 * Creates the root app actor with its real side effects: src/api calls, cookies, localStorage, navigation to
 * server pages. Created before the router (main.tsx); the router context and the React bridge hold its ref.
 */
import Cookies from 'js-cookie'
import { createActor, fromCallback, fromPromise, waitFor, type ActorRefFrom } from 'xstate'
import { SESSION_MARK_COOKIE, sessionMarkMachine, sessionRefreshMachine, siteMessagesMachine, startupMachine, viewOrgMachine } from '../../machines/index.ts'
import type { Org, SocketEvent, UserProfile, ViewName } from '../../machines/index.ts'
import { DEFAULT_ORG_ID, isProfileUrl, onApiActivity, setErrorNotifier, setOrgSource, setUnauthorizedHandler } from '../api/client.ts'
import { fetchLicense } from '../api/license.ts'
import { endServerSession, fetchProfile } from '../api/profile.ts'
import { fetchOpenSettings, fetchPublicSettings } from '../api/settings.ts'
import { fetchUnreadMessages, markAllMessagesRead, markMessagesRead, openSiteMessageSocket } from '../api/siteMessages.ts'
import { fetchAssignedOpenCount } from '../api/tickets.ts'
import { askRelogin, showError } from '../ui/feedback/feedback.ts'
import { appMachine, type AppActorRef, type AppSnapshot } from './appMachine.ts'
import { cookieOrgId, readPersisted, refreshMarkWhenIdle, writePersisted } from './persist.ts'
import { applyInterface } from './branding.ts'

export const LOGIN_PATH = '/core/auth/login/'
export const LOGOUT_PATH = '/core/auth/logout/'
/** Spec 000 §4.1: the profile 401/403 goes to the login page after 100 ms. */
const LOGIN_DELAY_MS = 100

/** The current location inside the console (with the /ui base), for `next=`. */
function here(): string {
  return window.location.pathname + window.location.search
}
export const loginUrl = () => `${LOGIN_PATH}?next=${encodeURIComponent(here())}`
export const logoutUrl = () => `${LOGOUT_PATH}?next=${encodeURIComponent(here())}`

/** Router path (without /ui) of the page the browser opened. */
export function routerPath(pathname = window.location.pathname): string {
  const path = pathname.replace(/^\/ui(?=\/|$)/, '')
  return path === '' ? '/' : path
}

const viewOrgOf = (snapshot: AppSnapshot) => snapshot.children.viewOrg as ActorRefFrom<typeof viewOrgMachine> | undefined

let preferencesSynced = false
/**
 * Once per start of a signed-in console, for every user, when the browser is first idle: the user's console
 * preferences (src/app/preferences.ts). (It rode on the licence's load, which only users who see the licence make:
 * an ordinary user's preferences did not follow them to another browser.)
 */
function syncPreferencesOnce(): void {
  if (preferencesSynced) return
  preferencesSynced = true
  void whenIdle().then(() => import('./preferences.ts')).then((m) => m.syncConsolePreferences())
}

/**
 * Resolves when the browser is next idle (at the latest after `timeout` ms): what the first screen does not show
 * (the site-message socket, the licence) starts after the first page has rendered instead of beside it (issue 17).
 */
export function whenIdle(timeout = 2_000): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestIdleCallback === 'function') requestIdleCallback(() => resolve(), { timeout })
    else setTimeout(resolve, 0)
  })
}

const provided = appMachine.provide({
  actors: {
    startup: startupMachine.provide({
      actors: {
        initApp: fromPromise(async () => {
          // The open settings set the favicon, the title and the theme colour before the rest (console-behaviour §2.11).
          // Signed in (the session mark), the public settings already on their way (early.ts) carry the same
          // interface settings: no second call on the first screen (issue 17).
          if (Cookies.get(SESSION_MARK_COOKIE)) return
          const open = await fetchOpenSettings().catch(() => ({}))
          applyInterface(open)
        }),
        loadPublicSettings: fromPromise(async ({ signal }) => {
          const settings = await fetchPublicSettings(signal)
          applyInterface(settings)
          return settings
        }),
        readSessionMark: fromPromise(async () => Cookies.get(SESSION_MARK_COOKIE) ?? null),
        logout: fromPromise<unknown, void>(() => endServerSession()),
        loadProfile: fromPromise<UserProfile | null, void>(async ({ signal }) => {
          const profile = await fetchProfile(signal)
          if (profile) syncPreferencesOnce()
          return profile
        }),
        readPersisted: fromPromise(async ({ input }) => readPersisted(input.username)),
      },
    }),
    sessionMark: sessionMarkMachine.provide({
      actions: {
        refreshMark: (_, p) => void refreshMarkWhenIdle(p, whenIdle),
      },
    }),
    sessionRefresh: sessionRefreshMachine.provide({ actors: { refreshProfile: fromPromise<unknown, void>(() => fetchProfile()) } }),
    viewOrg: viewOrgMachine.provide({ actions: { persist: (_, payload) => writePersisted(payload) } }),
    siteMessages: siteMessagesMachine.provide({
      actors: {
        socket: fromCallback<SocketEvent>(({ sendBack }) => {
          let stopped = false
          let close: (() => void) | undefined
          void whenIdle().then(() => {
            if (stopped) return
            close = openSiteMessageSocket({
              onOpen: () => sendBack({ type: 'OPEN' }),
              onMessage: (data) => sendBack({ type: 'MESSAGE', data }),
              onClose: (code) => sendBack({ type: 'CLOSE', code }),
            })
          })
          return () => {
            stopped = true
            close?.()
          }
        }),
        fetchUnread: fromPromise(({ input, signal }) => fetchUnreadMessages({ offset: input.offset, limit: input.limit }, signal)),
        markRead: fromPromise<unknown, { ids: readonly string[] }>(({ input }) => markMessagesRead(input.ids)),
        markAllRead: fromPromise<unknown, void>(() => markAllMessagesRead()),
      },
    }),
    loadProfile: fromPromise(({ signal }) => fetchProfile(signal)),
    loadLicense: fromPromise(async ({ signal }) => {
      await whenIdle()
      return fetchLicense(signal)
    }),
    loadTicketsCount: fromPromise(({ input, signal }) => fetchAssignedOpenCount(input.userId, signal)),
  },
  actions: {
    goToLogin: () => window.location.assign(loginUrl()),
    logout: () => window.location.assign(logoutUrl()),
  },
})

export interface CreateAppOptions {
  /** Attach the Stately inspector (development, `?inspect`). */
  inspect?: Parameters<typeof createActor>[1] extends infer O ? (O extends { inspect?: infer I } ? I : never) : never
}

/** Creates and starts the root actor, and wires the HTTP client to it (org header, activity, errors, 401). */
export function createAppActor(options: CreateAppOptions = {}): AppActorRef {
  const app = createActor(provided, {
    input: { path: routerPath(), profileOrgId: cookieOrgId(DEFAULT_ORG_ID) },
    inspect: options.inspect,
  })
  setOrgSource({
    currentOrgId: () => viewOrgOf(app.getSnapshot())?.getSnapshot().context.currentOrg?.id,
    xpackEnabled: () => app.getSnapshot().context.settings.XPACK_ENABLED !== false,
  })
  onApiActivity((url) => app.send({ type: 'API_ACTIVITY', url }))
  setErrorNotifier((error) => showError(error.message))
  setUnauthorizedHandler((_error, url) => {
    if (app.getSnapshot().matches('starting')) return // the start-up sends the user to the login page itself
    if (isProfileUrl(url)) window.setTimeout(() => window.location.assign(loginUrl()), LOGIN_DELAY_MS)
    else askRelogin()
  })
  app.start()
  return app
}

/** Resolves when the app can answer guards: start-up finished and no profile reload pending. */
export async function whenSettled(app: AppActorRef): Promise<AppSnapshot> {
  return waitFor(app, isSettled, { timeout: Infinity })
}

/** Start-up over, and the profile (its perms) read in the organization now current. */
export function isSettled(s: AppSnapshot): boolean {
  if (s.status !== 'active') return true
  if (!s.matches({ ready: { profile: 'idle' } })) return false
  const current = viewOrgOf(s)?.getSnapshot().context.currentOrg?.id
  return current === undefined || current === s.context.profileOrgId
}

/** The current view/organization state (null before `ready`). */
export function viewOrgState(app: AppActorRef) {
  return viewOrgOf(app.getSnapshot())?.getSnapshot().context ?? null
}

/** Switches view (used by the guard when a route of another view is opened) and waits for the profile reload. */
export async function ensureView(app: AppActorRef, view: ViewName): Promise<AppSnapshot> {
  if (viewOrgState(app)?.view !== view) app.send({ type: 'SWITCH_VIEW', view })
  return whenSettled(app)
}

/** Switches organization and waits for the profile of the new organization. */
export async function switchOrganization(app: AppActorRef, org: Org): Promise<AppSnapshot> {
  app.send({ type: 'SWITCH_ORG', org })
  return whenSettled(app)
}
