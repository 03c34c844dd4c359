/**
 * The import-task machine's UI model: the import dialog of the users list, a CSV of two users, in create mode.
 *
 * Server answers are real. Whether a row's upload succeeds is arranged through the real API just before the UI
 * action that sends it (Import, the row delay passing, Continue): a user holding the row's username is created
 * (the server refuses the row: "already exists") or deleted (the server creates the row's user). Every path
 * starts on a new page (the import's saved task lives in that page's sessionStorage) with the users of the model
 * deleted.
 *
 * Timing is held, not raced: the page runs on Playwright's clock, paused once the preview is shown, so the 100 ms
 * between rows passes only when the path says so (the state between rows is at rest and checked, and Stop can be
 * pressed there); a Stop during an upload holds that upload in the browser (`page.route`) until Stop is pressed,
 * then lets it reach the server (a path ending during an upload holds it likewise, and lets it go at the next path).
 *
 * Per state the page must show what the machine's context means: the action button (Import, Stop, Stop disabled
 * while the upload in flight finishes, Continue, Finished), the counts, every row's state in the preview, the
 * edited cell; at rest in stopped/done the server holds the rows marked imported and none marked failed; a run that ended with
 * failures says so. The context's progress (the row being uploaded, rows pending, rows failed) tells states apart
 * for the path search (`serializeContext`), so the paths reach done with and without failures.
 *
 * Not driven: a task restored after a reload (`resumed` input; tests/e2e/import-export.spec.ts reloads in the
 * middle and resumes) and SET_PAGE (two rows make one preview page; the 50-row tests of import-export.spec.ts
 * page through the preview).
 */
import type { APIRequestContext, BrowserContext, Locator, Page, Route } from '@playwright/test'
import Papa from 'papaparse'
import { buttonLabelKind, importProgress, importTaskMachine, isStopping, type ImportTaskSnapshot } from '../../../machines/import-task/import-task.machine.ts'
import type { ImportRow } from '../../../machines/import-task/import-task.types.ts'
import { expect } from '../fixtures.ts'
import type { EventObject, UiModel, UiStep } from './ui-model.ts'

const LIST = '/ui/console/users/users'
const USERS = '/api/v1/users/users/'
const UPLOADED = 'xstate.done.actor.uploadRow'
const REFUSED = 'xstate.error.actor.uploadRow'
const ROW_DELAY = 'xstate.after.rowDelay.importTask.started.betweenRows'

export interface ImportCtx {
  context: BrowserContext
  page: Page | null
  request: APIRequestContext
  adminToken: string
  /** the run's prefix: the model's rows are `<prefix>-1`, `<prefix>-2`; the server's cleaning finds every path's users by it */
  prefix: string
  /** the path being driven (1, 2, …): each path imports users of its own (`<prefix>p<path>-1`, see `live`) */
  path: number
  /** an upload held in the browser until Stop is pressed (`release`), or dropped when a path ends with it (`drop`) */
  held: { release: () => void; drop: () => void } | null
}

interface UserFields {
  name: string
  username: string
  email: string
  comment: string
}

const usersOf = (prefix: string): UserFields[] =>
  [1, 2].map((n) => ({ name: `${prefix} ${n}`, username: `${prefix}-${n}`, email: `${prefix}-${n}@example.com`, comment: 'model' }))

const dialogOf = (ctx: ImportCtx): Locator => ctx.page!.getByRole('dialog', { name: 'Import' })
const bearer = (ctx: ImportCtx) => ({ Authorization: `Bearer ${ctx.adminToken}` })

/**
 * A model value (username, email) as this path's page and server hold it: every path imports users of its own, so
 * an upload of an earlier path that still reaches the server (a request the browser had sent when its page was
 * closed) cannot stand in for, or collide with, this path's rows.
 */
const live = (ctx: ImportCtx, value: unknown) => String(value).replace(ctx.prefix, `${ctx.prefix}p${ctx.path}`)

/** The server's users whose username starts with the model's prefix (every path's). */
async function serverUsers(ctx: ImportCtx): Promise<Array<{ id: string; username: string; email: string }>> {
  const res = await ctx.request.get(`${USERS}?search=${encodeURIComponent(ctx.prefix)}&limit=100`, { headers: bearer(ctx) })
  expect(res.status()).toBe(200)
  const body = (await res.json()) as { results: Array<{ id: string; username: string; email: string }> }
  return body.results.filter((user) => user.username.startsWith(ctx.prefix))
}

async function deleteUser(ctx: ImportCtx, id: string): Promise<void> {
  const res = await ctx.request.delete(`${USERS}${id}/`, { headers: bearer(ctx) })
  expect(res.status(), await res.text()).toBe(204)
}

