/**
 * The confirm machine driven in Chromium from its definition (docs/machines/model-testing.md). The flow opens the
 * way users meet it: an export the server refuses for want of a confirmation (`confirm=<type>` in the list's
 * query, docs/import-export.md). Server answers are real: `confirm=password` makes the server offer the password,
 * a wrong password is refused by the server, the right one accepted. A confirmed session stays confirmed for a
 * while, so a path after a confirmed one starts a new session.
 *
 * Confirm by SMS (with `sms`): `confirm=mfa` asked of a user with a phone while SMS is on (Huawei provider pointed at
 * the test's loopback HTTP server, which records the codes) makes the server offer MFA with SMS as the only enabled
 * method. Send code → the server posts a code to the provider → the countdown; one tick of it on Playwright's clock
 * (paused when the code is asked for, so the number shown is the machine's); a code other than the one received is
 * refused by the server, the received one accepted (the export then downloads). The server allows one code per
 * session a minute: every SMS path starts a new session. The paths stay few: the SMS dialog's empty code and
 * cancel are the password dialog's (same form), left to the password paths.
 *
 * Not driven here (the unit model walk covers them; the OTP dialog has tests/e2e/confirm.spec.ts): an already
 * confirmed check (the export is then not refused, so no confirm flow starts), a failing check or method list
 * (no server answer arranges them), a failing SMS send, the countdown's end (60 ticks), choosing between two
 * enabled methods, the silent re-login and an expired login (the server offers them to single-sign-on users only;
 * the e2e server has no identity provider).
 */
import { confirmMachine } from '../../../machines/confirm/confirm.machine.ts'
import { ADMIN, expect } from '../fixtures.ts'
import { LIST, type Session } from './support.ts'
import type { UiModel, UiStep } from './ui-model.ts'

/** The loopback SMS provider of the test: the codes it received, newest last. */
export interface SmsInbox {
  codes: { phone: string; code: string }[]
}

export interface ConfirmCtx {
  open: () => Promise<Session>
  session: Session | null
  /** the server considers the session confirmed: the next path needs a new one */
  confirmed: boolean
  /** SMS paths: a session of the user with a phone (its page on Playwright's clock), and the provider's inbox */
  sms?: { open: () => Promise<Session>; inbox: SmsInbox; phone: string }
  /** whose session `session` is; an SMS sent in it (one a minute per session) */
  sessionOf?: 'password' | 'sms'
  smsSent?: boolean
}

const passwordDialog = (page: Session['page']) => page.getByRole('dialog', { name: 'Confirm your password' })
const mfaDialog = (page: Session['page']) => page.getByRole('dialog', { name: 'Multi-factor authentication' })

/** The events after the code is sent that the clock moves: one tick of the countdown. */
export const SMS_TICK = 'xstate.after.smsTick.confirm.verifying.sms.countingDown'

const MFA_SMS = {
  confirm_type: 'mfa',
  content: [
    { name: 'otp', display_name: 'OTP', disabled: true, placeholder: 'OTP verification code' },
    { name: 'sms', display_name: 'SMS', disabled: false, placeholder: 'SMS verification code' },
  ],
}

/** The confirmation type the server must ask for in this path (from the method list the path receives). */
function askedType(step: UiStep<ConfirmCtx>): 'password' | 'relogin' | 'mfa' {
  const methods = step.path.steps.find((s) => s.event.type === 'xstate.done.actor.getConfirmMethods')?.event as { output?: { confirm_type?: string } } | undefined
  const type = methods?.output?.confirm_type
  return type === 'relogin' || type === 'mfa' ? type : 'password'
}

const isSms = (step: UiStep<ConfirmCtx>) => step.snapshot.context.method === 'sms'

/** The last code the provider received for the user's phone. */
function receivedCode(ctx: ConfirmCtx): string {
  const { inbox, phone } = ctx.sms!
  const last = inbox.codes.filter((c) => c.phone === phone).at(-1)
  if (!last) throw new Error(`the SMS provider received no code for ${phone} (received: ${JSON.stringify(inbox.codes.map((c) => c.phone))})`)
  return last.code
}

