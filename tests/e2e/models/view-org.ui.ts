/**
 * The view/organization machine's UI model: the header's view switcher and organization switcher of the console,
 * as the administrator, whose real profile (read through the API) is the machine's input, with a second
 * organization created through the API. Every path starts in a new browser session from the same logged-in state
 * (storageState: no login page per path), so nothing persisted by an earlier path carries over.
 *
 * Driven: every view change the switcher offers from the console (audit, workbench, tickets, system settings),
 * leaving the system settings (to the console and to the audit), switching to the second organization. Each
 * state's check reads the page: the view switcher's current view and the URL of that view, the organization
 * switcher's current organization (console, audit) or its absence (settings).
 * Not driven (the unit model walk covers them): PROFILE_UPDATED as its own step — the app sends it after every
 * organization change (the profile is re-read), so each SWITCH_ORG path performs it and its check waits for it;
 * a profile that loses the settings permission while in the settings view (a profile re-read happens on an
 * organization change, which the settings view does not offer).
 */
import type { BrowserContext } from '@playwright/test'
import type { Browser } from '@playwright/test'
import { viewOrgMachine } from '../../../machines/view-org/view-org.machine.ts'
import type { Org, UserProfile, ViewName } from '../../../machines/view-org/view-org.types.ts'
import { expect } from '../fixtures.ts'
import type { Session } from './support.ts'
import type { EventObject, UiModel, UiStep } from './ui-model.ts'

export interface ViewOrgCtx {
  browser: Browser
  baseURL: string
  /** the logged-in state every path starts from */
  storageState: Awaited<ReturnType<BrowserContext['storageState']>>
  session: Session | null
  profile: UserProfile
  second: Org
}

const TITLES: Record<ViewName, string> = {
  console: 'Console', audit: 'Audit', workbench: 'Workbench', tickets: 'Tickets', settings: 'System settings', profile: 'Profile',
}
/** The URL each view's root opens (its first page). */
const URLS: Record<ViewName, RegExp> = {
  console: /\/ui\/console\//, audit: /\/ui\/audit\//, workbench: /\/ui\/workbench\//, tickets: /\/ui\/tickets\//, settings: /\/ui\/settings\//, profile: /\/ui\/profile\//,
}

const page = (ctx: ViewOrgCtx) => ctx.session!.page

async function assertView(step: UiStep<ViewOrgCtx>): Promise<void> {
  const p = page(step.ctx)
  const { view, currentOrg } = step.snapshot.context as { view: ViewName; currentOrg: Org | null }
  await expect(p).toHaveURL(URLS[view])
  await expect(p.getByRole('button', { name: `Switch view, current: ${TITLES[view]}` })).toBeVisible()
  const orgButton = p.getByRole('button', { name: /^Switch organization, current:/ })
  if (view === 'settings') await expect(orgButton).toHaveCount(0)
  else if ((view === 'console' || view === 'audit') && currentOrg) {
    await expect(orgButton).toHaveAccessibleName(`Switch organization, current: ${currentOrg.name}`)
  }
}

export function viewOrgUiModel(ctx: Pick<ViewOrgCtx, 'profile' | 'second'>): UiModel<ViewOrgCtx> {
  const views: ViewName[] = ['console', 'audit', 'workbench', 'tickets', 'settings']
  const defaultOrg = ctx.profile.console_orgs.find((org) => org.is_default) ?? ctx.profile.console_orgs[0]!
  return {
    machine: viewOrgMachine,
    input: { profile: ctx.profile, view: 'console', options: { hasValidLicense: true } },
    events: [
      ...views.map((view) => ({ type: 'SWITCH_VIEW', view })),
      { type: 'SWITCH_ORG', org: ctx.second },
      { type: 'SWITCH_ORG', org: defaultOrg },
    ],
    // leaving the settings: to the console and the audit are enough (the others enter orgView the same way)
    filter: (snapshot, event) =>
      !(snapshot.matches('settingsView') && event.type === 'SWITCH_VIEW' && !['console', 'audit'].includes(String(event.view))),
    perform: {
      'xstate.init': async ({ ctx }) => {
        await ctx.session?.context.close()
        const context = await ctx.browser.newContext({ baseURL: ctx.baseURL, storageState: ctx.storageState })
        const p = await context.newPage()
        ctx.session = { context, page: p, downloads: 0 }
        await p.goto('/ui/console/users/users')
        await expect(p.getByRole('grid').first()).toBeVisible()
      },
      SWITCH_VIEW: async ({ ctx, event }) => {
        const p = page(ctx)
        await p.getByRole('button', { name: /^Switch view, current:/ }).click()
        await p.getByRole('menuitemradio', { name: TITLES[event.view as ViewName] }).click()
      },
      SWITCH_ORG: async ({ ctx, event }) => {
        const p = page(ctx)
        await p.getByRole('button', { name: /^Switch organization, current:/ }).click()
        await p.getByRole('menuitemradio', { name: (event.org as Org).name }).click()
      },
    },
    states: {
      orgView: assertView,
      settingsView: assertView,
    },
  }
}

export type ViewOrgEvent = EventObject
