import { useState } from 'react'
import Cookies from 'js-cookie'
import { act, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { ConfirmOutput } from '../../../machines/confirm/confirm.types.ts'
import { fakeFetch, json, type Handler, type SentRequest } from '../common/testing.ts'
import { PUBLIC_KEY_COOKIE, renderUi } from './testing.tsx'
import { useUserConfirm } from './useUserConfirm.tsx'

const PROTECTED = '/api/v1/accounts/account-secrets/'
const OTP = { name: 'otp', display_name: 'OTP', disabled: false, placeholder: 'OTP verification code' }
const SMS = { name: 'sms', display_name: 'SMS', disabled: false, placeholder: 'SMS verification code' }

function Harness({ navigate, onOutput }: { navigate: (href: string) => void; onOutput: (o: ConfirmOutput) => void }) {
  const { confirm, dialog } = useUserConfirm(navigate)
  const [status, setStatus] = useState('idle')
  return (
    <>
      <button
        onClick={() => {
          setStatus('running')
          void confirm(PROTECTED).then((o) => {
            setStatus(o.status)
            onOutput(o)
          })
        }}
      >
        start
      </button>
      <output>{status}</output>
      {dialog}
    </>
  )
}

let sent: SentRequest[]
let navigate: ReturnType<typeof vi.fn<(href: string) => void>>
let outputs: ConfirmOutput[]

function setup(routes: Record<string, Handler>) {
  sent = fakeFetch(routes)
  navigate = vi.fn<(href: string) => void>()
  outputs = []
  renderUi(<Harness navigate={navigate} onOutput={(o) => outputs.push(o)} />)
}

const needs = (code: string): Handler => () => json(400, { code, detail: 'This action require confirm current user' })
const posted = (path: string) => sent.filter((r) => r.method === 'POST' && r.url.pathname === path)

beforeEach(() => Cookies.set('jms_public_key', PUBLIC_KEY_COOKIE))
afterEach(() => {
  vi.unstubAllGlobals()
  vi.useRealTimers()
  Cookies.remove('jms_public_key')
})

describe('UserConfirmDialog', { timeout: 30_000 }, () => {
  it('resolves at once when the protected URL answers (no dialog)', async () => {
    setup({ [`GET ${PROTECTED}`]: () => ({ count: 0, results: [] }) })
    await userEvent.click(screen.getByText('start'))
    await waitFor(() => expect(document.querySelector('output')).toHaveTextContent('confirmed'))
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('refuses an OTP that is not 6 characters, then sends the encrypted code', async () => {
    setup({
      [`GET ${PROTECTED}`]: needs('mfa'),
      'GET /api/v1/authentication/confirm/': () => ({ confirm_type: 'mfa', content: [OTP, { ...SMS, disabled: true }] }),
      'POST /api/v1/authentication/confirm/': () => 'ok',
    })
    const user = userEvent.setup()
    await user.click(screen.getByText('start'))
    const input = await screen.findByRole('textbox', { name: /OTP/ })
    expect(screen.getByText('OTP verification code')).toBeInTheDocument()
    expect(screen.getByRole('radio', { name: 'SMS' })).toBeDisabled()
    await user.type(input, '12345')
    await user.click(screen.getByRole('button', { name: 'Confirm' }))
    expect(await screen.findByText('MFA error, please check')).toBeInTheDocument()
    expect(posted('/api/v1/authentication/confirm/')).toHaveLength(0)

    await user.type(input, '6{Enter}')
    await waitFor(() => expect(document.querySelector('output')).toHaveTextContent('confirmed'))
    const [req] = posted('/api/v1/authentication/confirm/')
    const body = req!.body as Record<string, string>
    expect(body.confirm_type).toBe('mfa')
    expect(body.mfa_type).toBe('otp')
    expect(body.secret_key).toMatch(/^[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/)
    expect(body.secret_key).not.toContain('123456')
    expect(new URL(sent.find((r) => r.url.pathname === '/api/v1/authentication/confirm/')!.url).searchParams.get('confirm_type')).toBe('mfa')
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('shows the server refusal of a wrong code and stays open', async () => {
    setup({
      [`GET ${PROTECTED}`]: needs('mfa'),
      'GET /api/v1/authentication/confirm/': () => ({ confirm_type: 'mfa', content: [OTP] }),
      'POST /api/v1/authentication/confirm/': () => json(400, { error: 'MFA code invalid, or it has been used' }),
    })
    const user = userEvent.setup()
    await user.click(screen.getByText('start'))
    await user.type(await screen.findByRole('textbox', { name: /OTP/ }), '000000{Enter}')
    expect(await screen.findByText('MFA code invalid, or it has been used')).toBeInTheDocument()
    expect(screen.getByRole('dialog')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Cancel' }))
    await waitFor(() => expect(document.querySelector('output')).toHaveTextContent('cancelled'))
  })

  it('sends an SMS code and counts 60 s down before it can be sent again', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    setup({
      [`GET ${PROTECTED}`]: needs('mfa'),
      'GET /api/v1/authentication/confirm/': () => ({ confirm_type: 'mfa', content: [{ ...OTP, disabled: true }, SMS] }),
      'POST /api/v1/authentication/mfa/select/': () => json(201, { type: 'sms' }),
      'POST /api/v1/authentication/confirm/': () => 'ok',
    })
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime })
    await user.click(screen.getByText('start'))
    await user.click(await screen.findByRole('button', { name: 'Send code' }))
    const resend = await screen.findByRole('button', { name: 'Resend in 60 s' })
    expect(resend).toBeDisabled()
    expect(posted('/api/v1/authentication/mfa/select/')[0]!.body).toEqual({ type: 'sms' })
    await act(() => vi.advanceTimersByTimeAsync(30_000))
    expect(screen.getByRole('button', { name: /^Resend in (29|30) s$/ })).toBeDisabled()
    await act(() => vi.advanceTimersByTimeAsync(30_000))
    expect(screen.getByRole('button', { name: 'Send code' })).toBeEnabled()
    await user.type(screen.getByRole('textbox', { name: /SMS/ }), '4242{Enter}')
    await waitFor(() => expect(document.querySelector('output')).toHaveTextContent('confirmed'))
    expect((posted('/api/v1/authentication/confirm/')[0]!.body as Record<string, string>).mfa_type).toBe('sms')
  })

  it('asks for the password and sends it without an MFA type', async () => {
    setup({
      [`GET ${PROTECTED}`]: needs('password'),
      'GET /api/v1/authentication/confirm/': () => ({ confirm_type: 'password', content: '' }),
      'POST /api/v1/authentication/confirm/': () => 'ok',
    })
    const user = userEvent.setup()
    await user.click(screen.getByText('start'))
    expect(await screen.findByText('For security, enter your password to continue.')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Confirm' }))
    expect(await screen.findByText('This field is required')).toBeInTheDocument()
    const password = document.querySelector('input[type="password"]') as HTMLInputElement
    await user.type(password, 'Secret-1{Enter}')
    await waitFor(() => expect(document.querySelector('output')).toHaveTextContent('confirmed'))
    const body = posted('/api/v1/authentication/confirm/')[0]!.body as Record<string, string>
    expect(body).not.toHaveProperty('mfa_type')
    expect(body.confirm_type).toBe('password')
    expect(body.secret_key).not.toContain('Secret-1')
  })

  it('re-confirms silently for relogin users, else offers to log in again', async () => {
    setup({
      [`GET ${PROTECTED}`]: needs('relogin'),
      'GET /api/v1/authentication/confirm/': () => ({ confirm_type: 'relogin', content: '' }),
      'POST /api/v1/authentication/confirm/': () => json(400, { error: 'Login time has exceeded 5 minutes, please login again' }),
    })
    const user = userEvent.setup()
    await user.click(screen.getByText('start'))
    expect(await screen.findByText('Login time has exceeded 5 minutes, please login again')).toBeInTheDocument()
    expect(posted('/api/v1/authentication/confirm/')[0]!.body).toEqual({ confirm_type: 'relogin', secret_key: '' })
    await user.click(screen.getByRole('button', { name: 'Re-login' }))
    await waitFor(() => expect(document.querySelector('output')).toHaveTextContent('relogin'))
    expect(navigate).toHaveBeenCalledWith(`/core/auth/logout/?next=${encodeURIComponent(window.location.pathname)}`)
  })

  it('ends as failed when no confirmation method is available', async () => {
    setup({
      [`GET ${PROTECTED}`]: needs('mfa'),
      'GET /api/v1/authentication/confirm/': () => json(404, { error: 'This action require verify your MFA' }),
    })
    await userEvent.click(screen.getByText('start'))
    await waitFor(() => expect(document.querySelector('output')).toHaveTextContent('failed'))
    expect(outputs[0]).toMatchObject({ status: 'failed', failure: { kind: 'auth_mfa_error' } })
    expect(screen.queryByRole('dialog')).toBeNull()
  })
})
