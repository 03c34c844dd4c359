import { useCallback, useLayoutEffect, useReducer, useRef } from 'react'
import { AuthError, login, loginMfa } from '../api/auth.ts'
import { blockedSubmit, initialLoginState, loginReducer, type InputName, type LoginState } from './loginState.ts'

export interface LoginFlow {
  state: LoginState
  edit: (field: InputName, value: string) => void
  submit: () => Promise<void>
  back: () => void
}

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
  return { state, edit, submit, back }
}
