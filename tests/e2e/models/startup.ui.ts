/**
 * The start-up machine's UI model: the console opened in a new browser session, the server arranged per path
 * (looking ahead at the answers the path needs): a logged-in administrator (ready), a session whose
 * `jms_session_expire` mark is gone (logged out, then the login page), and a mark without a session (the profile
 * answers 401: the login page).
 * Every answer is the real server's; the start-up runs without a user action, so only its final states are rest
 * points. Not driven: failures of the settings, routes, persisted choices, and a user in no
 * organization (the server puts every user in DEFAULT) — no server answer arranges them; the unit model walk
 * covers them.
 */
import type { Browser } from '@playwright/test'
import { startupMachine } from '../../../machines/startup/startup.machine.ts'
import { adminProfile } from '../../../machines/testing/fixtures.ts'
import { ADMIN, expect } from '../fixtures.ts'
import { login } from '../shell-helpers.ts'
import type { Session } from './support.ts'
import type { UiModel, UiStep } from './ui-model.ts'

export interface StartupCtx {
  browser: Browser
  baseURL: string
  session: Session | null
}

const output = (step: UiStep<StartupCtx>, type: string) => step.path.steps.find((s) => s.event.type === type)?.event

async function open(step: UiStep<StartupCtx>): Promise<void> {
  const { ctx } = step
  await ctx.session?.context.close()
  const context = await ctx.browser.newContext({ baseURL: ctx.baseURL })
  const page = await context.newPage()
  ctx.session = { context, page, downloads: 0 }
  const mark = output(step, 'xstate.done.actor.readSessionMark')
  if (output(step, 'xstate.error.actor.loadProfile')) {
    // a mark without a session: the profile read answers 401
    await context.addCookies([{ name: 'jms_session_expire', value: 'close', url: ctx.baseURL }])
    await page.goto('/ui/')
    return
  }
  await login(page, ADMIN.username, ADMIN.password, '/ui/')
  if (mark && mark.output === null) {
    // the session mark expired while the browser was closed
    await context.clearCookies({ name: 'jms_session_expire' })
    await page.goto('/ui/')
  }
}

export function startupUiModel(): UiModel<StartupCtx> {
  return {
    machine: startupMachine,
    input: { path: '/' },
    events: [
      { type: 'xstate.done.actor.initApp', output: undefined },
      { type: 'xstate.done.actor.loadPublicSettings', output: {} },
      { type: 'xstate.done.actor.readSessionMark', output: 'close' },
      { type: 'xstate.done.actor.readSessionMark', output: null },
      { type: 'xstate.done.actor.logout', output: null },
      { type: 'xstate.done.actor.loadProfile', output: adminProfile() },
      { type: 'xstate.error.actor.loadProfile', error: { status: 401 } },
      { type: 'xstate.done.actor.readPersisted', output: {} },
      { type: 'xstate.done.actor.buildRoutes', output: [] },
    ],
    perform: {
      'xstate.init': open,
      'xstate.done.actor.initApp': async () => {},
      'xstate.done.actor.loadPublicSettings': async () => {},
      'xstate.done.actor.readSessionMark': async () => {},
      'xstate.done.actor.logout': async () => {},
      'xstate.done.actor.loadProfile': async () => {},
      'xstate.error.actor.loadProfile': async () => {},
      'xstate.done.actor.readPersisted': async () => {},
      'xstate.done.actor.buildRoutes': async () => {},
      'xstate.after.loginRedirectDelay.startup.redirectingToLogin': async () => {},
    },
    states: {
      ready: async ({ ctx }) => {
        const { page } = ctx.session!
        await expect(page.getByRole('button', { name: /Switch view, current:/ })).toBeVisible()
        await expect(page.getByRole('navigation').first()).toBeVisible()
      },
      loginRequired: async ({ ctx }) => {
        await ctx.session!.page.waitForURL(/\/core\/auth\/login\/\?next=/)
      },
      failed: async ({ ctx, snapshot }) => {
        const { page } = ctx.session!
        const kind = (snapshot.context as { error: { kind: string } | null }).error?.kind
        if (kind === 'no_session_mark') await page.waitForURL(/\/core\/auth\/login\//)
        else throw new Error(`no UI meaning for a start-up failure "${kind}"`)
      },
    },
  }
}
