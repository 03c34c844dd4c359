/**
 * The session-mark and session-refresh machines' UI models. Both keep a session alive without anything on
 * screen, so their per-state checks read what the browser does: the `jms_session_expire` cookie the session mark
 * rewrites, and the profile reads the session refresh makes. Their timers (10 s, 30 s) run on Playwright's clock
 * (`context.clock`): the page's time is moved forward, nothing is waited for. Every path starts a new browser
 * session from the same logged-in state (storageState), on the users list of the console.
 *
 * sessionMark, driven: a `close` mark (the browser's cookie made `close` before the page loads: the mark is
 * rewritten with a 2-minute expiry, and again 10 s later), an `age` mark (the server's, left alone).
 * Not driven (unit walk): no mark — the start-up ends at the login page before the session mark starts
 * (startup.ui.ts drives that path) — and STOP, which the console never sends.
 * sessionRefresh, driven: a non-profile response arms the 30 s timer (clicking the list's Refresh), another
 * re-arms it, the timer reads the profile once and the machine rests (no further read).
 * Not driven (unit walk): a response during the profile read (the read takes milliseconds) and a failing read
 * (a 401 there sends the user to the login page: the start-up model drives that).
 */
import type { Browser, BrowserContext } from '@playwright/test'
import { SESSION_MARK_COOKIE, SESSION_MARK_REFRESH_MS, sessionMarkMachine } from '../../../machines/session-mark/session-mark.machine.ts'
import { SESSION_REFRESH_DELAY_MS, sessionRefreshMachine } from '../../../machines/session-refresh/session-refresh.machine.ts'
import { expect } from '../fixtures.ts'
import { LIST, type Session } from './support.ts'
import type { UiModel } from './ui-model.ts'

export interface SessionCtx {
  browser: Browser
  baseURL: string
  storageState: Awaited<ReturnType<BrowserContext['storageState']>>
  session: Session | null
  /** profile reads the page made */
  profileReads: number
  /** the session mark cookie's expiry (s) at the last check */
  markExpires: number | null
}

/** Longer than the console's wait for an idle moment (`whenIdle`'s 2 s cap). */
const IDLE_CAP_MS = 2_500

async function open(ctx: SessionCtx, mark?: string): Promise<void> {
  await ctx.session?.context.close()
  const context = await ctx.browser.newContext({ baseURL: ctx.baseURL, storageState: ctx.storageState })
  await context.clock.install()
  if (mark) await context.addCookies([{ name: SESSION_MARK_COOKIE, value: mark, url: ctx.baseURL }])
  const page = await context.newPage()
  ctx.profileReads = 0
  ctx.markExpires = null
  // API calls in flight and when the last one ended (real time): the model starts once the page is quiet
  let inFlight = 0
  let lastEnded = Date.now()
  const isApi = (url: string) => new URL(url).pathname.startsWith('/api/')
  const ended = (request: { url(): string }) => {
    if (!isApi(request.url())) return
    inFlight -= 1
    lastEnded = Date.now()
  }
  page.on('request', (request) => {
    if (isApi(request.url())) inFlight += 1
    if (new URL(request.url()).pathname === '/api/v1/users/profile/') ctx.profileReads += 1
  })
  page.on('requestfinished', ended)
  page.on('requestfailed', ended)
  ctx.session = { context, page, downloads: 0 }
  await page.goto(LIST)
  await expect(page.getByRole('grid').first()).toBeVisible()
  await expect(page.getByRole('button', { name: /^Switch view, current:/ })).toBeVisible()
  // The console defers work to the browser's first idle moment (at most 2 s: the licence, the site-message
  // socket). On Playwright's clock that moment comes only when the clock moves: move it past the cap and let the
  // deferred calls answer, or their responses would re-arm the session refresh in the middle of a path.
  await page.clock.fastForward(IDLE_CAP_MS)
  await expect.poll(() => inFlight === 0 && Date.now() - lastEnded > 300).toBe(true)
}


const markCookie = async (ctx: SessionCtx) => (await ctx.session!.context.cookies()).find((cookie) => cookie.name === SESSION_MARK_COOKIE)

