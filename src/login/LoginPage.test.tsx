import { act, render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { I18nProvider } from '@lingui/react'
import { i18n } from '@lingui/core'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type * as authApi from '../api/auth.ts'
import { AuthError, fetchOpenSettings, login, loginMfa } from '../api/auth.ts'
import { LoginApp } from './LoginApp.tsx'

vi.mock('../api/auth.ts', async (importOriginal) => {
  const real = await importOriginal<typeof authApi>()
  return { ...real, fetchOpenSettings: vi.fn(), login: vi.fn(), loginMfa: vi.fn() }
})

const mocked = { settings: vi.mocked(fetchOpenSettings), login: vi.mocked(login), mfa: vi.mocked(loginMfa) }

function deferred<T>() {
  let resolve!: (v: T) => void
  const promise = new Promise<T>((r) => (resolve = r))
  return { promise, resolve }
}

function renderPage(next?: string) {
  const navigate = vi.fn()
  render(
    <I18nProvider i18n={i18n}>
      <LoginApp next={next} navigate={navigate} />
    </I18nProvider>,
  )
  return { navigate, user: userEvent.setup() }
}

const username = () => screen.getByRole('textbox', { name: /username/i })
const password = () => screen.getByLabelText(/^password/i, { selector: 'input' })

beforeEach(() => {
  i18n.loadAndActivate({ locale: 'en', messages: {} })
  vi.clearAllMocks()
  mocked.settings.mockResolvedValue({
    xpackEnabled: false,
    branding: { title: 'Test Bastion', logo: '', favicon: '', loginImage: '' },
    methods: [],
  })
  window.history.replaceState(null, '', '/core/auth/login/')
})

describe('LoginPage', () => {
  it('shows the configured title, focuses the username and submits with Enter', async () => {
    mocked.login.mockResolvedValue({ kind: 'done', next: '/ui/console/users/users' })
    const { navigate, user } = renderPage('/ui/console/users/users')
    expect(await screen.findByRole('heading', { level: 1, name: 'Test Bastion' })).toBeInTheDocument()
    await waitFor(() => expect(document.title).toBe('Test Bastion'))
    expect(username()).toHaveFocus()
    await user.keyboard(' alice ')
    await user.click(password())
    await user.keyboard('Secret-1{Enter}')
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/ui/console/users/users'))
    expect(mocked.login).toHaveBeenCalledWith({ username: 'alice', password: 'Secret-1', next: '/ui/console/users/users' })
  })

  it('tells which fields are missing instead of sending', async () => {
    const { user } = renderPage()
    await user.click(screen.getByRole('button', { name: 'Log in' }))
    expect(await screen.findByText('Please enter your username')).toBeInTheDocument()
    expect(screen.getByText('Please enter your password')).toBeInTheDocument()
    expect(mocked.login).not.toHaveBeenCalled()
  })

  it('after a wrong password shows the server message, keeps the username and clears the password', async () => {
    mocked.login.mockRejectedValue(new AuthError(400, 'invalid_credentials', 'The password is wrong'))
    const { user } = renderPage()
    await user.type(username(), 'alice')
    await user.type(password(), 'bad{Enter}')
    expect(await screen.findByRole('alert')).toHaveTextContent('The password is wrong')
    expect(username()).toHaveValue('alice')
    expect(password()).toHaveValue('')
    expect(password()).toHaveFocus()
  })

  it('sends once however often Enter is pressed while busy', async () => {
    const answer = deferred<Awaited<ReturnType<typeof login>>>()
    mocked.login.mockReturnValue(answer.promise)
    const { user, navigate } = renderPage()
    await user.type(username(), 'alice')
    await user.type(password(), 'pw{Enter}{Enter}{Enter}')
    expect(screen.getByRole('button', { name: /Logging in/ })).toHaveAttribute('aria-disabled', 'true')
    await act(async () => answer.resolve({ kind: 'done', next: '/ui/' }))
    expect(mocked.login).toHaveBeenCalledTimes(1)
    expect(navigate).toHaveBeenCalledWith('/ui/')
  })

  it('asks to reload, and sends nothing, without the public key', async () => {
    mocked.login.mockRejectedValue(new AuthError(0, 'missing_public_key', ''))
    const { user } = renderPage()
    await user.type(username(), 'alice')
    await user.type(password(), 'pw{Enter}')
    expect(await screen.findByRole('alert')).toHaveTextContent(/reload the page/i)
    expect(screen.getByRole('button', { name: 'Reload' })).toBeInTheDocument()
  })

  it('runs the MFA step: six digits only, then the code goes to the server', async () => {
    mocked.login.mockResolvedValue({ kind: 'mfa', methods: ['otp'] })
    mocked.mfa.mockRejectedValueOnce(new AuthError(400, 'mfa_invalid', 'MFA code invalid')).mockResolvedValueOnce({ kind: 'done', next: '/ui/' })
    const { user, navigate } = renderPage()
    await user.type(username(), 'alice')
    await user.type(password(), 'pw{Enter}')
    const code = await screen.findByRole('textbox', { name: /verification code/i })
    await waitFor(() => expect(code).toHaveFocus())
    expect(code).toHaveAttribute('inputmode', 'numeric')
    expect(code).toHaveAttribute('autocomplete', 'one-time-code')
    expect(code).toHaveAttribute('maxlength', '6')

    await user.keyboard('123{Enter}')
    expect(await screen.findByRole('alert')).toHaveTextContent('MFA error, please check')
    expect(mocked.mfa).not.toHaveBeenCalled()

    await user.clear(code)
    await user.keyboard('000000{Enter}')
    expect(await screen.findByText('MFA code invalid')).toBeInTheDocument()
    expect(code).toHaveValue('')

    await user.keyboard('123456{Enter}')
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/ui/'))
    expect(mocked.mfa).toHaveBeenLastCalledWith('123456')
  })

  it('goes back to step one when the MFA step has expired', async () => {
    mocked.login.mockResolvedValue({ kind: 'mfa', methods: ['otp'] })
    mocked.mfa.mockRejectedValue(new AuthError(400, 'mfa_expired', 'Login time has exceeded 5 minutes, please login again'))
    const { user } = renderPage()
    await user.type(username(), 'alice')
    await user.type(password(), 'pw{Enter}')
    await screen.findByRole('textbox', { name: /verification code/i })
    await user.keyboard('123456{Enter}')
    expect(await screen.findByRole('alert')).toHaveTextContent('5 minutes')
    expect(username()).toHaveValue('alice')
    expect(password()).toHaveValue('pw')
  })

  it('toggles the password visibility with a labelled button', async () => {
    const { user } = renderPage()
    const toggle = screen.getByRole('button', { name: 'Show password' })
    expect(password()).toHaveAttribute('type', 'password')
    await user.click(toggle)
    expect(password()).toHaveAttribute('type', 'text')
    expect(toggle).toHaveAttribute('aria-pressed', 'true')
  })

  it('offers the enabled single sign-on methods, keeping next', async () => {
    mocked.settings.mockResolvedValue({
      xpackEnabled: false, branding: { title: 'Test Bastion', logo: '', favicon: '', loginImage: '' },
      methods: [{ name: 'openid', title: 'OpenID', url: '/core/auth/openid/login/' }],
    })
    renderPage('/ui/console/assets')
    const link = await screen.findByRole('link', { name: 'Log in with OpenID' })
    expect(link).toHaveAttribute('href', '/core/auth/openid/login/?next=%2Fui%2Fconsole%2Fassets')
  })

  it('says why a single sign-on came back', async () => {
    window.history.replaceState(null, '', '/core/auth/login/?error=sso_user_denied')
    renderPage()
    expect(await screen.findByRole('alert')).toHaveTextContent(/may not log in through single sign-on/)
  })

  it('starts on the code step when the provider signed in a user with MFA', async () => {
    window.history.replaceState(null, '', '/core/auth/login/?mfa=1')
    renderPage()
    expect(await screen.findByRole('heading', { level: 2, name: 'Multi-factor authentication' })).toBeInTheDocument()
  })
})
