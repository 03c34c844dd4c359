/**
 * The root app machine's UI model: the console opened in a new browser session, the server arranged per path.
 * The start-up's outcome is the machine's first event; its payload is what the real server answers (the
 * administrator's profile and the public settings, read through the API), so the ready state's regions (profile,
 * tickets badge, licence) take the branches the real console takes.
 *
 * Driven: ready (the administrator: the header, the navigation, the organization of the start-up), the licence
 * read, an organization change (the profile re-read in the new organization: the org switcher shows it and the
 * list reloads), the login page for a browser without a session (loginRequired) and for a session whose mark is
 * gone (failed: no_session_mark).
 * Not driven (the unit model walk covers them): SESSION_EXPIRED (the session mark is read at start-up, which
 * already ends at the login page without it), failing profile/licence/tickets reads and the tickets badge's
 * 5-minute refresh (tickets are on by default since issue 32: the badge is read once, its refresh not waited for),
 * RELOAD_PROFILE (sent by the first-login page), and the events the app only passes on to its children
 * (SWITCH_VIEW, SWITCH_ORG, API_ACTIVITY: the view/org and session-refresh models drive them).
 */
import type { Browser, BrowserContext } from '@playwright/test'
import { createMachine, type AnyStateMachine } from 'xstate'
import { appMachine } from '../../../machines/app/app.machine.ts'
import type { Org, UserProfile } from '../../../machines/view-org/view-org.types.ts'
import { ADMIN, expect } from '../fixtures.ts'
import { login } from '../shell-helpers.ts'
import { LIST, type Session } from './support.ts'
import type { UiModel, UiStep } from './ui-model.ts'

export interface AppCtx {
  browser: Browser
  baseURL: string
  storageState: Awaited<ReturnType<BrowserContext['storageState']>>
  session: Session | null
}

export interface AppFacts {
  profile: UserProfile
  settings: Record<string, unknown>
  license: unknown
  defaultOrg: Org
  second: Org
}

/** The definition without system ids: the graph traversal creates many snapshots of one system. */
function withoutSystemIds<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutSystemIds) as T
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).filter(([k]) => k !== 'systemId').map(([k, v]) => [k, withoutSystemIds(v)])) as T
  }
  return value
}
const traversableApp = createMachine(withoutSystemIds(appMachine.config), appMachine.implementations) as unknown as AnyStateMachine

const startupOutcome = (step: UiStep<AppCtx>) =>
  (step.path.steps.find((s) => s.event.type === 'xstate.done.actor.startup')?.event.output as { status: string; error?: { kind: string } } | undefined)

async function open(step: UiStep<AppCtx>): Promise<void> {
  const { ctx } = step
  await ctx.session?.context.close()
  const outcome = startupOutcome(step)
  // a session without its mark is logged out by the start-up: it gets a login of its own, not the shared one
  const shared = outcome?.status === 'ready'
  const context = await ctx.browser.newContext({ baseURL: ctx.baseURL, ...(shared ? { storageState: ctx.storageState } : {}) })
  const page = await context.newPage()
  ctx.session = { context, page, downloads: 0 }
  if (outcome?.status === 'failed') {
    await login(page, ADMIN.username, ADMIN.password, LIST)
    await context.clearCookies({ name: 'jms_session_expire' })
  }
  await page.goto(LIST)
}

const header = (ctx: AppCtx) => ctx.session!.page

async function readyCheck({ ctx, snapshot }: UiStep<AppCtx>): Promise<void> {
  const page = header(ctx)
  await expect(page.getByRole('button', { name: /^Switch view, current: Console/ })).toBeVisible()
  await expect(page.getByRole('navigation').first()).toBeVisible()
  // the profile was read in the organization the app holds it for (`profileOrgId`): its name in the switcher
  const { profileOrgId, profile } = snapshot.context as { profileOrgId: string | null; profile: UserProfile | null }
  const name = profile?.console_orgs.find((org) => org.id === profileOrgId)?.name
  if (name) await expect(page.getByRole('button', { name: `Switch organization, current: ${name}` })).toBeVisible()
  await expect(page.getByRole('grid').first()).toBeVisible()
}

export function appUiModel(facts: AppFacts): UiModel<AppCtx> {
  const ready = {
    status: 'ready',
    publicSettings: facts.settings,
    hasValidLicense: facts.settings.XPACK_ENABLED === true && facts.settings.XPACK_LICENSE_IS_VALID === true,
    sessionMark: 'age',
    profile: facts.profile,
    view: 'console',
    lastView: null,
    orgs: { usingOrgs: facts.profile.console_orgs, currentOrg: facts.defaultOrg, previousOrg: null },
    routes: null, redirectTo: null,
  }
  const events = [
    { type: 'xstate.done.actor.startup', output: ready },
    { type: 'xstate.done.actor.startup', output: { status: 'loginRequired', reason: { kind: 'unauthorized' } } },
    { type: 'xstate.done.actor.startup', output: { status: 'failed', error: { kind: 'no_session_mark' } } },
    { type: 'xstate.done.actor.loadLicense', output: facts.license },
    { type: 'xstate.done.actor.loadTicketsCount', output: 0 },
    { type: 'ORG_CHANGED', org: facts.second },
    { type: 'xstate.done.actor.loadProfile', output: facts.profile },
  ]
  const noop = async () => {}
  return {
    machine: traversableApp,
    input: { path: '/console/users/users', profileOrgId: facts.defaultOrg.id },
    events,
    // the user changes the organization once the start-up's reads are over (the reads take milliseconds), once
    // (a second change re-enters the same states)
    filter: (snapshot, event) =>
      // the badge's 5-minute refresh is not waited for (the unit model walk covers it)
      !event.type.startsWith('xstate.after.ticketsRefresh') && (event.type !== 'ORG_CHANGED' ||
      (snapshot.matches({ ready: { profile: 'idle' } }) && !snapshot.matches({ ready: { license: 'loading' } }) &&
        !snapshot.matches({ ready: { tickets: 'loading' } }) &&
        (snapshot.context as { profileOrgId: string | null }).profileOrgId !== facts.second.id)),
    perform: {
      'xstate.init': open,
      'xstate.done.actor.startup': noop,
      'xstate.done.actor.loadLicense': noop,
      'xstate.done.actor.loadTicketsCount': noop,
      'xstate.done.actor.loadProfile': noop,
      ORG_CHANGED: async ({ ctx, event }) => {
        const page = header(ctx)
        const listed = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/v1/users/users/' && res.ok())
        await page.getByRole('button', { name: /^Switch organization, current:/ }).click()
        await page.getByRole('menuitemradio', { name: (event.org as Org).name }).click()
        await listed
      },
    },
    states: {
      'ready.license.loaded + ready.profile.idle + ready.tickets.disabled': readyCheck,
      'ready.license.loaded + ready.profile.idle + ready.tickets.waiting': readyCheck,
      'ready.license.none + ready.profile.idle + ready.tickets.disabled': readyCheck,
      'ready.license.none + ready.profile.idle + ready.tickets.waiting': readyCheck,
      loginRequired: async ({ ctx }) => {
        await header(ctx).waitForURL(/\/core\/auth\/login\/\?next=/)
      },
      failed: async ({ ctx }) => {
        await header(ctx).waitForURL(/\/core\/auth\/login\//)
      },
    },
  }
}
