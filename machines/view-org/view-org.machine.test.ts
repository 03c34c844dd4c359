// @vitest-environment node

import { describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import type { SnapshotFrom } from 'xstate'
import { createTestModel } from 'xstate/graph'
import { ORG_A, ORG_B, ORG_DEFAULT, ORG_STRANGER, adminProfile } from '../testing/fixtures.ts'
import { MODEL_TEST_TIMEOUT, stateNodeIds } from '../testing/model-walk.ts'
import { viewOrgMachine, type ViewOrgEvent, type ViewOrgInput } from './view-org.machine.ts'
import { isViewAllowed, orgsForView } from './view-org.rules.ts'
import { SYSTEM_ORG, VIEW_NAMES } from './view-org.types.ts'

const admin = adminProfile()
/** After a role change: no settings/tickets perms, DEFAULT left the console orgs, no audit orgs. */
const demoted = adminProfile({ perms: [], console_orgs: [ORG_A], audit_orgs: [] })

const modelEvents: ViewOrgEvent[] = [
  ...VIEW_NAMES.map((view) => ({ type: 'SWITCH_VIEW' as const, view })),
  ...[ORG_DEFAULT, ORG_A, ORG_B, ORG_STRANGER, SYSTEM_ORG].map((org) => ({ type: 'SWITCH_ORG' as const, org })),
  { type: 'PROFILE_UPDATED', profile: admin },
  { type: 'PROFILE_UPDATED', profile: demoted },
]

function checkInvariants(snapshot: SnapshotFrom<typeof viewOrgMachine>): void {
  const { view, profile, usingOrgs, currentOrg, options } = snapshot.context
  expect(isViewAllowed(view, profile, options)).toBe(true)
  expect(usingOrgs).toEqual(orgsForView(view, profile))
  if (snapshot.matches('settingsView')) {
    expect(view).toBe('settings')
    expect(currentOrg).toEqual(SYSTEM_ORG)
  } else {
    expect(view).not.toBe('settings')
    if (usingOrgs.length === 0) expect(currentOrg).toBeNull()
    else expect(usingOrgs).toContainEqual(currentOrg)
  }
}

function start(input: ViewOrgInput) {
  const persist = vi.fn()
  const errors: unknown[] = []
  const actor = createActor(viewOrgMachine.provide({ actions: { persist: (_, payload) => persist(payload) } }), { input })
  const emitted: unknown[] = []
  actor.on('*', (event) => emitted.push(event))
  actor.subscribe({ error: (error) => errors.push(error) })
  actor.start()
  return { actor, persist, errors, emitted }
}

describe('viewOrg machine — model', { timeout: MODEL_TEST_TIMEOUT }, () => {
  for (const input of [
    { view: 'console', currentOrg: ORG_A, previousOrg: null },
    { view: 'settings', currentOrg: SYSTEM_ORG, previousOrg: ORG_A },
  ] as const) {
    it(`walks every shortest path from ${input.view}`, async () => {
      const model = createTestModel(viewOrgMachine, { events: modelEvents, input: { profile: admin, ...input } })
      const paths = model.getShortestPaths()
      const reached = new Set<string>()
      for (const path of paths) {
        const { actor, persist, errors } = start({ profile: admin, ...input })
        await path.test({
          events: Object.fromEntries(
            ['SWITCH_VIEW', 'SWITCH_ORG', 'PROFILE_UPDATED'].map((type) => [type, ({ event }: { event: ViewOrgEvent }) => actor.send(event)]),
          ),
          states: {
            '*': (state) => {
              const snapshot = actor.getSnapshot()
              expect(snapshot.value).toEqual(state.value)
              expect(snapshot.context).toEqual(state.context)
              checkInvariants(snapshot)
              const last = persist.mock.calls.at(-1)?.[0]
              expect(last).toEqual({
                username: 'admin',
                currentOrg: snapshot.context.currentOrg,
                previousOrg: snapshot.context.previousOrg,
                lastView: snapshot.context.lastView,
              })
              for (const node of state._nodes) reached.add(node.id)
            },
          },
        })
        expect(errors).toEqual([])
      }
      reached.delete('viewOrg')
      expect([...reached].sort()).toEqual(stateNodeIds(viewOrgMachine))
      expect(paths.length).toBeGreaterThan(10)
    })
  }
})

describe('viewOrg machine — scenarios', () => {
  it('enters settings in the system organization and restores the organization on leaving', () => {
    const { actor, persist, emitted } = start({ profile: admin, view: 'console', currentOrg: ORG_A })
    actor.send({ type: 'SWITCH_VIEW', view: 'settings' })
    expect(actor.getSnapshot().value).toBe('settingsView')
    expect(actor.getSnapshot().context).toMatchObject({ currentOrg: SYSTEM_ORG, previousOrg: ORG_A, lastView: 'console' })
    actor.send({ type: 'SWITCH_ORG', org: ORG_DEFAULT })
    expect(actor.getSnapshot().context.currentOrg).toEqual(SYSTEM_ORG)
    actor.send({ type: 'SWITCH_VIEW', view: 'console' })
    expect(actor.getSnapshot().context).toMatchObject({ view: 'console', currentOrg: ORG_A, previousOrg: ORG_A })
    expect(emitted).toEqual([
      { type: 'viewChanged', view: 'settings', previousView: 'console' },
      { type: 'orgChanged', org: SYSTEM_ORG, previousOrg: ORG_A },
      { type: 'viewChanged', view: 'console', previousView: 'settings' },
      { type: 'orgChanged', org: ORG_A, previousOrg: SYSTEM_ORG },
    ])
    expect(persist).toHaveBeenLastCalledWith({ username: 'admin', currentOrg: ORG_A, previousOrg: ORG_A, lastView: 'console' })
  })

  it('remembers the previous organization on a switch and refuses foreign organizations', () => {
    const { actor, persist } = start({ profile: admin, view: 'console', currentOrg: ORG_DEFAULT })
    actor.send({ type: 'SWITCH_ORG', org: ORG_A })
    expect(actor.getSnapshot().context).toMatchObject({ currentOrg: ORG_A, previousOrg: ORG_DEFAULT })
    const calls = persist.mock.calls.length
    actor.send({ type: 'SWITCH_ORG', org: ORG_STRANGER })
    actor.send({ type: 'SWITCH_ORG', org: ORG_A })
    expect(actor.getSnapshot().context.currentOrg).toEqual(ORG_A)
    expect(persist).toHaveBeenCalledTimes(calls)
  })

  it('starts back in the previous organization when the persisted one is the system organization', () => {
    const { actor, persist } = start({ profile: admin, view: 'console', currentOrg: SYSTEM_ORG, previousOrg: ORG_A })
    expect(actor.getSnapshot().context).toMatchObject({ currentOrg: ORG_A, previousOrg: ORG_A })
    expect(persist).toHaveBeenCalledWith({ username: 'admin', currentOrg: ORG_A, previousOrg: ORG_A, lastView: 'console' })
  })

  it('switching to a view the user may not see lands on the last-used view', () => {
    const { actor } = start({ profile: adminProfile({ perms: [] }), view: 'audit', lastView: 'console' })
    actor.send({ type: 'SWITCH_VIEW', view: 'settings' })
    expect(actor.getSnapshot().context.view).toBe('audit')
  })

  it('leaves settings for the last-used view when a profile update removes the permission', () => {
    const { actor } = start({ profile: admin, view: 'settings', currentOrg: ORG_A, lastView: 'workbench' })
    actor.send({ type: 'PROFILE_UPDATED', profile: demoted })
    expect(actor.getSnapshot().value).toBe('orgView')
    expect(actor.getSnapshot().context).toMatchObject({ view: 'workbench', currentOrg: ORG_DEFAULT, previousOrg: ORG_A })
  })

  it('falls back to the first allowed view when the last-used one is gone too', () => {
    const { actor } = start({ profile: admin, view: 'audit', currentOrg: ORG_A, lastView: 'audit' })
    actor.send({ type: 'PROFILE_UPDATED', profile: demoted })
    expect(actor.getSnapshot().context).toMatchObject({ view: 'console', usingOrgs: [ORG_A], currentOrg: ORG_A })
  })
})
