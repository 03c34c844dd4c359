/**
 * The confirm machine driven in Chromium from its definition (docs/machines/model-testing.md). The flow opens the
 * way users meet it: an export the server refuses for want of a confirmation (`confirm=<type>` in the list's
 * query, docs/import-export.md). Server answers are real: `confirm=password` makes the server offer the password,
 * a wrong password is refused by the server, the right one accepted. A confirmed session stays confirmed for a while, so a path after a confirmed one starts a new session.
 *
 * Not driven here (the unit model walk covers them; the MFA dialog has tests/e2e/confirm.spec.ts): an already
 * confirmed check (the export is then not refused, so no confirm flow starts), a failing check or method list
 * (no server answer arranges them), MFA and SMS (single-use codes, an SMS gateway), the silent re-login and an
 * expired login (the server offers them to single-sign-on users only; the e2e server has no identity provider).
 */
import { confirmMachine } from '../../../machines/confirm/confirm.machine.ts'
import { ADMIN, expect } from '../fixtures.ts'
import { LIST, type Session } from './support.ts'
import type { UiModel, UiStep } from './ui-model.ts'

export interface ConfirmCtx {
  open: () => Promise<Session>
  session: Session | null
  /** the server considers the session confirmed: the next path needs a new one */
  confirmed: boolean
}

const verifyDialog = (page: Session['page']) => page.getByRole('dialog', { name: 'Confirm your password' })

/** The confirmation type the server must ask for in this path (from the method list the path receives). */
function askedType(step: UiStep<ConfirmCtx>): 'password' | 'relogin' {
  const methods = step.path.steps.find((s) => s.event.type === 'xstate.done.actor.getConfirmMethods')?.event as { output?: { confirm_type?: string } } | undefined
  return methods?.output?.confirm_type === 'relogin' ? 'relogin' : 'password'
}

export function confirmUiModel(): UiModel<ConfirmCtx> {
  return {
    machine: confirmMachine,
    input: { url: '/api/v1/users/users/?format=csv' },
    events: [
      { type: 'xstate.done.actor.check', output: { confirmed: false, confirmType: 'password' } },
      { type: 'xstate.done.actor.getConfirmMethods', output: { confirm_type: 'password', content: '' } },
      { type: 'SUBMIT', code: '' },
      { type: 'SUBMIT', code: 'secret' },
      { type: 'xstate.done.actor.submitConfirm', output: null },
      { type: 'xstate.error.actor.submitConfirm', error: { status: 400 } },
      { type: 'CANCEL' },
    ],
    // the user can cancel where a dialog is shown; a refused silent re-login needs a login older than the window
    filter: (snapshot, event) =>
      (event.type !== 'CANCEL' || snapshot.matches({ verifying: { form: 'asking' } })) &&
      !(event.type === 'xstate.error.actor.submitConfirm' && snapshot.matches('silentRelogin')),
    perform: {
      'xstate.init': async (step) => {
        const { ctx } = step
        if (!ctx.session || ctx.confirmed) {
          await ctx.session?.context.close()
          ctx.session = await ctx.open()
          ctx.confirmed = false
        }
        const { page } = ctx.session
        await page.goto(`${LIST}?confirm=${askedType(step)}`)
        await expect(page.getByRole('grid').first()).toBeVisible()
        await page.locator('[data-command="export"]').click()
        await page.getByRole('dialog', { name: 'Export' }).getByRole('button', { name: 'Export' }).click()
      },
      // the server answers: arranged by the list's query (xstate.init)
      'xstate.done.actor.check': async () => {},
      'xstate.done.actor.getConfirmMethods': async () => {},
      'xstate.done.actor.submitConfirm': async ({ ctx }) => {
        ctx.confirmed = true
      },
      'xstate.error.actor.submitConfirm': async () => {},
      SUBMIT: async ({ ctx, event, next }) => {
        const dialog = verifyDialog(ctx.session!.page)
        const code = String(event.code)
        // a non-empty code is the right password when the server is to accept it
        const typed = code === '' ? '' : next?.type === 'xstate.done.actor.submitConfirm' ? ADMIN.password : 'not-the-password'
        await dialog.getByLabel('Password').fill(typed)
        await dialog.getByRole('button', { name: 'Confirm' }).click()
      },
      CANCEL: async ({ ctx }) => {
        await verifyDialog(ctx.session!.page).getByRole('button', { name: 'Cancel' }).click()
      },
    },
    states: {
      'verifying.form.asking + verifying.sms.ready': async ({ ctx, event }) => {
        const dialog = verifyDialog(ctx.session!.page)
        await expect(dialog).toBeVisible()
        await expect(dialog.getByLabel('Password')).toBeVisible()
        await expect(dialog.getByRole('button', { name: 'Confirm' })).toBeEnabled()
        // what brought the machine here: an empty code is refused in the dialog, a wrong one by the server
        if (event.type === 'SUBMIT') await expect(dialog.getByText('This field is required')).toBeVisible()
        else if (event.type === 'xstate.error.actor.submitConfirm') await expect(dialog.getByRole('alert').first()).not.toBeEmpty()
        else await expect(dialog.getByRole('alert')).toHaveCount(0)
      },
      cancelled: async ({ ctx }) => {
        // the export ends with its confirmation
        await expect(ctx.session!.page.getByRole('dialog')).toHaveCount(0)
      },
      done: async ({ ctx }) => {
        // confirmed: the confirmation is gone and the refused download runs again and saves the file
        const { page } = ctx.session!
        await expect(page.getByRole('dialog', { name: 'Confirm your password' })).toHaveCount(0)
        await expect.poll(() => ctx.session!.downloads).toBeGreaterThan(0)
        ctx.session!.downloads = 0
        await expect(page.getByRole('dialog')).toHaveCount(0)
      },
    },
  }
}

