/**
 * The export-flow machine's UI model: the export dialog of the users list, as an organization administrator
 * created for the test, with one row selected (input: no confirmation asked by the list, one selected row, no
 * filters). Server answers are real: a download fails because the user's role was changed through the API to one
 * without `users.view_user` just before (the server answers 403), and succeeds once the role is given back.
 *
 * The confirmation inside an export (a download the server refuses for want of a confirmation, the `confirm`
 * child) is a second model on `?confirm=password` (the list then has a filter: the input says so); its confirmed
 * sessions are not reused.
 *
 * Not driven: a confirmation that fails (`confirmFailed`: the check or the method list failing — no server
 * answer arranges it) and a list that itself asks a confirmation first (no list of the e2e data does).
 */
import type { APIRequestContext } from '@playwright/test'
import { exportFlowMachine } from '../../../machines/export-flow/export-flow.machine.ts'
import { expect } from '../fixtures.ts'
import { ROLES } from '../shell-helpers.ts'
import { LIST, type Session } from './support.ts'
import type { EventObject, UiModel, UiStep } from './ui-model.ts'

export interface ExportCtx {
  open: () => Promise<Session>
  session: Session | null
  request: APIRequestContext
  adminToken: string
  userId: string
  username: string
  password: string
  /** the user's role allows the export now */
  allowed: boolean
  /** the session was confirmed (the server would not refuse the next download) */
  confirmed: boolean
}

const exportDialog = (ctx: ExportCtx) => ctx.session!.page.getByRole('dialog', { name: 'Export' })
const confirmDialog = (ctx: ExportCtx) => ctx.session!.page.getByRole('dialog', { name: 'Confirm your password' })

/** Gives the user the organization administrator role, or one without the users list (through the real API). */
async function allow(ctx: ExportCtx, allowed: boolean): Promise<void> {
  if (ctx.allowed === allowed) return
  const res = await ctx.request.patch(`/api/v1/users/users/${ctx.userId}/`, {
    headers: { Authorization: `Bearer ${ctx.adminToken}` },
    data: { org_roles: [allowed ? ROLES.OrgAdmin : ROLES.OrgUser] },
  })
  expect(res.status(), await res.text()).toBe(200)
  ctx.allowed = allowed
}

/** Before the UI action that starts a download: arrange the server's answer to it. */
async function arrangeDownload(ctx: ExportCtx, next: EventObject | undefined): Promise<void> {
  await allow(ctx, !(next?.type === 'xstate.error.actor.download' && (next.error as { status?: number }).status === 403))
}

const SCOPE_LABEL = { all: 'All', selected: 'Selected rows (1)', filtered: 'Filtered results' } as const
const FORMAT_LABEL = { csv: 'CSV', xlsx: 'Excel' } as const

