/**
 * The confirm machine wired to the HTTP calls of src/api/transfer.ts. The secret (code or password) is encrypted
 * there with the session's public key; the reference console sends it in clear.
 */
import { fromPromise } from 'xstate'
import { confirmMachine } from '../../../machines/confirm/confirm.machine.ts'
import type { ConfirmCheckResult, ConfirmMethodsResult, SubmitConfirmInput } from '../../../machines/confirm/confirm.types.ts'
import { checkProtected, getConfirmMethods, isConfirmType, sendSmsCode, submitConfirm } from '../../api/transfer.ts'

export const confirmLogic = confirmMachine.provide({
  actors: {
    check: fromPromise<ConfirmCheckResult, { url: string }>(async ({ input, signal }) => {
      const result = await checkProtected(input.url, signal)
      return result.kind === 'ok' ? { confirmed: true } : { confirmed: false, confirmType: result.confirmType }
    }),
    getConfirmMethods: fromPromise<ConfirmMethodsResult, { confirmType: string | null }>(async ({ input, signal }) => {
      const asked = isConfirmType(input.confirmType) ? input.confirmType : 'mfa'
      const { confirmType, methods } = await getConfirmMethods(asked, signal)
      return {
        confirm_type: confirmType,
        content: confirmType === 'mfa'
          ? methods.map((m) => ({ name: m.name, display_name: m.displayName, disabled: m.disabled, placeholder: m.placeholder }))
          : '',
      }
    }),
    submitConfirm: fromPromise<unknown, SubmitConfirmInput>(async ({ input, signal }) => {
      await submitConfirm({ confirmType: input.confirmType, mfaType: input.mfaType ?? undefined, secret: input.secret }, signal)
      return null
    }),
    sendSmsCode: fromPromise<unknown, void>(async ({ signal }) => {
      await sendSmsCode(signal)
      return null
    }),
  },
})

export { reloginHref } from './relogin.ts'