/** The server refuses (`refuse`) or accepts the next upload of this username: a user holding it is there or not. */
async function arrangeUsername(ctx: ImportCtx, username: string, refuse: boolean): Promise<void> {
  const holder = (await serverUsers(ctx)).find((user) => user.username === username)
  if (refuse && !holder) {
    const res = await ctx.request.post(USERS, {
      headers: bearer(ctx),
      data: { name: `holder ${username}`, username, email: `holder-${username}@example.com`, system_roles: ['00000000-0000-0000-0000-000000000003'] },
    })
    expect(res.status(), await res.text()).toBe(201)
  } else if (!refuse && holder) {
    await deleteUser(ctx, holder.id)
  }
}

/**
 * Before a UI action that starts an upload (the step's state is `started.uploading`): the server is arranged to
 * answer the path's next upload event, and the upload is held when the user presses Stop before it ends.
 */
async function arrangeUpload(step: UiStep<ImportCtx>): Promise<void> {
  const { ctx, snapshot, path, index } = step
  if (!snapshot.matches({ started: 'uploading' })) return
  const context = (snapshot as ImportTaskSnapshot).context
  const row = context.rows.find((candidate) => candidate.id === context.currentRowId)!
  const outcome = path.steps.slice(index + 1).find((s) => s.event.type === UPLOADED || s.event.type === REFUSED)?.event
  await arrangeUsername(ctx, live(ctx, row.data.username), outcome?.type === REFUSED)
  // at rest in uploading (Stop comes next, or the path ends there): the upload waits in the browser
  if (step.next === undefined || step.next.type === 'STOP') {
    let settle: (send: boolean) => void = () => {}
    const held = new Promise<boolean>((resolve) => {
      settle = resolve
    })
    await ctx.page!.route((url) => url.pathname === USERS, async (route: Route) => {
      if (route.request().method() === 'POST' && !(await held)) return route.abort().catch(() => {})
      await route.continue().catch(() => {})
    })
    ctx.held = { release: () => settle(true), drop: () => settle(false) }
  }
}

const rowState = (row: ImportRow, current: string | null) =>
  row.status === 'ok' ? 'ok' : row.status === 'pending' ? (row.id === current ? 'running' : 'pending') : 'error'

/** What every state shows: the action button, the counts and every row of the preview as the context says. */
async function expectTask(step: UiStep<ImportCtx>): Promise<void> {
  const snapshot = step.snapshot as ImportTaskSnapshot
  const dialog = dialogOf(step.ctx)
  const action = dialog.locator('[data-import-action]')
  await expect(action).toHaveAttribute('data-import-action', buttonLabelKind(snapshot))
  if (isStopping(snapshot)) await expect(action).toBeDisabled()
  else await expect(action).toBeEnabled()
  const { total, ok, failed, pending } = importProgress(snapshot.context.rows)
  const counts = dialog.getByTestId('import-counts')
  for (const text of [`Total ${total}`, `Succeeded ${ok}`, `Failed ${failed}`, `Pending ${pending}`]) await expect(counts.getByText(text, { exact: true })).toBeVisible()
  const current = snapshot.matches({ started: 'uploading' }) ? snapshot.context.currentRowId : null
  for (const [i, row] of snapshot.context.rows.entries()) {
    const shown = dialog.locator(`[data-row="${i + 1}"]`)
    await expect(shown).toHaveAttribute('data-state', rowState(row, current))
    if (typeof row.status === 'object') await expect(shown.getByText('Username:').first()).toBeVisible()
    const cell = shown.getByRole('textbox', { name: `*Username, row ${i + 1}` })
    if (row.id === current) await expect(shown).toContainText('Importing…')
    else await expect(cell).toHaveValue(live(step.ctx, row.data.username))
  }
}

/** At rest after a run: the server holds every row the task marks imported, and none it marks failed. */
async function expectServer(step: UiStep<ImportCtx>): Promise<void> {
  const { rows } = (step.snapshot as ImportTaskSnapshot).context
  const onServer = new Set((await serverUsers(step.ctx)).map((user) => user.email))
  for (const row of rows) {
    const email = live(step.ctx, row.data.email)
    if (row.status === 'ok') expect(onServer.has(email), `${email} imported`).toBe(true)
    else if (typeof row.status === 'object') expect(onServer.has(email), `${email} refused`).toBe(false)
  }
}

