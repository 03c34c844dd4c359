// @vitest-environment node

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createActor, createMachine, fromCallback, fromPromise, waitFor, type AnyActorRef } from 'xstate'
import { siteMessagesMachine } from '../site-messages/site-messages.machine.ts'
import { startupMachine } from '../startup/startup.machine.ts'
import { viewOrgMachine } from '../view-org/view-org.machine.ts'
import type { Org, UserProfile } from '../view-org/view-org.types.ts'
import { MODEL_TEST_TIMEOUT, walkShortestPaths } from '../testing/model-walk.ts'
import { appMachine, TICKETS_REFRESH_MS } from './app.machine.ts'
import type { AppLicense, AppProfile, AppSettings } from './app.types.ts'

const DEFAULT: Org = { id: '00000000-0000-0000-0000-000000000002', name: 'DEFAULT', is_default: true, is_root: false }
const OTHER: Org = { id: '11111111-1111-1111-1111-111111111111', name: 'Other', is_default: false, is_root: false }

function profile(over: Partial<AppProfile> = {}): AppProfile {
  return {
    id: 'u1', username: 'alice', name: 'Alice', email: 'a@example.com', phone: '', is_first_login: false, need_update_password: false,
    is_otp_secret_key_bound: false, mfa_force_enabled: false, mfa_level: 0, source: { value: 'local' }, date_password_last_updated: null,
    system_roles: [], console_orgs: [DEFAULT, OTHER], audit_orgs: [OTHER], workbench_orgs: [DEFAULT],
    perms: ['tickets.view_ticket', 'settings.change_license'],
    ...over,
  } as AppProfile
}

interface Options {
  settings?: AppSettings
  startupProfile?: AppProfile | Error
  sessionMark?: string | null
  profileOrgId?: string | null
}

function start(opts: Options = {}) {
  const calls = { profile: [] as string[], tickets: 0, license: 0, goToLogin: 0, logout: 0, persisted: [] as unknown[] }
  let currentOrgId: () => string | undefined = () => undefined
  const settings = opts.settings ?? { XPACK_ENABLED: true, XPACK_LICENSE_IS_VALID: true, TICKETS_ENABLED: true }
  const machine = appMachine.provide({
    actors: {
      startup: startupMachine.provide({
        actors: {
          loadPublicSettings: fromPromise(async () => settings),
          readSessionMark: fromPromise(async () => (opts.sessionMark === undefined ? 'age' : opts.sessionMark)),
          logout: fromPromise<unknown, void>(async () => undefined),
          loadProfile: fromPromise<UserProfile | null, void>(async () => {
            if (opts.startupProfile instanceof Error) throw opts.startupProfile
            return opts.startupProfile ?? profile()
          }),
        },
      }),
      viewOrg: viewOrgMachine.provide({ actions: { persist: (_, payload) => calls.persisted.push(payload) } }),
      siteMessages: siteMessagesMachine.provide({ actors: { socket: fromCallback(() => () => {}) } }),
      loadProfile: fromPromise<AppProfile, void>(async () => {
        calls.profile.push(currentOrgId() ?? 'none')
        return profile({ perms: ['tickets.view_ticket', `org.${currentOrgId()}`] })
      }),
      loadLicense: fromPromise<AppLicense, void>(async () => {
        calls.license++
        return { corporation: 'Acme', date_expired: '2099-01-01', asset_count: 10, current_asset_count: 1, edition: '' } as AppLicense
      }),
      loadTicketsCount: fromPromise<number, { userId: string }>(async () => {
        calls.tickets++
        return 3
      }),
    },
    actions: {
      goToLogin: () => void calls.goToLogin++,
      logout: () => void calls.logout++,
    },
  })
  const errors: unknown[] = []
  const app = createActor(machine, { input: { path: '/console/users/users', profileOrgId: opts.profileOrgId === undefined ? DEFAULT.id : opts.profileOrgId } })
  app.subscribe({ error: (e) => errors.push(e) })
  currentOrgId = () => (app.getSnapshot().children.viewOrg as AnyActorRef | undefined)?.getSnapshot().context.currentOrg?.id
  app.start()
  return { app, calls, errors, currentOrgId: () => currentOrgId() }
}

const settled = (app: ReturnType<typeof start>['app']) =>
  waitFor(app, (s) => s.status !== 'active' || s.matches({ ready: { profile: 'idle' } }), { timeout: 2000 })

