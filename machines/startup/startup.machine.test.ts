// @vitest-environment node

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createActor, fromPromise } from 'xstate'
import { ORG_A, ORG_DEFAULT, adminProfile, userProfile } from '../testing/fixtures.ts'
import { MODEL_TEST_TIMEOUT, flushMicrotasks, walkShortestPaths } from '../testing/model-walk.ts'
import type { PersistedViewOrg, UserProfile } from '../view-org/view-org.types.ts'
import { SYSTEM_ORG } from '../view-org/view-org.types.ts'
import { startupMachine } from './startup.machine.ts'
import type { BuildRoutesInput, PublicSettings } from './startup.types.ts'

const SETTINGS: PublicSettings = { XPACK_ENABLED: true, XPACK_LICENSE_IS_VALID: true, INTERFACE: { login_title: 'JumpServer' } }

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

interface Stubs {
  settings?: () => Promise<PublicSettings>
  mark?: string | null
  profile?: () => Promise<UserProfile | null>
  persisted?: Partial<PersistedViewOrg>
}

async function run(path: string, stubs: Stubs = {}) {
  const logout = vi.fn(async (): Promise<unknown> => null)
  const buildRoutes = vi.fn(async (_input: BuildRoutesInput): Promise<unknown> => ['routes'])
  const readPersisted = vi.fn(async (_input: { username: string }) => stubs.persisted ?? {})
  const errors: unknown[] = []
  const machine = startupMachine.provide({
    actors: {
      loadPublicSettings: fromPromise(stubs.settings ?? (async () => SETTINGS)),
      readSessionMark: fromPromise(async () => (stubs.mark === undefined ? 'close' : stubs.mark)),
      logout: fromPromise(() => logout()),
      loadProfile: fromPromise(stubs.profile ?? (async () => adminProfile())),
      readPersisted: fromPromise(({ input }) => readPersisted(input)),
      buildRoutes: fromPromise(({ input }) => buildRoutes(input)),
    },
  })
  const actor = createActor(machine, { input: { path } })
  actor.subscribe({ error: (error) => errors.push(error) })
  actor.start()
  await flushMicrotasks()
  return { actor, logout, buildRoutes, readPersisted, errors }
}

describe('startup machine — model', { timeout: MODEL_TEST_TIMEOUT }, () => {
  it('walks every shortest path', async () => {
    await walkShortestPaths({
      machine: startupMachine,
      inputs: [{ path: '/console/users/users' }, { path: '/' }],
      promiseActors: ['initApp', 'loadPublicSettings', 'readSessionMark', 'logout', 'loadProfile', 'readPersisted', 'buildRoutes'],
      events: [
        { type: 'xstate.done.actor.initApp', output: undefined },
        { type: 'xstate.error.actor.initApp', error: new Error('i18n') },
        { type: 'xstate.done.actor.loadPublicSettings', output: SETTINGS },
        { type: 'xstate.error.actor.loadPublicSettings', error: { status: 401 } },
        { type: 'xstate.error.actor.loadPublicSettings', error: { status: 502 } },
        { type: 'xstate.done.actor.readSessionMark', output: 'close' },
        { type: 'xstate.done.actor.readSessionMark', output: null },
        { type: 'xstate.error.actor.readSessionMark', error: new Error('cookies disabled') },
        { type: 'xstate.done.actor.logout', output: null },
        { type: 'xstate.error.actor.logout', error: { status: 500 } },
        { type: 'xstate.done.actor.loadProfile', output: adminProfile() },
        { type: 'xstate.done.actor.loadProfile', output: userProfile({ is_first_login: true }) },
        { type: 'xstate.done.actor.loadProfile', output: userProfile({ workbench_orgs: [] }) },
        { type: 'xstate.done.actor.loadProfile', output: null },
        { type: 'xstate.error.actor.loadProfile', error: { response: { status: 403 } } },
        { type: 'xstate.error.actor.loadProfile', error: { status: 500 } },
        { type: 'xstate.done.actor.readPersisted', output: { lastView: 'audit', currentOrg: ORG_A, previousOrg: null } },
        { type: 'xstate.error.actor.readPersisted', error: new Error('storage') },
        { type: 'xstate.done.actor.buildRoutes', output: ['routes'] },
        { type: 'xstate.error.actor.buildRoutes', error: new Error('bad route') },
      ],
      invariant: (snapshot) => {
        if (snapshot.status !== 'done') return
        const output = snapshot.output
        if (output?.status === 'ready') {
          expect(output.orgs.currentOrg === null || output.orgs.usingOrgs.some((org) => org.id === output.orgs.currentOrg?.id)).toBe(true)
        }
      },
    })
  })
})

