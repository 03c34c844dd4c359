import { useCallback, useEffect, useLayoutEffect, useReducer, useRef } from 'react'
import { AuthError, cancelLoginConfirm, login, loginConfirmStatus, loginMfa } from '../api/auth.ts'
import { blockedSubmit, initialLoginState, loginReducer, type InputName, type LoginState } from './loginState.ts'

export interface LoginFlow {
  state: LoginState
  edit: (field: InputName, value: string) => void
  submit: () => Promise<void>
  back: () => void
  /** gives up a login held for review (the server closes its ticket) */
  cancel: () => Promise<void>
}

/** How often a held login asks whether a reviewer decided. */
export const CONFIRM_POLL_MS = 3000

const leave = (url: string): void => window.location.assign(url)

/** The `?next=` of the login page, passed through to the server (which keeps only same-site paths). */
export function nextFromLocation(search: string = window.location.search): string | undefined {
  return new URLSearchParams(search).get('next') || undefined
}

/** Runs the two-step login: the reducer decides, this hook calls the server and navigates on success. */
/**
 * Where a single sign-on sent the browser back to this page: `?mfa=1` (the provider signed the user in, the
 * second factor is still due: start on the code step) or `?error=sso_…` (shown in the alert).
 */
export function ssoStartFromLocation(search: string = window.location.search): Partial<LoginState> {
  const q = new URLSearchParams(search)
  if (q.get('mfa') === '1') return { step: 'mfa', focus: 'code' }
  const notice = { sso_failed: 'ssoFailed', sso_user_denied: 'ssoDenied', sso_inactive: 'ssoInactive', sso_disabled: 'ssoDisabled' } as const
  const kind = notice[q.get('error') as keyof typeof notice]
  return kind ? { notice: { kind, text: '' } } : {}
}

export function useLoginFlow(next: string | undefined, navigate: (url: string) => void = leave, start: Partial<LoginState> = {}): LoginFlow {
  const [state, dispatch] = useReducer(loginReducer, start, (s) => ({ ...initialLoginState, ...s }))
  const current = useRef(state)
  useLayoutEffect(() => {
    current.current = state
  })
  // Set synchronously, so a second Enter before the next render cannot send twice.
  const inFlight = useRef(false)

  const submit = useCallback(async () => {
    const s = current.current
    if (inFlight.current || s.busy) return
    dispatch({ type: 'submit' })
    if (blockedSubmit(s)) return
    inFlight.current = true
    try {
      if (s.step === 'password') {
        const outcome = await login({ username: s.username.trim(), password: s.password, next })
        if (outcome.kind === 'mfa') {
          inFlight.current = false
          dispatch({ type: 'mfaRequired' })
          return
        }
        if (outcome.kind === 'confirm') {
          inFlight.current = false
          dispatch({ type: 'confirmRequired', reviewers: outcome.reviewers })
          return
        }
        dispatch({ type: 'done' })
        navigate(outcome.next)
      } else {
        const outcome = await loginMfa(s.code.trim())
        dispatch({ type: 'done' })
        navigate(outcome.next)
      }
    } catch (e) {
      inFlight.current = false
      const failure = e instanceof AuthError ? e : { status: 0, code: 'failed', message: '' }
      dispatch({ type: 'failed', failure })
    }
  }, [next, navigate])

  const edit = useCallback((field: InputName, value: string) => dispatch({ type: 'edit', field, value }), [])
  const back = useCallback(() => dispatch({ type: 'back' }), [])

  // A held login polls until a reviewer decides: done → leave, the second factor → its step, refused → the
  // password step with the reason.
  const waiting = state.step === 'confirm'
  useEffect(() => {
    if (!waiting) return
    let stopped = false
    const poll = async () => {
      try {
        const outcome = await loginConfirmStatus()
        if (stopped) return
        if (outcome.kind === 'confirm') return
        stopped = true
        if (outcome.kind === 'mfa') dispatch({ type: 'mfaRequired' })
        else {
          dispatch({ type: 'done' })
          navigate(outcome.next)
        }
      } catch (e) {
        if (stopped) return
        const failure = e instanceof AuthError ? e : { status: 0, code: 'failed', message: '' }
        if (failure.code === 'network_error' || failure.code === 'timeout') return
        stopped = true
        dispatch({ type: 'failed', failure })
      }
    }
    const timer = setInterval(() => void poll(), CONFIRM_POLL_MS)
    return () => {
      stopped = true
      clearInterval(timer)
    }
  }, [waiting, navigate])

  const cancel = useCallback(async () => {
    try {
      await cancelLoginConfirm()
    } finally {
      dispatch({ type: 'back' })
    }
  }, [])
  return { state, edit, submit, back, cancel }
}
