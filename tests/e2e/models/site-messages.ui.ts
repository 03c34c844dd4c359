/**
 * The site-messages machine's UI model: the bell of the console's header, its drawer, and the notification
 * websocket behind them, for the administrator.
 *
 * The socket is real (the server's `/ws/notifications/site-msg/`), held or dropped by the test through
 * Playwright's `routeWebSocket`: every socket the page opens is routed, held while it connects (the page's socket
 * stays CONNECTING) and connected to the real server when the path's OPEN comes; a CLOSE is the test dropping it
 * (close code 4000). The back-off runs on Playwright's clock, paused from the drop, so `waiting` is at rest: no new
 * socket can appear before the path moves the clock by the machine's retry delay, after which exactly one does.
 *
 * Unread counts are the server's: a MESSAGE of count k is a site message sent to the administrator through the
 * real API (`…/site-messages/send/`), which the server pushes over the socket; the drawer's list is the server's
 * answer, and marking read goes through the real endpoints (the server then pushes the lower count). The model
 * keeps the server's unread messages equal to the machine's (subjects `<prefix> 1`, `<prefix> 2`, newest first).
 *
 * Per state the page must show: the bell's live state (`data-live`, its icon and accessible name: interrupted
 * while waiting or reconnecting), the badge with the unread count, the sockets the page opened (held, or none
 * new while waiting), and in the drawer the unread messages, their count, or "No unread messages".
 *
 * Not driven (the unit walk covers them): ERROR (the console reports a failed socket as its close; a browser
 * socket's error event is always followed by a close), RECONNECT (the console never sends it), a failing list
 * read or mark-as-read (the server answers these valid requests; no arrangement through the API makes them
 * fail), REFRESH from the failed drawer, and the socket's events while the drawer is open (kept out to keep the
 * paths few: the regions are independent in the definition).
 */
import type { APIRequestContext, Browser, BrowserContext, Page, WebSocketRoute } from '@playwright/test'
import { siteMessagesMachine } from '../../../machines/site-messages/site-messages.machine.ts'
import type { SiteMessage, SiteMessagePage } from '../../../machines/site-messages/site-messages.types.ts'
import { expect } from '../fixtures.ts'
import { LIST } from './support.ts'
import type { EventObject, UiModel, UiStep } from './ui-model.ts'
import type { AnyMachineSnapshot } from 'xstate'

const MESSAGES = '/api/v1/notifications/site-messages/'
const RETRY = 'xstate.after.retryDelay.siteMessages.connection.waiting'
const FETCHED = 'xstate.done.actor.fetchUnread'
const MAX = 1

interface HeldSocket {
  route: WebSocketRoute
  /** connect to the real server (true) or leave it (false: the page's socket was closed while held) */
  settle: (connect: boolean) => void
  held: boolean
}

export interface SiteMessagesCtx {
  browser: Browser
  baseURL: string
  storageState: Awaited<ReturnType<BrowserContext['storageState']>>
  request: APIRequestContext
  adminToken: string
  adminId: string
  prefix: string
  context: BrowserContext | null
  page: Page | null
  /** every socket the page opened since the path began, in order */
  sockets: HeldSocket[]
  /** sockets opened before the last drop (a reconnection is one more) */
  socketsAtDrop: number
}

type Snapshot = AnyMachineSnapshot & { context: { unreadCount: number; messages: readonly SiteMessage[]; retryInMs: number | null } }

const bearer = (ctx: SiteMessagesCtx) => ({ Authorization: `Bearer ${ctx.adminToken}` })
const subject = (ctx: SiteMessagesCtx, n: number) => `${ctx.prefix} ${n}`
const bell = (ctx: SiteMessagesCtx) => ctx.page!.getByTestId('site-messages-button')
const drawer = (ctx: SiteMessagesCtx) => ctx.page!.getByRole('dialog', { name: 'Messages' })

/** The machine's view of the first n messages (newest first); ids and dates are the model's, the UI shows subjects. */
function modelPage(n: number): SiteMessagePage {
  const results = Array.from({ length: n }, (_, i) => n - i).map((k) => ({
    id: `m${k}`, has_read: false, read_at: null, date_created: '', content: { subject: `#${k}`, message: '', sender: '' },
  }))
  return { count: n, results }
}

/** The context's messages are `#k`: the page shows `<prefix> k`. */
const shownSubject = (ctx: SiteMessagesCtx, message: SiteMessage) => subject(ctx, Number(message.content.subject.slice(1)))

async function markAllRead(ctx: SiteMessagesCtx): Promise<void> {
  const res = await ctx.request.patch(`${MESSAGES}mark-as-read-all/`, { headers: bearer(ctx) })
  expect(res.status(), await res.text()).toBe(200)
}