describe('app machine', () => {
  it('starts, then holds settings, profile, children, tickets and licence', async () => {
    const { app, calls, errors } = start()
    const s = await settled(app)
    expect(s.matches('ready')).toBe(true)
    expect(s.context.profile?.username).toBe('alice')
    expect(s.context.hasValidLicense).toBe(true)
    expect(Object.keys(s.children).sort()).toEqual(expect.arrayContaining(['sessionMark', 'sessionRefresh', 'siteMessages', 'viewOrg']))
    await waitFor(app, (x) => x.context.ticketsCount === 3 && x.context.license !== null)
    expect(calls.tickets).toBe(1)
    expect(calls.license).toBe(1)
    expect(calls.profile).toEqual([]) // read in the chosen organization already
    expect(calls.persisted.length).toBeGreaterThan(0)
    expect(errors).toEqual([])
    app.stop()
  })

  it('re-reads the profile when the start-up read it in another organization', async () => {
    const { app, calls } = start({ profileOrgId: OTHER.id })
    const s = await settled(app)
    expect(calls.profile).toEqual([DEFAULT.id])
    expect(s.context.profileOrgId).toBe(DEFAULT.id)
    app.stop()
  })

  it('switching to a view with another organization re-reads the profile there', async () => {
    const { app, calls, currentOrgId } = start()
    await settled(app)
    app.send({ type: 'SWITCH_VIEW', view: 'audit' })
    const s = await waitFor(app, (x) => x.matches({ ready: { profile: 'idle' } }) && x.context.profileOrgId === OTHER.id, { timeout: 2000 })
    expect(currentOrgId()).toBe(OTHER.id)
    expect(calls.profile).toEqual([OTHER.id])
    expect(s.context.profile?.perms).toContain(`org.${OTHER.id}`)
    app.stop()
  })

  it('switching organization re-reads the profile; the same organization does nothing', async () => {
    const { app, calls } = start()
    await settled(app)
    app.send({ type: 'SWITCH_ORG', org: DEFAULT })
    app.send({ type: 'SWITCH_ORG', org: OTHER })
    await waitFor(app, (x) => x.context.profileOrgId === OTHER.id && x.matches({ ready: { profile: 'idle' } }), { timeout: 2000 })
    expect(calls.profile).toEqual([OTHER.id])
    app.stop()
  })

  it('forwards API activity to the session refresh', async () => {
    const { app } = start()
    await settled(app)
    app.send({ type: 'API_ACTIVITY', url: '/api/v1/assets/assets/' })
    const refresh = app.getSnapshot().children.sessionRefresh as AnyActorRef
    expect(refresh.getSnapshot().value).toBe('armed')
    app.stop()
  })

  it('leaves tickets and the licence alone without permission, licence or XPACK', async () => {
    const { app, calls } = start({ settings: { XPACK_ENABLED: false }, startupProfile: profile({ perms: [] }) })
    const s = await settled(app)
    expect(s.matches({ ready: { tickets: 'disabled', license: 'none' } })).toBe(true)
    expect(calls.tickets + calls.license).toBe(0)
    app.stop()
  })

  it('goes to the login page after a 401 on the profile', async () => {
    vi.useFakeTimers()
    try {
      const { app, calls } = start({ startupProfile: Object.assign(new Error('401'), { status: 401 }) })
      await vi.advanceTimersByTimeAsync(200)
      expect(app.getSnapshot().value).toBe('loginRequired')
      expect(calls.goToLogin).toBe(1)
    } finally {
      vi.useRealTimers()
    }
  })

  it('logs out when there is no session mark, and stops quietly on other failures', async () => {
    const noMark = start({ sessionMark: null })
    await settled(noMark.app)
    expect(noMark.app.getSnapshot().value).toBe('failed')
    expect(noMark.app.getSnapshot().context.failure).toEqual({ kind: 'no_session_mark' })
    expect(noMark.calls.goToLogin).toBe(1)

    const noOrgs = start({ startupProfile: profile({ console_orgs: [], audit_orgs: [], workbench_orgs: [] }) })
    await settled(noOrgs.app)
    expect(noOrgs.app.getSnapshot().context.failure).toEqual({ kind: 'no_organizations' })
    expect(noOrgs.calls.goToLogin).toBe(0)
  })
})

/**
 * The machine without `systemId`s: xstate/graph computes transitions in one mock actor system, where a state
 * entered twice would register its children's system ids twice. Nothing else changes (the children are stubs in
 * the walk and the relay of their events is driven through the stubbed `childEvents`); the scenarios above run
 * the real machine with its system ids and real children.
 */
function withoutSystemIds<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutSystemIds) as T
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).filter(([k]) => k !== 'systemId').map(([k, v]) => [k, withoutSystemIds(v)])) as T
  }
  return value
}
const walkableAppMachine = createMachine(withoutSystemIds(appMachine.config), appMachine.implementations) as unknown as typeof appMachine