/** `sms`: the SMS paths too (the test provides `ctx.sms`: a user with a phone, SMS on with the loopback provider). */
export function confirmUiModel(opts: { sms?: boolean } = {}): UiModel<ConfirmCtx> {
  const smsEvents = opts.sms
    ? [{ type: 'xstate.done.actor.getConfirmMethods', output: MFA_SMS }, { type: 'SEND_CODE' }, { type: 'xstate.done.actor.sendSmsCode', output: null }]
    : []
  return {
    machine: confirmMachine,
    input: { url: '/api/v1/users/users/?format=csv' },
    events: [
      { type: 'xstate.done.actor.check', output: { confirmed: false, confirmType: 'password' } },
      { type: 'xstate.done.actor.getConfirmMethods', output: { confirm_type: 'password', content: '' } },
      ...smsEvents,
      { type: 'SUBMIT', code: '' },
      { type: 'SUBMIT', code: 'secret' },
      { type: 'xstate.done.actor.submitConfirm', output: null },
      { type: 'xstate.error.actor.submitConfirm', error: { status: 400 } },
      { type: 'CANCEL' },
    ],
    // the password and the SMS dialog are told apart by the method (the same states otherwise)
    serializeContext: (snapshot) => snapshot.context.method,
    userEvents: [SMS_TICK],
    filter: (snapshot, event) => {
      if (snapshot.context.method === 'sms') {
        // SMS: send, then a code (wrong or right) or a tick of the countdown, while the form asks
        if (event.type === 'SEND_CODE' || event.type.startsWith('xstate.')) return event.type !== SMS_TICK || snapshot.matches({ verifying: { form: 'asking' } })
        return event.type === 'SUBMIT' && event.code !== '' && snapshot.matches({ verifying: { sms: 'countingDown' } })
      }
      // the user can cancel where a dialog is shown; a refused silent re-login needs a login older than the window
      return (event.type !== 'CANCEL' || snapshot.matches({ verifying: { form: 'asking' } })) &&
        !(event.type === 'xstate.error.actor.submitConfirm' && snapshot.matches('silentRelogin'))
    },
    perform: {
      'xstate.init': async (step) => {
        const { ctx } = step
        const type = askedType(step)
        const of = type === 'mfa' ? 'sms' : 'password'
        if (!ctx.session || ctx.confirmed || ctx.smsSent || (ctx.sessionOf ?? 'password') !== of) {
          await ctx.session?.context.close()
          ctx.session = null
          ctx.session = of === 'sms' ? await ctx.sms!.open() : await ctx.open()
          ctx.sessionOf = of
          ctx.confirmed = false
          ctx.smsSent = false
        }
        const { page } = ctx.session
        await page.goto(`${LIST}?confirm=${type}`)
        await expect(page.getByRole('grid').first()).toBeVisible()
        await page.locator('[data-command="export"]').click()
        await page.getByRole('dialog', { name: 'Export' }).getByRole('button', { name: 'Export' }).click()
      },
      // the server answers: arranged by the list's query (xstate.init), the SMS settings and the user's phone
      'xstate.done.actor.check': async () => {},
      'xstate.done.actor.getConfirmMethods': async () => {},
      'xstate.done.actor.submitConfirm': async ({ ctx }) => {
        ctx.confirmed = true
      },
      'xstate.error.actor.submitConfirm': async () => {},
      'xstate.done.actor.sendSmsCode': async ({ ctx }) => {
        ctx.smsSent = true
      },
      SEND_CODE: async ({ ctx }) => {
        const { page } = ctx.session!
        // from here the countdown moves only when the path says so
        await page.clock.pauseAt(await page.evaluate(() => Date.now() + 1000))
        await mfaDialog(page).getByRole('button', { name: 'Send code' }).click()
      },
      [SMS_TICK]: async ({ ctx }) => {
        await ctx.session!.page.clock.runFor(1000)
      },
      SUBMIT: async (step) => {
        const { ctx, event, next } = step
        const accepted = next?.type === 'xstate.done.actor.submitConfirm'
        if (isSms(step)) {
          const code = receivedCode(ctx)
          // a six-digit code other than the one received is refused by the server
          const typed = accepted ? code : String((Number(code) + 1) % 1_000_000).padStart(6, '0')
          const dialog = mfaDialog(ctx.session!.page)
          await dialog.getByRole('textbox').fill(typed)
          await dialog.getByRole('button', { name: 'Confirm' }).click()
          return
        }
        const dialog = passwordDialog(ctx.session!.page)
        const code = String(event.code)
        // a non-empty code is the right password when the server is to accept it
        const typed = code === '' ? '' : accepted ? ADMIN.password : 'not-the-password'
        await dialog.getByLabel('Password').fill(typed)
        await dialog.getByRole('button', { name: 'Confirm' }).click()
      },
      CANCEL: async ({ ctx }) => {
        await passwordDialog(ctx.session!.page).getByRole('button', { name: 'Cancel' }).click()
      },
    },
    states: {
      'verifying.form.asking + verifying.sms.ready': async (step) => {
        const { ctx, event } = step
        if (isSms(step)) {
          // MFA offered with SMS as the only enabled method: chosen, a code can be asked for
          const dialog = mfaDialog(ctx.session!.page)
          await expect(dialog).toBeVisible()
          await expect(dialog.getByRole('radio', { name: 'SMS' })).toBeChecked()
          await expect(dialog.getByRole('radio', { name: 'OTP' })).toBeDisabled()
          await expect(dialog.getByRole('button', { name: 'Send code' })).toBeEnabled()
          await expect(dialog.getByRole('alert')).toHaveCount(0)
          return
        }
        const dialog = passwordDialog(ctx.session!.page)
        await expect(dialog).toBeVisible()
        await expect(dialog.getByLabel('Password')).toBeVisible()
        await expect(dialog.getByRole('button', { name: 'Confirm' })).toBeEnabled()
        // what brought the machine here: an empty code is refused in the dialog, a wrong one by the server
        if (event.type === 'SUBMIT') await expect(dialog.getByText('This field is required')).toBeVisible()
        else if (event.type === 'xstate.error.actor.submitConfirm') await expect(dialog.getByRole('alert').first()).not.toBeEmpty()
        else await expect(dialog.getByRole('alert')).toHaveCount(0)
      },
      'verifying.form.asking + verifying.sms.countingDown': async ({ ctx, event, snapshot }) => {
        // the code went out through the provider; the countdown shows the machine's seconds (the clock is held)
        const dialog = mfaDialog(ctx.session!.page)
        await expect(dialog).toBeVisible()
        const seconds = snapshot.context.smsCountdown
        await expect(dialog.getByRole('button', { name: `Resend in ${seconds} s` })).toBeDisabled()
        expect(receivedCode(ctx)).toMatch(/^\d{6}$/)
        if (event.type === 'xstate.error.actor.submitConfirm') await expect(dialog.getByRole('alert').first()).toContainText('SMS verification code invalid')
        else await expect(dialog.getByRole('alert')).toHaveCount(0)
      },
      cancelled: async ({ ctx }) => {
        // the export ends with its confirmation
        await expect(ctx.session!.page.getByRole('dialog')).toHaveCount(0)
      },
      done: async ({ ctx }) => {
        // confirmed: the confirmation is gone and the refused download runs again and saves the file
        const { page } = ctx.session!
        await expect(page.getByRole('dialog', { name: /Confirm your password|Multi-factor authentication/ })).toHaveCount(0)
        await expect.poll(() => ctx.session!.downloads).toBeGreaterThan(0)
        ctx.session!.downloads = 0
        await expect(page.getByRole('dialog')).toHaveCount(0)
      },
    },
  }
}
