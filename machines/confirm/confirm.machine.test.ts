// @vitest-environment node

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createActor, fromPromise } from 'xstate'
import { MODEL_TEST_TIMEOUT, flushMicrotasks, walkShortestPaths } from '../testing/model-walk.ts'
import { codeProblem, confirmMachine } from './confirm.machine.ts'
import type { ConfirmCheckResult, ConfirmMethodsResult, SubmitConfirmInput } from './confirm.types.ts'

const URL = '/api/v1/accounts/account-secrets/'
const OTP = { name: 'otp', display_name: 'OTP', disabled: false, placeholder: 'OTP verification code' }
const SMS = { name: 'sms', display_name: 'SMS', disabled: false, placeholder: 'SMS verification code' }
const RADIUS_OFF = { name: 'otp_radius', display_name: 'Radius', disabled: true, placeholder: '' }
const MFA: ConfirmMethodsResult = { confirm_type: 'mfa', content: [RADIUS_OFF, OTP, SMS] }

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

interface Stubs {
  check?: () => Promise<ConfirmCheckResult>
  methods?: () => Promise<ConfirmMethodsResult>
  submit?: (input: SubmitConfirmInput) => Promise<unknown>
  sms?: () => Promise<unknown>
}

function start(stubs: Stubs = {}, smsCountdownSeconds?: number) {
  const submit = vi.fn(stubs.submit ?? (async () => 'ok'))
  const methods = vi.fn(stubs.methods ?? (async () => MFA))
  const sms = vi.fn(stubs.sms ?? (async () => ({ type: 'sms' })))
  const errors: unknown[] = []
  const machine = confirmMachine.provide({
    actors: {
      check: fromPromise(stubs.check ?? (async () => ({ confirmed: false, confirmType: 'mfa' }) as const)),
      getConfirmMethods: fromPromise(() => methods()),
      submitConfirm: fromPromise(({ input }) => submit(input)),
      sendSmsCode: fromPromise(() => sms()),
    },
  })
  const actor = createActor(machine, { input: { url: URL, smsCountdownSeconds } })
  actor.subscribe({ error: (error) => errors.push(error) })
  actor.start()
  return { actor, submit, methods, sms, errors }
}

describe('confirm machine — model', { timeout: MODEL_TEST_TIMEOUT }, () => {
  it('walks every shortest path', async () => {
    const result = await walkShortestPaths({
      machine: confirmMachine,
      inputs: [{ url: URL, smsCountdownSeconds: 2 }],
      promiseActors: ['check', 'getConfirmMethods', 'submitConfirm', 'sendSmsCode'],
      events: [
        { type: 'xstate.done.actor.check', output: { confirmed: true } },
        { type: 'xstate.done.actor.check', output: { confirmed: false, confirmType: 'mfa' } },
        { type: 'xstate.error.actor.check', error: { status: 500 } },
        { type: 'xstate.done.actor.getConfirmMethods', output: { confirm_type: 'relogin', content: '' } },
        { type: 'xstate.done.actor.getConfirmMethods', output: { confirm_type: 'password', content: '' } },
        { type: 'xstate.done.actor.getConfirmMethods', output: MFA },
        { type: 'xstate.done.actor.getConfirmMethods', output: { confirm_type: 'mfa', content: [RADIUS_OFF] } },
        { type: 'xstate.error.actor.getConfirmMethods', error: { status: 404 } },
        { type: 'xstate.done.actor.submitConfirm', output: 'ok' },
        { type: 'xstate.error.actor.submitConfirm', error: { status: 400, error: 'MFA code invalid' } },
        { type: 'xstate.done.actor.sendSmsCode', output: { type: 'sms' } },
        { type: 'xstate.error.actor.sendSmsCode', error: { status: 400 } },
        { type: 'SELECT_METHOD', method: 'sms' },
        { type: 'SELECT_METHOD', method: 'otp' },
        { type: 'SELECT_METHOD', method: 'otp_radius' },
        { type: 'SEND_CODE' },
        { type: 'SUBMIT', code: '123456' },
        { type: 'SUBMIT', code: '12345' },
        { type: 'SUBMIT', code: '' },
        { type: 'RELOGIN' },
        { type: 'CANCEL' },
      ],
      invariant: (snapshot) => {
        if (snapshot.matches('verifying')) expect(snapshot.context.methods.find((m) => m.name === snapshot.context.method)?.disabled ?? false).toBe(false)
        if (snapshot.matches({ verifying: { sms: 'countingDown' } })) expect(snapshot.context.smsCountdown).toBeGreaterThan(0)
        if (snapshot.matches({ verifying: { sms: 'ready' } })) expect(snapshot.context.smsCountdown).toBe(0)
      },
    })
    expect(result.paths).toBeGreaterThan(30)
  })
})