describe('app machine — model', { timeout: MODEL_TEST_TIMEOUT }, () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  const ready = (over: { perms?: string[]; settings?: AppSettings }) => ({
    status: 'ready',
    publicSettings: over.settings ?? { XPACK_ENABLED: true, XPACK_LICENSE_IS_VALID: true, TICKETS_ENABLED: true },
    hasValidLicense: (over.settings ?? { XPACK_ENABLED: true }).XPACK_ENABLED === true,
    sessionMark: 'age',
    profile: profile({ perms: over.perms ?? ['tickets.view_ticket', 'settings.change_license'] }),
    view: 'console',
    lastView: null,
    orgs: { usingOrgs: [DEFAULT, OTHER], currentOrg: DEFAULT, previousOrg: null },
    routes: null,
    redirectTo: null,
  })
  const LICENSE = { corporation: 'Acme', date_expired: '2099-01-01', asset_count: 10, current_asset_count: 1, edition: '' } as AppLicense

  it('walks every path: start-up outcomes, profile reloads, tickets badge, licence, session end', async () => {
    const result = await walkShortestPaths({
      machine: walkableAppMachine,
      // The start-up profile read in DEFAULT (current) or in another organization (a reload follows at once).
      inputs: [{ path: '/console/users/users', profileOrgId: DEFAULT.id }, { path: '/console/users/users', profileOrgId: OTHER.id }],
      events: [
        { type: 'xstate.done.actor.startup', output: ready({}) },
        { type: 'xstate.done.actor.startup', output: ready({ perms: [], settings: { XPACK_ENABLED: false } }) },
        { type: 'xstate.done.actor.startup', output: { status: 'loginRequired', reason: { kind: 'profile_empty' } } },
        { type: 'xstate.done.actor.startup', output: { status: 'failed', error: { kind: 'no_session_mark' } } },
        { type: 'xstate.done.actor.startup', output: { status: 'failed', error: { kind: 'no_organizations' } } },
        { type: 'xstate.error.actor.startup', error: new Error('boom') },
        { type: 'SWITCH_VIEW', view: 'audit' },
        { type: 'SWITCH_ORG', org: OTHER },
        { type: 'API_ACTIVITY', url: '/api/v1/assets/assets/' },
        { type: 'RELOAD_PROFILE' },
        { type: 'REFRESH_TICKETS' },
        { type: 'ORG_CHANGED', org: OTHER },
        { type: 'SESSION_EXPIRED' },
        { type: 'xstate.done.actor.loadProfile', output: profile({ perms: ['tickets.view_ticket'] }) },
        { type: 'xstate.error.actor.loadProfile', error: new Error('offline') },
        { type: 'xstate.done.actor.loadTicketsCount', output: 3 },
        { type: 'xstate.error.actor.loadTicketsCount', error: new Error('offline') },
        { type: 'xstate.done.actor.loadLicense', output: LICENSE },
        { type: 'xstate.error.actor.loadLicense', error: new Error('not found') },
      ],
      promiseActors: ['startup', 'loadProfile', 'loadTicketsCount', 'loadLicense'],
      callbackActors: ['sessionMark', 'sessionRefresh', 'viewOrg', 'siteMessages', 'childEvents'],
      sentBy: { ORG_CHANGED: 'childEvents', SESSION_EXPIRED: 'childEvents' },
      actions: { goToLogin: vi.fn(), logout: vi.fn() },
      // Keep the model small: one profile reload at a time is enough to cover every transition of the region.
      filter: (snapshot, event) => !(event.type === 'RELOAD_PROFILE' && snapshot.matches({ ready: { profile: 'reloading' } }) && snapshot.context.ticketsCount !== 0),
      invariant: (snapshot) => {
        const { settings, hasValidLicense, ticketsCount } = snapshot.context
        // The tickets badge is read only with a valid licence and tickets enabled; the licence only with XPACK.
        if (snapshot.matches({ ready: { tickets: 'loading' } }) || snapshot.matches({ ready: { tickets: 'waiting' } }) || ticketsCount > 0) {
          expect(hasValidLicense && settings.TICKETS_ENABLED !== false).toBe(true)
        }
        if (snapshot.matches({ ready: { license: 'loading' } }) || snapshot.matches({ ready: { license: 'loaded' } })) expect(settings.XPACK_ENABLED).toBe(true)
        // A finished app keeps nothing running.
        if (snapshot.status === 'done') expect(Object.keys(snapshot.children)).toEqual([])
      },
    })
    expect(result.reached).toEqual(expect.arrayContaining(['app.ready.tickets.waiting', 'app.ready.license.loaded', 'app.sessionExpired', 'app.loginRequired', 'app.failed']))
    expect(TICKETS_REFRESH_MS).toBe(300_000)
  })
})
