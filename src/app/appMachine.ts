/**
 * The root app actor (architecture "The actor system"): runs the start-up machine, then holds what every screen
 * needs — public settings, profile, licence, categories — and the long-lived children: session-mark keepalive,
 * session refresh, view/organization, site messages. Side effects are actors provided by `appActor.ts`; this file
 * only composes the machines of machines/ and can be tested with stubs.
 */
import { assign, enqueueActions, fromCallback, fromPromise, sendTo, setup, type ActorRefFrom, type AnyActorRef } from 'xstate'
import { sessionMarkMachine, sessionRefreshMachine, siteMessagesMachine, startupMachine, viewOrgMachine } from '../../machines/index.ts'
import type { LoginReason, Org, StartupError, StartupOutput, ViewName } from '../../machines/index.ts'
import type { AssetCategory } from '../api/categories.ts'
import type { LicenseDetail } from '../api/license.ts'
import type { Profile } from '../api/profile.ts'
import type { PublicSettings } from '../api/settings.ts'

/** Tickets badge refresh period (the reference fetched it once; a slow poll keeps it honest). */
export const TICKETS_REFRESH_MS = 5 * 60_000

export interface AppInput {
  /** Requested router path without the /ui base. */
  path: string
  /** Organization the server used for the start-up profile (the X-JMS-ORG cookie, else DEFAULT). */
  profileOrgId: string | null
}

export interface AppContext {
  path: string
  /** Organization the current profile (its perms) was read in. */
  profileOrgId: string | null
  /** Organization of the profile read under way. */
  targetOrgId: string | null
  settings: PublicSettings
  hasValidLicense: boolean
  profile: Profile | null
  categories: readonly AssetCategory[]
  license: LicenseDetail | null
  ticketsCount: number
  /** Value of jms_session_expire when start-up passed. */
  sessionMark: string | null
  /** Start-up results the view/org child starts from. */
  initialView: ViewName | null
  lastView: ViewName | null
  currentOrg: Org | null
  previousOrg: Org | null
  failure: StartupError | null
  loginReason: LoginReason | null
}

export type AppEvent =
  | { type: 'SWITCH_VIEW'; view: ViewName }
  | { type: 'SWITCH_ORG'; org: Org }
  /** A successful non-profile answer (feeds the 30 s session refresh). */
  | { type: 'API_ACTIVITY'; url: string }
  /** Re-read the profile (after the profile was edited, or the organization changed). */
  | { type: 'RELOAD_PROFILE' }
  | { type: 'REFRESH_TICKETS' }
  /** From the children (see `childEvents`). */
  | { type: 'ORG_CHANGED'; org: Org | null }
  | { type: 'SESSION_EXPIRED' }

const STARTING: Omit<AppContext, 'path' | 'profileOrgId'> = {
  targetOrgId: null, settings: {}, hasValidLicense: false, profile: null, categories: [], license: null, ticketsCount: 0, sessionMark: null,
  initialView: null, lastView: null, currentOrg: null, previousOrg: null, failure: null, loginReason: null,
}

const perms = (context: AppContext) => new Set(context.profile?.perms ?? [])