async function send(ctx: SiteMessagesCtx, n: number): Promise<void> {
  const res = await ctx.request.post(`${MESSAGES}send/`, {
    headers: bearer(ctx),
    data: { subject: subject(ctx, n), message: `model message ${n}`, user_ids: [ctx.adminId] },
  })
  expect(res.status(), await res.text()).toBe(201)
}

const unreadOf = (data: unknown) => (JSON.parse(String(data)) as { unread_count: number }).unread_count

/** A new page of the console whose site-message sockets are routed: held until the path's OPEN. */
async function openPage(ctx: SiteMessagesCtx): Promise<void> {
  if (!ctx.context) {
    const context = (ctx.context = await ctx.browser.newContext({ baseURL: ctx.baseURL, storageState: ctx.storageState }))
    await context.clock.install()
    await context.routeWebSocket((url) => url.pathname === '/ws/notifications/site-msg/', async (route) => {
      let settle: (connect: boolean) => void = () => {}
      const gate = new Promise<boolean>((resolve) => {
        settle = resolve
      })
      const socket: HeldSocket = { route, settle, held: true }
      ctx.sockets.push(socket)
      // the page's socket stays CONNECTING until the handler returns
      if (await gate) route.connectToServer()
      socket.held = false
    })
  }
  await ctx.page?.close()
  for (const socket of ctx.sockets) socket.settle(false)
  ctx.sockets = []
  ctx.socketsAtDrop = 0
  await ctx.context.clock.resume()
  const page = (ctx.page = await ctx.context.newPage())
  await page.goto(LIST)
  await expect(page.getByRole('grid').first()).toBeVisible()
}

/** The bell: live state, icon and name (interrupted while waiting or reconnecting), and the badge. */
async function expectBell(ctx: SiteMessagesCtx, live: 'connecting' | 'open' | 'waiting' | 'reconnecting', unread: number): Promise<void> {
  const button = bell(ctx)
  await expect(button).toHaveAttribute('data-live', live)
  const count = unread > 0 ? `Messages, ${unread} unread` : 'Messages'
  const interrupted = live === 'waiting' || live === 'reconnecting'
  // the label, not the accessible name: behind the open (modal) drawer the header is hidden from assistive technology
  await expect(button).toHaveAttribute('aria-label', interrupted ? `${count} (live updates interrupted, reconnecting…)` : count)
  if (unread > 0) await expect(ctx.page!.getByTestId('site-messages-badge')).toHaveText(String(unread))
  else await expect(ctx.page!.getByTestId('site-messages-badge')).toHaveCount(0)
}

const last = (ctx: SiteMessagesCtx) => ctx.sockets.at(-1)

async function expectConnection(step: UiStep<SiteMessagesCtx>): Promise<void> {
  const { ctx } = step
  const snapshot = step.snapshot as Snapshot
  const { unreadCount } = snapshot.context
  if (snapshot.matches({ connection: 'waiting' })) {
    // dropped, and the clock is paused: no socket is opened before the retry delay has passed
    await expectBell(ctx, 'waiting', unreadCount)
    expect(ctx.sockets.length).toBe(ctx.socketsAtDrop)
    expect(ctx.sockets.every((socket) => !socket.held)).toBe(true)
  } else if (snapshot.matches({ connection: { active: 'open' } })) {
    await expectBell(ctx, 'open', unreadCount)
    expect(last(ctx)?.held).toBe(false)
  } else {
    // connecting (first) or reconnecting (after a drop): one socket more, held by the test
    const first = snapshot.matches({ connection: { active: 'connecting' } })
    await expectBell(ctx, first ? 'connecting' : 'reconnecting', unreadCount)
    await expect.poll(() => ctx.sockets.length).toBe(first ? 1 : ctx.socketsAtDrop + 1)
    expect(last(ctx)!.held).toBe(true)
  }
}

async function expectDrawer(step: UiStep<SiteMessagesCtx>): Promise<void> {
  const { ctx } = step
  const { messages, unreadCount } = (step.snapshot as Snapshot).context
  const dialog = drawer(ctx)
  await expect(dialog).toBeVisible()
  if (messages.length === 0) {
    await expect(dialog.getByText('No unread messages')).toBeVisible()
    await expect(dialog.getByRole('button', { name: 'Mark all as read' })).toBeDisabled()
  } else {
    await expect(dialog.getByText(`${unreadCount} unread`, { exact: true })).toBeVisible()
    const list = dialog.getByRole('list', { name: 'Unread messages' })
    await expect(list.getByRole('heading')).toHaveText(messages.map((message: SiteMessage) => shownSubject(ctx, message)))
  }
}