describe('startup machine — scenarios', () => {
  it('starts an administrator on the home path in the default view and organization', async () => {
    const { actor, buildRoutes, readPersisted, errors } = await run('/')
    expect(actor.getSnapshot().output).toEqual({
      status: 'ready',
      publicSettings: SETTINGS,
      hasValidLicense: true,
      sessionMark: 'close',
      profile: adminProfile(),
      view: 'console',
      lastView: null,
      orgs: { usingOrgs: [ORG_DEFAULT, ORG_A], currentOrg: ORG_DEFAULT, previousOrg: null },
      routes: ['routes'],
      redirectTo: '/console',
    })
    expect(readPersisted).toHaveBeenCalledWith({ username: 'admin' })
    expect(buildRoutes).toHaveBeenCalledWith({ profile: adminProfile(), publicSettings: SETTINGS, view: 'console' })
    expect(errors).toEqual([])
  })

  it('keeps an allowed path and restores the persisted organization', async () => {
    const { actor } = await run('/audit/sessions', { persisted: { lastView: 'console', currentOrg: ORG_A } })
    expect(actor.getSnapshot().output).toMatchObject({ status: 'ready', view: 'audit', redirectTo: null, orgs: { currentOrg: ORG_A } })
  })

  it('sends a view the user may not see to the last-used view', async () => {
    const { actor } = await run('/settings/basic', { profile: async () => adminProfile({ perms: [] }), persisted: { lastView: 'audit' } })
    expect(actor.getSnapshot().output).toMatchObject({ view: 'audit', redirectTo: '/audit', orgs: { currentOrg: ORG_A } })
  })

  it('does not offer tickets without a valid license', async () => {
    const { actor } = await run('/tickets/my-tickets', { settings: async () => ({ XPACK_ENABLED: false }) })
    expect(actor.getSnapshot().output).toMatchObject({ hasValidLicense: false, view: 'console', redirectTo: '/console' })
  })

  it('leaves the system organization outside settings and enters it in settings', async () => {
    const persisted = { currentOrg: SYSTEM_ORG, previousOrg: ORG_A }
    const consoleRun = await run('/console/assets/assets', { persisted })
    expect(consoleRun.actor.getSnapshot().output).toMatchObject({ orgs: { currentOrg: ORG_A, previousOrg: ORG_A } })
    const settingsRun = await run('/settings/basic', { persisted })
    expect(settingsRun.actor.getSnapshot().output).toMatchObject({ orgs: { currentOrg: SYSTEM_ORG, previousOrg: ORG_A } })
  })

  it('logs out and fails with no_session_mark when the mark is missing', async () => {
    const { actor, logout } = await run('/console', { mark: null })
    expect(logout).toHaveBeenCalledTimes(1)
    expect(actor.getSnapshot().output).toEqual({ status: 'failed', error: { kind: 'no_session_mark' } })
  })

  it('asks for no signed-in settings without a session mark (issue 35: a 401 in the console on every fresh visit)', async () => {
    const settings = vi.fn(async () => SETTINGS)
    const { actor } = await run('/console', { mark: null, settings })
    expect(settings).not.toHaveBeenCalled()
    expect(actor.getSnapshot().output).toEqual({ status: 'failed', error: { kind: 'no_session_mark' } })
  })

  it('goes to the login page 100 ms after a 401 on the profile', async () => {
    const { actor } = await run('/console', {
      profile: async () => {
        throw { status: 401 }
      },
    })
    expect(actor.getSnapshot().value).toBe('redirectingToLogin')
    await vi.advanceTimersByTimeAsync(99)
    expect(actor.getSnapshot().status).toBe('active')
    await vi.advanceTimersByTimeAsync(1)
    expect(actor.getSnapshot().output).toEqual({ status: 'loginRequired', reason: { kind: 'unauthorized', status: 401, during: 'profile' } })
  })

  it('fails with no_organizations when the user has none', async () => {
    const { actor, buildRoutes } = await run('/workbench', { profile: async () => userProfile({ workbench_orgs: [] }) })
    expect(actor.getSnapshot().output).toEqual({ status: 'failed', error: { kind: 'no_organizations' } })
    expect(buildRoutes).not.toHaveBeenCalled()
  })

  it('sends a first-login user to the profile improvement page', async () => {
    const { actor } = await run('/workbench/assets', { profile: async () => userProfile({ is_first_login: true }) })
    expect(actor.getSnapshot().output).toMatchObject({ status: 'ready', view: 'workbench', redirectTo: '/profile/improvement' })
    const already = await run('/profile/improvement', { profile: async () => userProfile({ is_first_login: true }) })
    expect(already.actor.getSnapshot().output).toMatchObject({ view: 'profile', redirectTo: null })
  })

  it('fails with the error when a required actor is not provided', async () => {
    const marked = startupMachine.provide({ actors: { readSessionMark: fromPromise(async (): Promise<string | null> => 'close') } })
    const actor = createActor(marked, { input: { path: '/' } }).start()
    await flushMicrotasks()
    const output = actor.getSnapshot().output
    expect(output).toMatchObject({ status: 'failed', error: { kind: 'public_settings_failed' } })
    expect(String(output?.status === 'failed' && 'error' in output.error ? output.error.error : '')).toContain('loadPublicSettings')
  })
})
