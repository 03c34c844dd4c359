/**
 * Confirmation before a sensitive action (spec 000 §4.2, console-behaviour §2.7), driven by the confirm machine.
 * Nothing is shown while the protected URL is checked; the dialog appears only when the user must act: the
 * verification form (MFA code, SMS with a 60 s resend countdown, or password) or the re-login notice.
 * `onResult` receives the machine's output once it is final.
 */
import { useEffect, useRef, useState, type FormEvent, type ReactElement } from 'react'
import { t } from '@lingui/core/macro'
import { Trans } from '@lingui/react/macro'
import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  Input,
  makeStyles,
  Radio,
  RadioGroup,
  Spinner,
  tokens,
} from '@fluentui/react-components'
import { useActorRef, useSelector } from '@xstate/react'
import { inspectActors } from '../inspector/registry.ts'
import type { ActorRefFrom, SnapshotFrom } from 'xstate'
import type { confirmMachine } from '../../../machines/confirm/confirm.machine.ts'
import type { ConfirmError, ConfirmOutput } from '../../../machines/confirm/confirm.types.ts'
import { confirmLogic } from './confirmLogic.ts'
import { describeError } from '../common/errors.ts'

type Snapshot = SnapshotFrom<typeof confirmMachine>

const useStyles = makeStyles({
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  codeRow: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'flex-start' },
  code: { flexGrow: 1 },
  send: { marginTop: '26px', flexShrink: 0 },
})

const selectPhase = (s: Snapshot): 'busy' | 'verifying' | 'needRelogin' | 'final' =>
  s.status === 'done' ? 'final' : s.matches('verifying') ? 'verifying' : s.matches('needRelogin') ? 'needRelogin' : 'busy'
const selectSubmitting = (s: Snapshot) => s.matches({ verifying: { form: 'submitting' } })
const selectSending = (s: Snapshot) => s.matches({ verifying: { sms: 'sending' } })
const selectCountdown = (s: Snapshot) => s.context.smsCountdown
const selectMethod = (s: Snapshot) => s.context.method
const selectMethods = (s: Snapshot) => s.context.methods
const selectError = (s: Snapshot) => s.context.error
const selectReloginError = (s: Snapshot) => s.context.reloginError

function errorMessage(error: ConfirmError | null): string | undefined {
  if (!error) return undefined
  switch (error.kind) {
    case 'mfa_invalid_format':
      return t`MFA error, please check`
    case 'secret_required':
      return t`This field is required`
    case 'submit_failed':
      return describeError(error.error)
    case 'sms_send_failed':
      return describeError(error.error)
    default:
      return error satisfies never
  }
}

export interface UserConfirmDialogProps {
  /** The protected URL: a successful GET means the session is already confirmed. */
  url: string
  onResult: (output: ConfirmOutput) => void
}

