/**
 * startup — the console start-up sequence of spec §4.1, run once by the root app actor before the router
 * resolves: init app → session mark → public settings → profile → persisted view/org → view check →
 * organization check → routes → first-login check → ready. (The asset categories are the asset pages' own query,
 * not the start-up's: docs/decisions/the-asset-categories-are-not-part-of-the.md.)
 *
 * Every read (cookies, storage, HTTP) is an injected actor; the view and organization decisions are the pure
 * rules of view-org. Final states: `ready`, `loginRequired` (100 ms after a 401/403 or an empty profile) and
 * `failed`; the machine output says which (`StartupOutput`).
 */
import { assign, fromPromise, setup } from 'xstate'
import type { ErrorActorEvent } from 'xstate'
import { isAuthFailure, httpStatusOf, notProvided } from '../shared/errors.ts'
import { chooseView, hasAnyOrganization, resolveOrgSelection, viewFromPath } from '../view-org/view-org.rules.ts'
import type { PersistedViewOrg, UserProfile } from '../view-org/view-org.types.ts'
import {
  FIRST_LOGIN_PATH,
  LOGIN_REDIRECT_DELAY_MS,
  type BuildRoutesInput,
  type PublicSettings,
  type StartupContext,
  type StartupInput,
  type StartupOutput,
  type StartupReady,
} from './startup.types.ts'

const missing = (name: string) => notProvided('startup', name)

export function hasValidLicense(settings: PublicSettings | null): boolean {
  return settings?.XPACK_ENABLED === true && settings.XPACK_LICENSE_IS_VALID === true
}