function baseModel(confirming: boolean): UiModel<ExportCtx> {
  return {
    machine: exportFlowMachine,
    input: confirming
      ? { needsConfirm: false, selectedCount: 0, hasFilters: true }
      : { needsConfirm: false, selectedCount: 1, hasFilters: false },
    events: confirming
      ? [
          { type: 'SUBMIT' },
          { type: 'xstate.error.actor.download', error: { status: 400, code: 'password', url: '/api/v1/users/users/?confirm=password&format=csv' } },
          { type: 'xstate.done.actor.confirm', output: { status: 'confirmed' } },
          { type: 'xstate.done.actor.confirm', output: { status: 'cancelled' } },
          { type: 'xstate.done.actor.download', output: 'user.csv' },
        ]
      : [
          { type: 'SET_SCOPE', scope: 'all' },
          { type: 'SET_SCOPE', scope: 'selected' },
          { type: 'SET_SCOPE', scope: 'filtered' },
          { type: 'SET_FORMAT', format: 'xlsx' },
          { type: 'SET_FORMAT', format: 'csv' },
          { type: 'SUBMIT' },
          { type: 'xstate.done.actor.download', output: 'user.csv' },
          { type: 'xstate.error.actor.download', error: { status: 403 } },
          { type: 'RETRY' },
          { type: 'CANCEL' },
        ],
    // with the server asking a confirmation, a first download is always refused and a confirmed one succeeds
    filter: confirming
      ? (snapshot, event) => {
          if (event.type === 'CANCEL') return false
          const retrying = (snapshot.context as { retryingDownload: boolean }).retryingDownload
          if (event.type === 'xstate.done.actor.download') return retrying
          if (event.type === 'xstate.error.actor.download') return !retrying
          return true
        }
      : (snapshot, event) => event.type !== 'CANCEL' || snapshot.matches('options') || snapshot.matches('error'),
    userEvents: ['xstate.done.actor.confirm'],
    perform: {
      'xstate.init': async ({ ctx }) => {
        if (!ctx.session || ctx.confirmed) {
          await ctx.session?.context.close()
          ctx.session = await ctx.open()
          ctx.confirmed = false
        }
        await allow(ctx, true)
        const { page } = ctx.session
        await page.goto(confirming ? `${LIST}?confirm=password` : LIST)
        await expect(page.getByRole('grid').first()).toBeVisible()
        if (!confirming) await page.getByRole('grid').first().getByRole('row').nth(1).getByRole('checkbox').check()
        await page.locator('[data-command="export"]').click()
      },
      SET_SCOPE: async ({ ctx, event }) => {
        await exportDialog(ctx).getByRole('radio', { name: SCOPE_LABEL[event.scope as keyof typeof SCOPE_LABEL] }).check()
      },
      SET_FORMAT: async ({ ctx, event }) => {
        await exportDialog(ctx).getByRole('radio', { name: FORMAT_LABEL[event.format as keyof typeof FORMAT_LABEL] }).check()
      },
      SUBMIT: async ({ ctx, next }) => {
        await arrangeDownload(ctx, next)
        await exportDialog(ctx).getByRole('button', { name: 'Export' }).click()
      },
      RETRY: async ({ ctx, next }) => {
        await arrangeDownload(ctx, next)
        await exportDialog(ctx).getByRole('button', { name: 'Retry' }).click()
      },
      CANCEL: async ({ ctx }) => {
        await exportDialog(ctx).getByRole('button', { name: 'Cancel' }).click()
      },
      'xstate.done.actor.download': async () => {},
      'xstate.error.actor.download': async () => {},
      'xstate.done.actor.confirm': async ({ ctx, event }) => {
        const dialog = confirmDialog(ctx)
        if ((event.output as { status: string }).status === 'cancelled') {
          await dialog.getByRole('button', { name: 'Cancel' }).click()
          return
        }
        await dialog.getByLabel('Password').fill(ctx.password)
        await dialog.getByRole('button', { name: 'Confirm' }).click()
        ctx.confirmed = true
      },
    },
    states: {
      options: async ({ ctx, snapshot }) => {
        const dialog = exportDialog(ctx)
        const { scope, format } = snapshot.context as { scope: keyof typeof SCOPE_LABEL; format: keyof typeof FORMAT_LABEL }
        await expect(dialog).toBeVisible()
        await expect(dialog.getByRole('radio', { name: SCOPE_LABEL[scope] })).toBeChecked()
        await expect(dialog.getByRole('radio', { name: FORMAT_LABEL[format] })).toBeChecked()
        await expect(dialog.getByRole('button', { name: 'Export' })).toBeEnabled()
      },
      confirming: async ({ ctx }) => {
        await expect(confirmDialog(ctx)).toBeVisible()
        await expect(exportDialog(ctx)).toHaveCount(0)
      },
      error: async ({ ctx }) => {
        const dialog = exportDialog(ctx)
        await expect(dialog.getByText(/^The export failed/)).toBeVisible()
        await expect(dialog.getByRole('button', { name: 'Retry' })).toBeVisible()
        await expect(dialog.getByRole('button', { name: 'Export' })).toBeDisabled()
      },
      done: async ({ ctx }) => {
        await expect(ctx.session!.page.getByRole('dialog')).toHaveCount(0)
        await expect.poll(() => ctx.session!.downloads).toBe(1)
        ctx.session!.downloads = 0
      },
      cancelled: async ({ ctx }) => {
        await expect(ctx.session!.page.getByRole('dialog')).toHaveCount(0)
        expect(ctx.session!.downloads).toBe(0)
      },
    },
  }
}

export const exportUiModel = (): UiModel<ExportCtx> => baseModel(false)
export const exportConfirmUiModel = (): UiModel<ExportCtx> => baseModel(true)

export type ExportStep = UiStep<ExportCtx>