/** Runs its own confirm machine against `url`. */
export function UserConfirmDialog({ url, onResult }: UserConfirmDialogProps): ReactElement | null {
  const actor = useActorRef(confirmLogic, { input: { url }, inspect: inspectActors })
  useEffect(() => {
    const sub = actor.subscribe((s) => {
      if (s.status === 'done') onResult(s.output)
    })
    return () => sub.unsubscribe()
    // onResult is read once per run: the dialog is keyed by run
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [actor])
  return <UserConfirmDialogView actor={actor} />
}

/** The dialog of a confirm actor run elsewhere (e.g. the export flow's `confirm` child). */
export function UserConfirmDialogView({ actor }: { actor: ConfirmActor }): ReactElement | null {
  const phase = useSelector(actor, selectPhase)
  const cancel = () => actor.send({ type: 'CANCEL' })
  if (phase === 'verifying') return <VerifyDialog actor={actor} onCancel={cancel} />
  if (phase === 'needRelogin') return <ReloginDialog actor={actor} onCancel={cancel} />
  return null
}

/** Any running confirm machine (its actors may differ). */
export type ConfirmActor = ActorRefFrom<typeof confirmMachine>

function VerifyDialog({ actor, onCancel }: { actor: ConfirmActor; onCancel: () => void }): ReactElement {
  const styles = useStyles()
  const [code, setCode] = useState('')
  const input = useRef<HTMLInputElement>(null)
  useEffect(() => {
    // after the dialog has focused its first element (the method choice), the code field takes focus
    const id = setTimeout(() => input.current?.focus())
    return () => clearTimeout(id)
  }, [])
  const method = useSelector(actor, selectMethod)
  const methods = useSelector(actor, selectMethods)
  const error = useSelector(actor, selectError)
  const submitting = useSelector(actor, selectSubmitting)
  const sending = useSelector(actor, selectSending)
  const countdown = useSelector(actor, selectCountdown)
  const isPassword = method === 'password'
  const current = methods.find((m) => m.name === method)
  const hint = isPassword ? t`For security, enter your password to continue.` : current?.placeholder || t`Enter the verification code.`
  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (!submitting) actor.send({ type: 'SUBMIT', code })
  }
  return (
    <Dialog open modalType="modal" onOpenChange={(_, data) => !data.open && onCancel()}>
      <DialogSurface>
        <form onSubmit={submit} noValidate>
          <DialogBody>
            <DialogTitle>{isPassword ? <Trans>Confirm your password</Trans> : <Trans>Multi-factor authentication</Trans>}</DialogTitle>
            <DialogContent className={styles.form}>
              {!isPassword && methods.length > 1 && (
                <Field label={t`Verification method`}>
                  <RadioGroup
                    layout="horizontal"
                    value={method ?? ''}
                    onChange={(_, data) => {
                      setCode('')
                      actor.send({ type: 'SELECT_METHOD', method: data.value })
                    }}
                  >
                    {methods.map((m) => (
                      <Radio key={m.name} value={m.name} label={m.display_name} disabled={m.disabled} />
                    ))}
                  </RadioGroup>
                </Field>
              )}
              <div className={styles.codeRow}>
                <Field
                  className={styles.code}
                  label={isPassword ? t`Password` : current?.display_name || t`Verification code`}
                  hint={hint}
                  validationMessage={errorMessage(error)}
                  required
                >
                  <Input
                    type={isPassword ? 'password' : 'text'}
                    autoComplete={isPassword ? 'current-password' : 'one-time-code'}
                    inputMode={isPassword ? undefined : 'numeric'}
                    value={code}
                    onChange={(_, data) => setCode(data.value)}
                    ref={input}
                  />
                </Field>
                {method === 'sms' && (
                  <Button
                    className={styles.send}
                    disabled={sending || countdown > 0}
                    onClick={() => actor.send({ type: 'SEND_CODE' })}
                  >
                    {countdown > 0 ? t`Resend in ${countdown} s` : t`Send code`}
                  </Button>
                )}
              </div>
            </DialogContent>
            <DialogActions>
              <Button onClick={onCancel}>
                <Trans>Cancel</Trans>
              </Button>
              <Button type="submit" appearance="primary" disabled={submitting} icon={submitting ? <Spinner size="tiny" /> : undefined}>
                <Trans>Confirm</Trans>
              </Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  )
}

function ReloginDialog({ actor, onCancel }: { actor: ConfirmActor; onCancel: () => void }): ReactElement {
  const reloginError = useSelector(actor, selectReloginError)
  const detail = reloginError ? describeError(reloginError) : ''
  return (
    <Dialog open modalType="alert" onOpenChange={(_, data) => !data.open && onCancel()}>
      <DialogSurface>
        <DialogBody>
          <DialogTitle>
            <Trans>Log in again</Trans>
          </DialogTitle>
          <DialogContent>
            <p>
              <Trans>For security, this action needs a recent login. Log in again, then repeat the action.</Trans>
            </p>
            {detail && <p>{detail}</p>}
          </DialogContent>
          <DialogActions>
            <Button onClick={onCancel}>
              <Trans>Cancel</Trans>
            </Button>
            <Button appearance="primary" onClick={() => actor.send({ type: 'RELOGIN' })}>
              <Trans>Re-login</Trans>
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  )
}