export const appMachine = setup({
  types: {
    input: {} as AppInput,
    context: {} as AppContext,
    events: {} as AppEvent,
  },
  actors: {
    startup: startupMachine,
    sessionMark: sessionMarkMachine,
    sessionRefresh: sessionRefreshMachine,
    viewOrg: viewOrgMachine,
    siteMessages: siteMessagesMachine,
    /** Relays events the children emit (viewOrg `orgChanged`, sessionMark `expired`) to the app. */
    childEvents: fromCallback<AppEvent>(({ sendBack, system }) => {
      const subs: { unsubscribe(): void }[] = []
      const viewOrg = system.get('viewOrg') as AnyActorRef | undefined
      const mark = system.get('sessionMark') as AnyActorRef | undefined
      if (viewOrg) subs.push(viewOrg.on('orgChanged', (e: { org: Org | null }) => sendBack({ type: 'ORG_CHANGED', org: e.org })))
      if (mark) subs.push(mark.on('expired', () => sendBack({ type: 'SESSION_EXPIRED' })))
      return () => subs.forEach((sub) => sub.unsubscribe())
    }),
    loadProfile: fromPromise<Profile, void>(async () => {
      throw new Error('app: loadProfile must be provided')
    }),
    loadLicense: fromPromise<LicenseDetail, void>(async () => {
      throw new Error('app: loadLicense must be provided')
    }),
    loadTicketsCount: fromPromise<number, { userId: string }>(async () => 0),
  },
  actions: {
    targetOrg: assign({ targetOrgId: ({ event }) => (event.type === 'ORG_CHANGED' ? (event.org?.id ?? null) : null) }),
    /** The start-up ended outside `ready`: the caller navigates to the login page. */
    goToLogin: () => {},
    /** The session mark vanished: end the server session and go to the login page. */
    logout: () => {},
  },
  guards: {
    startupReady: ({ event }) => (event as unknown as { output: StartupOutput }).output?.status === 'ready',
    startupNeedsLogin: ({ event }) => (event as unknown as { output: StartupOutput }).output?.status === 'loginRequired',
    /** Was the start-up profile (its perms are per organization) read in another organization than the one chosen? */
    profileOrgStale: ({ context }) => context.currentOrg !== null && context.currentOrg.id !== context.profileOrgId,
    ticketsEnabled: ({ context }) =>
      perms(context).has('tickets.view_ticket') && context.settings.TICKETS_ENABLED !== false && context.hasValidLicense,
    licenseVisible: ({ context }) => perms(context).has('settings.change_license') && context.settings.XPACK_ENABLED === true,
  },
  delays: {
    ticketsRefresh: TICKETS_REFRESH_MS,
  },
}).createMachine({
  id: 'app',
  description: 'Root app actor: start-up, then session, view/organization, site messages, tickets badge, licence.',
  context: ({ input }) => ({ path: input.path, profileOrgId: input.profileOrgId, ...STARTING }),
  initial: 'starting',
  states: {
    starting: {
      invoke: {
        id: 'startup',
        src: 'startup',
        input: ({ context }) => ({ path: context.path }),
        onDone: [
          {
            guard: 'startupReady',
            target: 'ready',
            actions: assign(({ event }) => {
              const out = event.output as Extract<StartupOutput, { status: 'ready' }>
              return {
                settings: out.publicSettings as PublicSettings,
                hasValidLicense: out.hasValidLicense,
                profile: out.profile as Profile,
                categories: (out.categories ?? []) as AssetCategory[],
                sessionMark: out.sessionMark,
                initialView: out.view,
                lastView: out.lastView,
                currentOrg: out.orgs.currentOrg,
                previousOrg: out.orgs.previousOrg,
              }
            }),
          },
          {
            guard: 'startupNeedsLogin',
            target: 'loginRequired',
            actions: assign({ loginReason: ({ event }) => (event.output as Extract<StartupOutput, { status: 'loginRequired' }>).reason }),
          },
          {
            target: 'failed',
            actions: assign({ failure: ({ event }) => (event.output as Extract<StartupOutput, { status: 'failed' }>).error }),
          },
        ],
        onError: { target: 'failed', actions: assign({ failure: ({ event }) => ({ kind: 'init_failed', error: event.error }) }) },
      },
    },
    ready: {
      type: 'parallel',
      invoke: [
        { id: 'sessionMark', systemId: 'sessionMark', src: 'sessionMark', input: ({ context }) => ({ mark: context.sessionMark }) },
        { id: 'sessionRefresh', src: 'sessionRefresh' },
        {
          id: 'viewOrg',
          systemId: 'viewOrg',
          src: 'viewOrg',
          input: ({ context }) => ({
            profile: context.profile!,
            view: context.initialView,
            lastView: context.lastView,
            currentOrg: context.currentOrg,
            previousOrg: context.previousOrg,
            options: { hasValidLicense: context.hasValidLicense },
          }),
        },
        { id: 'siteMessages', src: 'siteMessages', input: { pageSize: 15 } },
        { id: 'childEvents', src: 'childEvents' },
      ],
      on: {
        SWITCH_VIEW: { actions: sendTo('viewOrg', ({ event }) => event) },
        SWITCH_ORG: { actions: sendTo('viewOrg', ({ event }) => event) },
        API_ACTIVITY: { actions: sendTo('sessionRefresh', ({ event }) => ({ type: 'RESPONSE_OK' as const, url: event.url })) },
        SESSION_EXPIRED: 'sessionExpired',
      },
      states: {
        profile: {
          initial: 'checking',
          states: {
            checking: {
              always: [
                { guard: 'profileOrgStale', target: 'reloading', actions: assign({ targetOrgId: ({ context }) => context.currentOrg?.id ?? null }) },
                { target: 'idle' },
              ],
            },
            idle: {
              on: {
                ORG_CHANGED: { target: 'reloading', actions: 'targetOrg' },
                RELOAD_PROFILE: { target: 'reloading', actions: assign({ targetOrgId: ({ context }) => context.profileOrgId }) },
              },
            },
            reloading: {
              on: {
                ORG_CHANGED: { target: 'reloading', reenter: true, actions: 'targetOrg' },
                RELOAD_PROFILE: { target: 'reloading', reenter: true },
              },
              invoke: {
                id: 'loadProfile',
                src: 'loadProfile',
                onDone: {
                  target: 'idle',
                  actions: enqueueActions(({ context, enqueue, event }) => {
                    enqueue.assign({ profile: event.output, profileOrgId: context.targetOrgId })
                    enqueue.sendTo('viewOrg', { type: 'PROFILE_UPDATED', profile: event.output })
                  }),
                },
                // The old perms stay; the failed call was already reported. Do not block navigation forever.
                onError: { target: 'idle', actions: assign({ profileOrgId: ({ context }) => context.targetOrgId }) },
              },
            },
          },
        },
        tickets: {
          initial: 'checking',
          states: {
            checking: { always: [{ guard: 'ticketsEnabled', target: 'loading' }, { target: 'disabled' }] },
            loading: {
              invoke: {
                id: 'loadTicketsCount',
                src: 'loadTicketsCount',
                input: ({ context }) => ({ userId: context.profile!.id }),
                onDone: { target: 'waiting', actions: assign({ ticketsCount: ({ event }) => event.output }) },
                onError: 'waiting',
              },
            },
            waiting: { after: { ticketsRefresh: 'loading' }, on: { REFRESH_TICKETS: 'loading' } },
            disabled: {},
          },
        },
        license: {
          initial: 'checking',
          states: {
            checking: { always: [{ guard: 'licenseVisible', target: 'loading' }, { target: 'none' }] },
            loading: {
              invoke: {
                id: 'loadLicense',
                src: 'loadLicense',
                onDone: { target: 'loaded', actions: assign({ license: ({ event }) => event.output }) },
                onError: 'none',
              },
            },
            loaded: {},
            none: {},
          },
        },
      },
    },
    loginRequired: { type: 'final', entry: 'goToLogin' },
    sessionExpired: { type: 'final', entry: 'logout' },
    failed: { type: 'final', entry: enqueueActions(({ context, enqueue }) => {
      if (context.failure?.kind === 'no_session_mark') enqueue('goToLogin')
    }) },
  },
})

export type AppActorRef = ActorRefFrom<typeof appMachine>
export type AppSnapshot = ReturnType<AppActorRef['getSnapshot']>