export function importUiModel(prefix: string): UiModel<ImportCtx> {
  const users = usersOf(prefix)
  const edited = `${prefix}-edited`
  const rows: ImportRow[] = users.map((data, i) => ({ id: `r${i}`, data: { ...data }, status: 'pending' }))
  return {
    machine: importTaskMachine,
    input: { rows, mode: 'create' },
    events: [
      { type: 'IMPORT' },
      { type: 'STOP' },
      { type: 'CONTINUE' },
      { type: 'EDIT_CELL', rowId: 'r0', field: 'username', value: edited },
      { type: UPLOADED, output: null },
      { type: REFUSED, error: { errors: ['Username: already exists'] } },
    ],
    // Stop once (the button is disabled then); Continue where the button offers it; a cell edited once
    filter: (snapshot, event) => {
      const context = (snapshot as ImportTaskSnapshot).context
      if (event.type === 'STOP') return !context.stopRequested
      // every row imported: the button reads Finished (it closes the dialog), the UI cannot send CONTINUE
      if (event.type === 'CONTINUE') return buttonLabelKind(snapshot as ImportTaskSnapshot) === 'continue'
      if (event.type === 'EDIT_CELL') return context.rows[0]!.data.username !== edited
      return true
    },
    serializeContext: (snapshot) => {
      const context = (snapshot as ImportTaskSnapshot).context
      const { pending, failed } = importProgress(context.rows)
      return [context.currentRowId, pending > 0, failed > 0]
    },
    userEvents: [ROW_DELAY],
    perform: {
      'xstate.init': async ({ ctx }) => {
        // an upload held at the end of the last path is aborted in the browser (the handler has run before the
        // page closes); the path's own users (`live`) keep a late request of an earlier path out of its way anyway
        ctx.held?.drop()
        ctx.held = null
        await ctx.page?.unrouteAll({ behavior: 'wait' })
        await ctx.page?.close()
        for (const user of await serverUsers(ctx)) await deleteUser(ctx, user.id)
        ctx.path += 1
        await ctx.context.clock.resume()
        const page = (ctx.page = await ctx.context.newPage())
        await page.goto(LIST)
        // the console's first load (not under test here) can take long on a loaded machine
        await expect(page.getByRole('grid').first()).toBeVisible({ timeout: 30_000 })
        await page.locator('[data-command="import"]').click()
        const dialog = dialogOf(ctx)
        const text = Papa.unparse({ fields: ['*Name', '*Username', '*Email', 'Comment'], data: users.map((u) => [u.name, live(ctx, u.username), live(ctx, u.email), u.comment]) })
        await dialog.getByLabel('File to import').setInputFiles({ name: 'model.csv', mimeType: 'text/csv', buffer: Buffer.from(`\ufeff${text}`, 'utf8') })
        await expect(dialog.getByRole('table', { name: 'Rows to import' })).toBeVisible()
        // from here the time between rows passes only when the path says so
        await ctx.context.clock.pauseAt(await page.evaluate(() => Date.now() + 1000))
      },
      IMPORT: async (step) => {
        await arrangeUpload(step)
        await dialogOf(step.ctx).locator('[data-import-action="import"]').click()
      },
      CONTINUE: async (step) => {
        await arrangeUpload(step)
        await dialogOf(step.ctx).locator('[data-import-action="continue"]').click()
      },
      [ROW_DELAY]: async (step) => {
        await arrangeUpload(step)
        await step.ctx.context.clock.runFor(150)
      },
      STOP: async ({ ctx, snapshot }) => {
        const action = dialogOf(ctx).locator('[data-import-action="stop"]')
        await action.click()
        if (!ctx.held) return
        // the row in flight finishes first: Stop is disabled until it has
        await expect(action).toBeDisabled()
        expect(isStopping(snapshot as ImportTaskSnapshot)).toBe(true)
        ctx.held.release()
        ctx.held = null
        await ctx.page!.unrouteAll({ behavior: 'wait' })
      },
      EDIT_CELL: async ({ ctx, event }) => {
        const cell = dialogOf(ctx).getByRole('textbox', { name: '*Username, row 1' })
        await cell.fill(live(ctx, event.value))
        await cell.press('Enter')
      },
      [UPLOADED]: async () => {},
      [REFUSED]: async () => {},
    },
    states: {
      pending: expectTask,
      'started.uploading': expectTask,
      'started.betweenRows': expectTask,
      stopped: async (step) => {
        await expectTask(step)
        await expectServer(step)
      },
      done: async (step) => {
        await expectTask(step)
        await expectServer(step)
        const dialog = dialogOf(step.ctx)
        const { failed, pending, total } = importProgress((step.snapshot as ImportTaskSnapshot).context.rows)
        const ranOut = (e: EventObject) => e.type === UPLOADED || e.type === REFUSED
        if (failed === 0 && pending === 0) await expect(dialog.getByText(`All ${total} rows were imported.`)).toBeVisible()
        else if (ranOut(step.event)) await expect(dialog.getByRole('alert').filter({ hasText: `${failed} of ${total} rows failed` })).toBeVisible()
      },
    },
  }
}