/** The view check: the view to show and where to redirect (home, or a view the user may not see). */
export function resolveStartupView(context: Pick<StartupContext, 'path' | 'profile' | 'persisted' | 'publicSettings'>) {
  if (!context.profile) throw new Error('startup: view check without a profile')
  const requested = viewFromPath(context.path)
  const view = chooseView(requested, context.profile, context.persisted.lastView, { hasValidLicense: hasValidLicense(context.publicSettings) })
  const isHome = context.path.split(/[?#]/, 1)[0]?.replace(/\/+$/, '') === ''
  return { view, redirectTo: (requested !== null && requested !== view) || isHome ? `/${view}` : null }
}

function readyOutput(context: StartupContext): StartupReady {
  const { publicSettings, profile, view, orgs, sessionMark } = context
  if (!publicSettings || !profile || !view || !orgs || !sessionMark) throw new Error('startup: ready with missing data')
  return {
    status: 'ready',
    publicSettings,
    hasValidLicense: hasValidLicense(publicSettings),
    sessionMark,
    profile,
    view,
    lastView: context.persisted.lastView ?? null,
    orgs,
    routes: context.routes,
    redirectTo: context.redirectTo,
  }
}

export const startupMachine = setup({
  types: {
    input: {} as StartupInput,
    context: {} as StartupContext,
    output: {} as StartupOutput,
  },
  actors: {
    /** App-level initialisation (i18n, theme…). Default: nothing to do. */
    initApp: fromPromise<void, void>(async () => {}),
    /** `GET /api/v1/settings/public/`. */
    loadPublicSettings: fromPromise<PublicSettings, void>(async () => missing('loadPublicSettings')),
    /** Read cookie `jms_session_expire`; null when missing. */
    readSessionMark: fromPromise<string | null, void>(async () => missing('readSessionMark')),
    /** `GET /core/auth/logout/` (ends the server session before the login page). */
    logout: fromPromise<unknown, void>(async () => missing('logout')),
    /** `GET /api/v1/users/profile/`; null for an empty answer. */
    loadProfile: fromPromise<UserProfile | null, void>(async () => missing('loadProfile')),
    /** Persisted current org, previous org and last view of the user. Default: nothing persisted. */
    readPersisted: fromPromise<Partial<PersistedViewOrg>, { username: string }>(async () => ({})),
    /** Build the permitted route tree / menu. Default: nothing to build (the router filters statically). */
    buildRoutes: fromPromise<unknown, BuildRoutesInput>(async () => null),
  },
  guards: {
    isAuthFailure: (_, error: unknown) => isAuthFailure(error),
    hasSessionMark: (_, mark: string | null) => mark !== null && mark !== '',
    isEmptyProfile: (_, profile: UserProfile | null) => profile === null,
    hasNoOrganization: ({ context }) => context.profile === null || !hasAnyOrganization(context.profile),
  },
  delays: {
    loginRedirectDelay: LOGIN_REDIRECT_DELAY_MS,
  },
}).createMachine({
  id: 'startup',
  description: 'Console start-up: settings, session, profile, view, organization, routes, first login. ' +
    'Decisions are returned as output (redirect, login, failure) instead of navigating; the tickets view also needs a valid license.',
  context: ({ input }) => ({
    path: input.path,
    publicSettings: null,
    sessionMark: null,
    profile: null,
    persisted: {},
    view: null,
    orgs: null,
    routes: null,
    redirectTo: null,
    error: null,
    loginReason: null,
  }),
  initial: 'initializing',
  output: ({ event }) => event.output as StartupOutput,
  states: {
    initializing: {
      invoke: {
        id: 'initApp',
        src: 'initApp',
        // The session mark first (issue 35): without one the signed-in settings can only answer 401, a console error
        // on every fresh visit before the login page.
        onDone: 'checkingSession',
        onError: { target: 'failed', actions: assign({ error: ({ event }) => ({ kind: 'init_failed', error: event.error }) }) },
      },
    },
    loadingPublicSettings: {
      invoke: {
        id: 'loadPublicSettings',
        src: 'loadPublicSettings',
        onDone: { target: 'loadingProfile', actions: assign({ publicSettings: ({ event }) => event.output }) },
        onError: [
          {
            guard: { type: 'isAuthFailure', params: ({ event }: { event: ErrorActorEvent }) => event.error },
            target: 'redirectingToLogin',
            actions: assign({
              loginReason: ({ event }) => ({ kind: 'unauthorized', status: httpStatusOf(event.error) ?? 401, during: 'public_settings' }),
            }),
          },
          { target: 'failed', actions: assign({ error: ({ event }) => ({ kind: 'public_settings_failed', error: event.error }) }) },
        ],
      },
    },
    checkingSession: {
      invoke: {
        id: 'readSessionMark',
        src: 'readSessionMark',
        onDone: [
          {
            guard: { type: 'hasSessionMark', params: ({ event }) => event.output },
            target: 'loadingPublicSettings',
            actions: assign({ sessionMark: ({ event }) => event.output }),
          },
          { target: 'loggingOut' },
        ],
        onError: 'loggingOut',
      },
    },
    loggingOut: {
      invoke: {
        id: 'logout',
        src: 'logout',
        onDone: { target: 'failed', actions: assign({ error: { kind: 'no_session_mark' } }) },
        onError: { target: 'failed', actions: assign({ error: { kind: 'no_session_mark' } }) },
      },
    },
    loadingProfile: {
      invoke: {
        id: 'loadProfile',
        src: 'loadProfile',
        onDone: [
          {
            guard: { type: 'isEmptyProfile', params: ({ event }) => event.output },
            target: 'redirectingToLogin',
            actions: assign({ loginReason: { kind: 'profile_empty' } }),
          },
          { target: 'readingPersisted', actions: assign({ profile: ({ event }) => event.output }) },
        ],
        onError: [
          {
            guard: { type: 'isAuthFailure', params: ({ event }: { event: ErrorActorEvent }) => event.error },
            target: 'redirectingToLogin',
            actions: assign({
              loginReason: ({ event }) => ({ kind: 'unauthorized', status: httpStatusOf(event.error) ?? 401, during: 'profile' }),
            }),
          },
          { target: 'failed', actions: assign({ error: ({ event }) => ({ kind: 'profile_failed', error: event.error }) }) },
        ],
      },
    },
    readingPersisted: {
      invoke: {
        id: 'readPersisted',
        src: 'readPersisted',
        input: ({ context }) => ({ username: context.profile?.username ?? '' }),
        onDone: { target: 'checkingView', actions: assign({ persisted: ({ event }) => event.output }) },
        onError: 'checkingView',
      },
    },
    checkingView: {
      always: { target: 'checkingOrg', actions: assign(({ context }) => resolveStartupView(context)) },
    },
    checkingOrg: {
      always: [
        { guard: 'hasNoOrganization', target: 'failed', actions: assign({ error: { kind: 'no_organizations' } }) },
        {
          target: 'buildingRoutes',
          actions: assign({
            orgs: ({ context }) => (context.profile && context.view ? resolveOrgSelection(context.view, context.profile, context.persisted) : null),
          }),
        },
      ],
    },
    buildingRoutes: {
      invoke: {
        id: 'buildRoutes',
        src: 'buildRoutes',
        input: ({ context }) => {
          if (!context.profile || !context.publicSettings || !context.view) throw new Error('startup: routes before profile')
          return { profile: context.profile, publicSettings: context.publicSettings, view: context.view }
        },
        onDone: { target: 'checkingFirstLogin', actions: assign({ routes: ({ event }) => event.output }) },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => ({ kind: 'routes_failed', error: event.error }) }) },
      },
    },
    checkingFirstLogin: {
      always: {
        target: 'ready',
        actions: assign({
          redirectTo: ({ context }) =>
            context.profile?.is_first_login === true && !context.path.startsWith(FIRST_LOGIN_PATH) ? FIRST_LOGIN_PATH : context.redirectTo,
        }),
      },
    },
    redirectingToLogin: {
      after: { loginRedirectDelay: 'loginRequired' },
    },
    ready: { type: 'final', output: ({ context }) => readyOutput(context) },
    loginRequired: {
      type: 'final',
      output: ({ context }) => ({ status: 'loginRequired', reason: context.loginReason ?? { kind: 'profile_empty' } }),
    },
    failed: {
      type: 'final',
      output: ({ context }) => ({ status: 'failed', error: context.error ?? { kind: 'no_organizations' } }),
    },
  },
})
