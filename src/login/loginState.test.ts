import { describe, expect, it } from 'vitest'
import { blockedSubmit, initialLoginState, isOtpCode, loginReducer, type LoginAction, type LoginState } from './loginState.ts'

const run = (actions: LoginAction[], from: LoginState = initialLoginState): LoginState => actions.reduce(loginReducer, from)
const typed = run([
  { type: 'edit', field: 'username', value: 'alice' },
  { type: 'edit', field: 'password', value: 'Secret-1' },
])
const fail = (code: string, message = 'Server says no', status = 400): LoginAction => ({ type: 'failed', failure: { status, code, message } })

describe('loginReducer', () => {
  it('starts on the password step with focus on the username', () => {
    expect(initialLoginState).toMatchObject({ step: 'password', busy: false, focus: 'username', notice: null })
  })

  it('refuses to submit empty fields and focuses the first one', () => {
    const s = run([{ type: 'submit' }])
    expect(s.busy).toBe(false)
    expect(s.missing).toEqual({ username: true, password: true })
    expect(s.focus).toBe('username')
    const onlyPassword = run([{ type: 'edit', field: 'username', value: 'bob' }, { type: 'submit' }])
    expect(onlyPassword.missing).toEqual({ username: false, password: true })
    expect(onlyPassword.focus).toBe('password')
    expect(run([{ type: 'edit', field: 'password', value: 'x' }], onlyPassword).missing.password).toBe(false)
  })

  it('goes busy on submit and ignores a second submit and edits meanwhile', () => {
    const busy = run([{ type: 'submit' }], typed)
    expect(busy.busy).toBe(true)
    expect(loginReducer(busy, { type: 'submit' })).toBe(busy)
    expect(loginReducer(busy, { type: 'edit', field: 'username', value: 'mallory' })).toBe(busy)
    expect(loginReducer(busy, { type: 'back' })).toBe(busy)
  })

  it('clears only the password after wrong credentials and shows the server message', () => {
    const s = run([{ type: 'submit' }, fail('invalid_credentials', 'Wrong, 4 tries left')], typed)
    expect(s).toMatchObject({ busy: false, username: 'alice', password: '', focus: 'password' })
    expect(s.notice).toEqual({ kind: 'server', text: 'Wrong, 4 tries left' })
  })

  it('keeps everything the user typed after other refusals', () => {
    const s = run([{ type: 'submit' }, fail('blocked', 'Blocked for 30 minutes')], typed)
    expect(s).toMatchObject({ username: 'alice', password: 'Secret-1', busy: false })
    expect(s.notice?.kind).toBe('server')
  })

  it('asks for a reload when the page session is stale, and names network trouble', () => {
    for (const code of ['csrf_failed', 'missing_public_key', 'invalid_public_key', 'decrypt_failed']) {
      expect(run([{ type: 'submit' }, fail(code, 'CSRF Failed: CSRF token missing')], typed).notice).toEqual({ kind: 'reload', text: '' })
    }
    expect(run([{ type: 'submit' }, fail('network_error', 'Cannot reach the server', 0)], typed).notice).toEqual({ kind: 'network', text: 'Cannot reach the server' })
    expect(run([{ type: 'submit' }, fail('http_502', '', 502)], typed).notice).toEqual({ kind: 'failed', text: '' })
  })

  it('moves to the MFA step, checks the code format before sending', () => {
    const mfa = run([{ type: 'submit' }, { type: 'mfaRequired' }], typed)
    expect(mfa).toMatchObject({ step: 'mfa', busy: false, code: '', focus: 'code' })
    const short = run([{ type: 'edit', field: 'code', value: '12345' }, { type: 'submit' }], mfa)
    expect(short.busy).toBe(false)
    expect(short.notice?.kind).toBe('mfaFormat')
    const letters = run([{ type: 'edit', field: 'code', value: '12345a' }, { type: 'submit' }], mfa)
    expect(letters.notice?.kind).toBe('mfaFormat')
    const good = run([{ type: 'edit', field: 'code', value: '123456' }, { type: 'submit' }], mfa)
    expect(good).toMatchObject({ busy: true, notice: null })
  })

  it('clears a refused code, and returns to step one when the MFA step expired', () => {
    const sent = run([{ type: 'submit' }, { type: 'mfaRequired' }, { type: 'edit', field: 'code', value: '123456' }, { type: 'submit' }], typed)
    const wrong = loginReducer(sent, fail('mfa_invalid', 'MFA code invalid'))
    expect(wrong).toMatchObject({ step: 'mfa', code: '', focus: 'code', busy: false })
    const expired = loginReducer(sent, fail('mfa_expired', 'Login time has exceeded 5 minutes, please login again'))
    expect(expired).toMatchObject({ step: 'password', username: 'alice', password: 'Secret-1', focus: 'password' })
    expect(expired.notice?.text).toMatch(/5 minutes/)
  })

  it('goes back to step one on request, and stays busy once done', () => {
    const mfa = run([{ type: 'submit' }, { type: 'mfaRequired' }, { type: 'edit', field: 'code', value: '1' }], typed)
    expect(loginReducer(mfa, { type: 'back' })).toMatchObject({ step: 'password', code: '', password: 'Secret-1' })
    const done = run([{ type: 'submit' }, { type: 'done' }], typed)
    expect(done).toMatchObject({ busy: true, leaving: true })
  })

  it('bumps focusSeq whenever focus must move, even to the same input', () => {
    const a = run([{ type: 'submit' }], typed)
    const b = loginReducer(a, fail('invalid_credentials'))
    const c = run([{ type: 'edit', field: 'password', value: 'x' }, { type: 'submit' }, fail('invalid_credentials')], b)
    expect(b.focus).toBe('password')
    expect(c.focus).toBe('password')
    expect(c.focusSeq).toBeGreaterThan(b.focusSeq)
  })
})

describe('helpers', () => {
  it('accepts exactly six digits', () => {
    expect(isOtpCode('012345')).toBe(true)
    expect(isOtpCode(' 012345 ')).toBe(true)
    expect(isOtpCode('12345')).toBe(false)
    expect(isOtpCode('1234567')).toBe(false)
    expect(isOtpCode('12 345')).toBe(false)
  })

  it('blockedSubmit is null exactly when the step can be sent', () => {
    expect(blockedSubmit(typed)).toBeNull()
    expect(blockedSubmit({ ...typed, username: '   ' })?.focus).toBe('username')
  })
})

describe('a login held for review', () => {
  it('waits with the reviewers, goes back on cancel, and returns to the password with the reason when refused', () => {
    const reduce = loginReducer
    const sent = reduce({ ...initialLoginState, username: 'u', password: 'p' }, { type: 'submit' })
    const waiting = reduce(sent, { type: 'confirmRequired', reviewers: ['Ann', 'Bo'] })
    expect(waiting).toMatchObject({ step: 'confirm', busy: false, reviewers: ['Ann', 'Bo'] })
    expect(reduce(waiting, { type: 'back' })).toMatchObject({ step: 'password', reviewers: [] })
    const refused = reduce(waiting, { type: 'failed', failure: { status: 400, code: 'login_confirm_rejected', message: 'The reviewer rejected the login' } })
    expect(refused).toMatchObject({ step: 'password', password: '', notice: { kind: 'server', text: 'The reviewer rejected the login' }, focus: 'password' })
  })
})