describe('confirm machine — scenarios', () => {
  it('validates codes: OTP exactly 6 characters, others non-empty', () => {
    expect(codeProblem('otp', '12345')).toBe('mfa_invalid_format')
    expect(codeProblem('otp', '1234567')).toBe('mfa_invalid_format')
    expect(codeProblem('otp', ' 123456 ')).toBeNull()
    expect(codeProblem('sms', ' ')).toBe('secret_required')
    expect(codeProblem('password', '')).toBe('secret_required')
    expect(codeProblem('password', ' pass ')).toBeNull()
  })

  it('refuses a 5-character OTP, then submits a 6-character one', async () => {
    const { actor, submit, errors } = start()
    await flushMicrotasks()
    expect(actor.getSnapshot().matches({ verifying: { form: 'asking' } })).toBe(true)
    expect(actor.getSnapshot().context.method).toBe('otp')
    actor.send({ type: 'SUBMIT', code: '12345' })
    expect(actor.getSnapshot().context.error).toEqual({ kind: 'mfa_invalid_format' })
    expect(submit).not.toHaveBeenCalled()
    actor.send({ type: 'SUBMIT', code: '654321' })
    expect(actor.getSnapshot().context.error).toBeNull()
    await flushMicrotasks()
    expect(submit).toHaveBeenCalledWith({ confirmType: 'mfa', mfaType: 'otp', secret: '654321' })
    expect(actor.getSnapshot().output).toEqual({ status: 'confirmed' })
    expect(errors).toEqual([])
  })

  it('is done at once when the protected URL answers', async () => {
    const { actor, methods } = start({ check: async () => ({ confirmed: true }) })
    await flushMicrotasks()
    expect(actor.getSnapshot().output).toEqual({ status: 'confirmed' })
    expect(methods).not.toHaveBeenCalled()
  })

  it('sends the password without an MFA type and returns to asking on a server error', async () => {
    let attempts = 0
    const { actor, submit } = start({
      methods: async () => ({ confirm_type: 'password', content: '' }),
      submit: async () => {
        attempts += 1
        if (attempts === 1) throw { status: 400, error: 'Password invalid' }
        return 'ok'
      },
    })
    await flushMicrotasks()
    actor.send({ type: 'SUBMIT', code: ' s3cret ' })
    await flushMicrotasks()
    expect(actor.getSnapshot().value).toEqual({ verifying: { form: 'asking', sms: 'ready' } })
    expect(actor.getSnapshot().context.error).toEqual({ kind: 'submit_failed', error: { status: 400, error: 'Password invalid' } })
    actor.send({ type: 'SUBMIT', code: ' s3cret ' })
    await flushMicrotasks()
    expect(submit).toHaveBeenLastCalledWith({ confirmType: 'password', mfaType: null, secret: ' s3cret ' })
    expect(actor.getSnapshot().output).toEqual({ status: 'confirmed' })
  })

  it('re-logs in silently, or asks the user to log in again', async () => {
    const ok = start({ methods: async () => ({ confirm_type: 'relogin', content: '' }) })
    await flushMicrotasks()
    expect(ok.submit).toHaveBeenCalledWith({ confirmType: 'relogin', mfaType: null, secret: '' })
    expect(ok.actor.getSnapshot().output).toEqual({ status: 'confirmed' })

    const expired = { status: 400, error: 'Login time has exceeded 5 minutes, please login again' }
    const stale = start({
      methods: async () => ({ confirm_type: 'relogin', content: '' }),
      submit: async () => {
        throw expired
      },
    })
    await flushMicrotasks()
    expect(stale.actor.getSnapshot().value).toBe('needRelogin')
    stale.actor.send({ type: 'RELOGIN' })
    expect(stale.actor.getSnapshot().output).toEqual({ status: 'relogin', error: expired })
  })

  it('counts 60 s down after sending an SMS code and allows a resend at 0', async () => {
    const { actor, sms } = start()
    await flushMicrotasks()
    actor.send({ type: 'SEND_CODE' })
    expect(sms).not.toHaveBeenCalled()
    actor.send({ type: 'SELECT_METHOD', method: 'sms' })
    actor.send({ type: 'SEND_CODE' })
    await flushMicrotasks()
    expect(sms).toHaveBeenCalledTimes(1)
    expect(actor.getSnapshot().context.smsCountdown).toBe(60)
    await vi.advanceTimersByTimeAsync(59_000)
    expect(actor.getSnapshot().context.smsCountdown).toBe(1)
    actor.send({ type: 'SEND_CODE' })
    expect(sms).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(1_000)
    expect(actor.getSnapshot().value).toEqual({ verifying: { form: 'asking', sms: 'ready' } })
    expect(actor.getSnapshot().context.smsCountdown).toBe(0)
    actor.send({ type: 'SEND_CODE' })
    await flushMicrotasks()
    expect(sms).toHaveBeenCalledTimes(2)
    actor.send({ type: 'SUBMIT', code: '4321' })
    await flushMicrotasks()
    expect(actor.getSnapshot().output).toEqual({ status: 'confirmed' })
    expect(vi.getTimerCount()).toBe(0)
  })

  it('fails with AuthMFAError when no method is available, or all are disabled', async () => {
    const none = start({
      methods: async () => {
        throw { status: 404, error: 'This action require verify your MFA' }
      },
    })
    await flushMicrotasks()
    expect(none.actor.getSnapshot().output).toMatchObject({ status: 'failed', failure: { kind: 'auth_mfa_error' } })
    const disabled = start({ methods: async () => ({ confirm_type: 'mfa', content: [RADIUS_OFF] }) })
    await flushMicrotasks()
    expect(disabled.actor.getSnapshot().output).toEqual({ status: 'failed', failure: { kind: 'no_enabled_method' } })
  })

  it('cancels from any unfinished state', async () => {
    const { actor } = start({ check: () => new Promise(() => {}) })
    actor.send({ type: 'CANCEL' })
    expect(actor.getSnapshot().output).toEqual({ status: 'cancelled' })
  })
})