/** The page's own clock (Playwright's), in ms. */
const pageNow = (ctx: SessionCtx) => ctx.session!.page.evaluate(() => Date.now())

export function sessionMarkUiModel(mark: 'close' | 'age'): UiModel<SessionCtx> {
  const refresh = 'xstate.after.refreshInterval.sessionMark.keepingAlive'
  return {
    machine: sessionMarkMachine,
    input: { mark },
    events: [],
    // the 10 s rewrite is a step of its own: the mark is checked before and after it
    userEvents: [refresh],
    perform: {
      'xstate.init': async ({ ctx }) => open(ctx, mark),
      [refresh]: async ({ ctx }) => {
        await ctx.session!.page.clock.fastForward(SESSION_MARK_REFRESH_MS)
      },
    },
    states: {
      keepingAlive: async ({ ctx }) => {
        // rewritten as `close`, expiring two minutes after the page's now (give or take the 10 s period)
        await expect.poll(async () => (await markCookie(ctx))?.value).toBe('close')
        const now = (await pageNow(ctx)) / 1000
        const expires = await expect.poll(async () => {
          const cookie = await markCookie(ctx)
          return cookie && cookie.expires > 0 && cookie.expires > (ctx.markExpires ?? 0) ? cookie.expires : null
        }).not.toBeNull().then(async () => (await markCookie(ctx))!.expires)
        expect(expires - now).toBeGreaterThan(100)
        expect(expires - now).toBeLessThanOrEqual(121)
        ctx.markExpires = expires
      },
      serverManaged: async ({ ctx }) => {
        // the server's mark stays as it is, also after the close mark's period
        const before = await markCookie(ctx)
        expect(before?.value).toBe('age')
        await ctx.session!.page.clock.fastForward(SESSION_MARK_REFRESH_MS * 2)
        expect(await markCookie(ctx)).toEqual(before)
      },
    },
  }
}

export function sessionRefreshUiModel(): UiModel<SessionCtx> {
  const list = (ctx: SessionCtx) => ctx.session!.page
  return {
    machine: sessionRefreshMachine,
    events: [
      { type: 'RESPONSE_OK', url: '/api/v1/users/users/' },
      { type: 'xstate.done.actor.refreshProfile', output: {} },
    ],
    filter: (snapshot, event) => !(event.type === 'RESPONSE_OK' && snapshot.matches('refreshing')),
    perform: {
      // the page's first responses arm the timer: past it (one profile read), the machine is idle
      'xstate.init': async ({ ctx }) => {
        await open(ctx)
        const reads = ctx.profileReads
        await list(ctx).clock.fastForward(SESSION_REFRESH_DELAY_MS + 1000)
        await expect.poll(() => ctx.profileReads).toBe(reads + 1)
      },
      RESPONSE_OK: async ({ ctx }) => {
        const page = list(ctx)
        const answered = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/v1/users/users/' && res.ok())
        await page.getByRole('button', { name: 'Refresh' }).click()
        await answered
      },
      // the 30 s since the last response pass: one profile read
      'xstate.after.refreshDelay.sessionRefresh.armed': async ({ ctx }) => {
        const reads = ctx.profileReads
        await list(ctx).clock.fastForward(SESSION_REFRESH_DELAY_MS + 1000)
        await expect.poll(() => ctx.profileReads).toBe(reads + 1)
      },
      'xstate.done.actor.refreshProfile': async () => {},
    },
    states: {
      // no read without activity, however long the page stays open
      idle: async ({ ctx }) => {
        const reads = ctx.profileReads
        await list(ctx).clock.fastForward(SESSION_REFRESH_DELAY_MS * 2)
        await list(ctx).waitForTimeout(200)
        expect(ctx.profileReads).toBe(reads)
      },
      // armed: nothing read until the 30 s have passed since the last response
      armed: async ({ ctx }) => {
        const reads = ctx.profileReads
        await list(ctx).clock.fastForward(SESSION_REFRESH_DELAY_MS - 2000)
        await list(ctx).waitForTimeout(200)
        expect(ctx.profileReads).toBe(reads)
      },
    },
  }
}