export function siteMessagesUiModel(): UiModel<SiteMessagesCtx> {
  const counts = Array.from({ length: MAX + 1 }, (_, n) => n)
  return {
    machine: siteMessagesMachine,
    input: {},
    events: [
      { type: 'OPEN' },
      { type: 'CLOSE', code: 4000 },
      ...counts.slice(1).map((n) => ({ type: 'MESSAGE', data: JSON.stringify({ type: 'unread_count', unread_count: n }) })),
      { type: 'OPEN_DRAWER' },
      { type: 'CLOSE_DRAWER' },
      ...counts.map((n) => ({ type: FETCHED, output: modelPage(n) })),
      ...counts.slice(1).map((n) => ({ type: 'MARK_READ', ids: [`m${n}`] })),
      { type: 'xstate.done.actor.markRead', output: null },
      { type: 'MARK_ALL_READ' },
      { type: 'xstate.done.actor.markAllRead', output: null },
    ],
    filter: (snap, event) => {
      const snapshot = snap as Snapshot
      const { unreadCount, messages } = snapshot.context
      const open = snapshot.matches({ connection: { active: 'open' } })
      const drawerClosed = snapshot.matches({ drawer: 'closed' })
      // the user acts on a settled page: not while the list or a mark-as-read is on its way
      const idle = snapshot.matches({ marking: 'idle' }) && !snapshot.matches({ drawer: { open: 'loading' } })
      switch (event.type) {
        // the socket comes and goes with the drawer closed; dropped at most twice in a row (1 s, then 2 s)
        case 'CLOSE':
          return drawerClosed && (snapshot.context.retryInMs ?? 0) < 2000
        case 'OPEN':
        case RETRY:
          return drawerClosed
        // one message more at a time (the server's count), up to MAX, none while a mark-as-read runs
        case 'MESSAGE':
          return open && idle && unreadOf(event.data) === unreadCount + 1
        case 'CLOSE_DRAWER':
          return idle
        case 'OPEN_DRAWER':
          return open
        // the server's list: as many messages as the count says
        case FETCHED:
          return (event as EventObject & { output: SiteMessagePage }).output.count === unreadCount
        // the user marks the newest message (the first of the list)
        case 'MARK_READ':
          return idle && (event as EventObject & { ids: string[] }).ids[0] === messages[0]?.id
        case 'MARK_ALL_READ':
          return idle && messages.length > 0
        default:
          return true
      }
    },
    serializeContext: (snapshot) => [(snapshot as Snapshot).context.unreadCount, (snapshot as Snapshot).context.retryInMs],
    userEvents: [RETRY],
    perform: {
      'xstate.init': async ({ ctx }) => {
        await markAllRead(ctx)
        await openPage(ctx)
      },
      OPEN: async ({ ctx }) => {
        last(ctx)!.settle(true)
        await expect.poll(() => last(ctx)!.held).toBe(false)
      },
      CLOSE: async ({ ctx }) => {
        // from here the back-off passes only when the path says so
        const page = ctx.page!
        await ctx.context!.clock.pauseAt(await page.evaluate(() => Date.now() + 1000))
        const socket = last(ctx)!
        ctx.socketsAtDrop = ctx.sockets.length
        socket.settle(false)
        await socket.route.close({ code: 4000, reason: 'dropped by the test' })
      },
      [RETRY]: async ({ ctx, snapshot }) => {
        await ctx.context!.clock.runFor((snapshot as Snapshot).context.retryInMs ?? 1000)
        await ctx.context!.clock.resume()
      },
      MESSAGE: async ({ ctx, event }) => {
        await send(ctx, unreadOf(event.data))
      },
      OPEN_DRAWER: async ({ ctx }) => {
        await bell(ctx).click()
      },
      CLOSE_DRAWER: async ({ ctx }) => {
        await drawer(ctx).getByRole('button', { name: 'Close' }).click()
        await expect(drawer(ctx)).toHaveCount(0)
      },
      MARK_READ: async ({ ctx, event }) => {
        const n = Number(String((event as EventObject & { ids: string[] }).ids[0]).slice(1))
        await drawer(ctx).getByRole('button', { name: `Mark "${subject(ctx, n)}" as read` }).click()
      },
      MARK_ALL_READ: async ({ ctx }) => {
        await drawer(ctx).getByRole('button', { name: 'Mark all as read' }).click()
      },
      [FETCHED]: async () => {},
      'xstate.done.actor.markRead': async () => {},
      'xstate.done.actor.markAllRead': async () => {},
    },
    states: Object.fromEntries(
      ['connection.active.connecting', 'connection.active.reconnecting', 'connection.active.open', 'connection.waiting'].flatMap((connection) => [
        [`${connection} + drawer.closed + marking.idle`, async (step: UiStep<SiteMessagesCtx>) => {
          await expectConnection(step)
          await expect(drawer(step.ctx)).toHaveCount(0)
        }],
        [`${connection} + drawer.open.shown + marking.idle`, async (step: UiStep<SiteMessagesCtx>) => {
          await expectConnection(step)
          await expectDrawer(step)
        }],
      ]),
    ),
  }
}
