import { describe, expect, it, vi } from 'vitest'
import { createActor, fromCallback, fromPromise, waitFor, type AnyActorRef } from 'xstate'
import { siteMessagesMachine, startupMachine, viewOrgMachine } from '../../machines/index.ts'
import type { AssetCategory, Org, UserProfile } from '../../machines/index.ts'
import type { LicenseDetail } from '../api/license.ts'
import type { Profile } from '../api/profile.ts'
import type { PublicSettings } from '../api/settings.ts'
import { appMachine } from './appMachine.ts'

const DEFAULT: Org = { id: '00000000-0000-0000-0000-000000000002', name: 'DEFAULT', is_default: true, is_root: false }
const OTHER: Org = { id: '11111111-1111-1111-1111-111111111111', name: 'Other', is_default: false, is_root: false }

function profile(over: Partial<Profile> = {}): Profile {
  return {
    id: 'u1', username: 'alice', name: 'Alice', email: 'a@example.com', phone: '', is_first_login: false, need_update_password: false,
    is_otp_secret_key_bound: false, mfa_force_enabled: false, mfa_level: 0, source: { value: 'local' }, date_password_last_updated: null,
    system_roles: [], console_orgs: [DEFAULT, OTHER], audit_orgs: [OTHER], workbench_orgs: [DEFAULT],
    perms: ['tickets.view_ticket', 'settings.change_license'],
    ...over,
  }
}

interface Options {
  settings?: PublicSettings
  startupProfile?: Profile | Error
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
          loadCategories: fromPromise<readonly AssetCategory[], void>(async () => []),
        },
      }),
      viewOrg: viewOrgMachine.provide({ actions: { persist: (_, payload) => calls.persisted.push(payload) } }),
      siteMessages: siteMessagesMachine.provide({ actors: { socket: fromCallback(() => () => {}) } }),
      loadProfile: fromPromise<Profile, void>(async () => {
        calls.profile.push(currentOrgId() ?? 'none')
        return profile({ perms: ['tickets.view_ticket', `org.${currentOrgId()}`] })
      }),
      loadLicense: fromPromise<LicenseDetail, void>(async () => {
        calls.license++
        return { corporation: 'Acme', date_expired: '2099-01-01', asset_count: 10, current_asset_count: 1, edition: '' }
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
