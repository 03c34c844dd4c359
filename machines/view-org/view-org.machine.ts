/**
 * viewOrg — the current view and organization of a signed-in user (spec §2.2, §4.1).
 *
 * - `orgView`: console, audit, workbench, tickets or profile; requests run in an organization of the view.
 * - `settingsView`: the settings view works in the system organization; the organization to return to is kept
 *   as the previous one and restored on leaving.
 * Every change calls the injected `persist` action (per username) and emits `viewChanged` / `orgChanged` so the
 * app can invalidate the router, set the `X-JMS-ORG` cookie and reload the profile (perms are per organization).
 */
import { assertEvent, setup } from 'xstate'
import {
  chooseView,
  isViewName,
  rememberableView,
  resolveOrgSelection,
  switchOrgSelection,
} from './view-org.rules.ts'
import type { Org, OrgSelection, PersistViewOrgPayload, UserProfile, ViewName, ViewRuleOptions } from './view-org.types.ts'

export interface ViewOrgInput {
  profile: UserProfile
  /** The view asked for (usually `viewFromPath(path)`); it is re-checked against the rules. */
  view: ViewName | null
  /** Persisted values (`readPersisted`); all optional. */
  lastView?: ViewName | null
  currentOrg?: Org | null
  previousOrg?: Org | null
  options?: ViewRuleOptions
}

export interface ViewOrgContext extends OrgSelection {
  profile: UserProfile
  view: ViewName
  lastView: ViewName | null
  options: ViewRuleOptions
}

export type ViewOrgEvent =
  | { type: 'SWITCH_VIEW'; view: ViewName }
  | { type: 'SWITCH_ORG'; org: Org }
  | { type: 'PROFILE_UPDATED'; profile: UserProfile }

export type ViewOrgEmitted =
  | { type: 'viewChanged'; view: ViewName; previousView: ViewName }
  | { type: 'orgChanged'; org: Org | null; previousOrg: Org | null }

function toPersisted(context: ViewOrgContext): PersistViewOrgPayload {
  return {
    username: context.profile.username,
    currentOrg: context.currentOrg,
    previousOrg: context.previousOrg,
    lastView: context.lastView,
  }
}

function samePersisted(a: PersistViewOrgPayload, b: PersistViewOrgPayload): boolean {
  return (
    a.username === b.username &&
    a.lastView === b.lastView &&
    a.currentOrg?.id === b.currentOrg?.id &&
    a.currentOrg?.name === b.currentOrg?.name &&
    a.previousOrg?.id === b.previousOrg?.id
  )
}

function inView(context: ViewOrgContext, view: ViewName, profile: UserProfile): ViewOrgContext {
  return {
    ...context,
    ...resolveOrgSelection(view, profile, context),
    profile,
    view,
    lastView: rememberableView(view) ?? context.lastView,
  }
}

/** The context after `event`, or null when the event changes nothing (refused org, same view). */
export function reduceViewOrg(context: ViewOrgContext, event: ViewOrgEvent): ViewOrgContext | null {
  switch (event.type) {
    case 'SWITCH_VIEW': {
      const view = chooseView(event.view, context.profile, context.view, context.options)
      return view === context.view ? null : inView(context, view, context.profile)
    }
    case 'SWITCH_ORG': {
      const selection = context.view === 'settings' ? null : switchOrgSelection(context, event.org)
      return selection && selection.currentOrg?.id !== context.currentOrg?.id ? { ...context, ...selection } : null
    }
    case 'PROFILE_UPDATED':
      return inView(context, chooseView(context.view, event.profile, context.lastView, context.options), event.profile)
    default:
      return event satisfies never
  }
}

const viewOrgSetup = setup({
  types: {
    input: {} as ViewOrgInput,
    context: {} as ViewOrgContext,
    events: {} as ViewOrgEvent,
    emitted: {} as ViewOrgEmitted,
  },
  actions: {
    /** Write current org, previous org and last view for the username. Default: no-op. */
    persist: (_, _payload: PersistViewOrgPayload) => {},
  },
  guards: {
    isSettingsView: ({ context }) => context.view === 'settings',
    entersSettings: ({ context, event }) => {
      assertEvent(event, 'SWITCH_VIEW')
      return reduceViewOrg(context, event)?.view === 'settings'
    },
    changesSomething: ({ context, event }) => reduceViewOrg(context, event) !== null,
    losesSettings: ({ context, event }) => {
      assertEvent(event, 'PROFILE_UPDATED')
      return reduceViewOrg(context, event)?.view !== 'settings'
    },
  },
})

/** Applies the event: assign, emit what changed, persist when the persisted slice changed. */
const commit = viewOrgSetup.enqueueActions(({ context, event, enqueue }) => {
  const next = reduceViewOrg(context, event)
  if (!next) return
  enqueue.assign(next)
  if (next.view !== context.view) enqueue.emit({ type: 'viewChanged', view: next.view, previousView: context.view })
  if (next.currentOrg?.id !== context.currentOrg?.id) {
    enqueue.emit({ type: 'orgChanged', org: next.currentOrg, previousOrg: context.currentOrg })
  }
  const payload = toPersisted(next)
  if (!samePersisted(payload, toPersisted(context))) enqueue({ type: 'persist', params: payload })
})

export const viewOrgMachine = viewOrgSetup.createMachine({
  id: 'viewOrg',
  description: 'Current view and organization; settings view works in the system organization. ' +
    'Org changes are events (orgChanged) for the app to reload the profile and invalidate the router, not a page reload.',
  context: ({ input }) => {
    const options = input.options ?? {}
    const view = chooseView(input.view, input.profile, input.lastView, options)
    return {
      profile: input.profile,
      options,
      view,
      lastView: rememberableView(view) ?? (isViewName(input.lastView) ? input.lastView : null),
      ...resolveOrgSelection(view, input.profile, input),
    }
  },
  entry: { type: 'persist', params: ({ context }) => toPersisted(context) },
  initial: 'resolving',
  states: {
    resolving: {
      always: [{ guard: 'isSettingsView', target: 'settingsView' }, { target: 'orgView' }],
    },
    orgView: {
      on: {
        SWITCH_VIEW: [
          { guard: 'entersSettings', target: 'settingsView', actions: commit },
          { guard: 'changesSomething', actions: commit },
        ],
        SWITCH_ORG: { guard: 'changesSomething', actions: commit },
        PROFILE_UPDATED: { actions: commit },
      },
    },
    settingsView: {
      on: {
        SWITCH_VIEW: { guard: 'changesSomething', target: 'orgView', actions: commit },
        PROFILE_UPDATED: [{ guard: 'losesSettings', target: 'orgView', actions: commit }, { actions: commit }],
      },
    },
  },
})
