/**
 * The root app machine (architecture "The actor system"): runs the start-up machine, then holds what every
 * screen needs — public settings, profile, licence — and the long-lived children: session-mark
 * keepalive, session refresh, view/organization, site messages, the tickets badge. Pure: the profile, licence
 * and tickets reads and the navigations (`goToLogin`, `logout`) are provided by src/app/appActor.ts; the data
 * types are the app's own, registered through `AppRegister` (app.types.ts).
 */
import { assign, enqueueActions, fromCallback, fromPromise, sendTo, setup, type ActorRefFrom, type AnyActorRef, type SnapshotFrom } from 'xstate'
import { sessionMarkMachine } from '../session-mark/session-mark.machine.ts'
import { sessionRefreshMachine } from '../session-refresh/session-refresh.machine.ts'
import { siteMessagesMachine } from '../site-messages/site-messages.machine.ts'
import { startupMachine } from '../startup/startup.machine.ts'
import type { StartupOutput } from '../startup/startup.types.ts'
import { viewOrgMachine } from '../view-org/view-org.machine.ts'
import type { Org } from '../view-org/view-org.types.ts'
import type { AppContext, AppEvent, AppInput, AppLicense, AppProfile, AppSettings } from './app.types.ts'

/** Tickets badge refresh period (the reference fetched it once; a slow poll keeps it honest). */
export const TICKETS_REFRESH_MS = 5 * 60_000

const STARTING: Omit<AppContext, 'path' | 'profileOrgId'> = {
  targetOrgId: null, settings: {}, hasValidLicense: false, profile: null, license: null, ticketsCount: 0, sessionMark: null,
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
    loadProfile: fromPromise<AppProfile, void>(async () => {
      throw new Error('app: loadProfile must be provided')
    }),
    loadLicense: fromPromise<AppLicense, void>(async () => {
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
                settings: out.publicSettings as AppSettings,
                hasValidLicense: out.hasValidLicense,
                profile: out.profile as AppProfile,
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

export type { AppContext, AppEvent, AppInput } from './app.types.ts'
export type AppActorRef = ActorRefFrom<typeof appMachine>
export type AppSnapshot = SnapshotFrom<typeof appMachine>
