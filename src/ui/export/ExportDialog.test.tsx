import Cookies from 'js-cookie'
import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { ExportFlowOutput } from '../../../machines/export-flow/export-flow.types.ts'
import { captureDownloads, fakeServer, jsonResponse, PUBLIC_KEY_COOKIE, renderUi, type Received, type Route } from '../confirm/testing.tsx'
import { ExportDialog, formatBytes } from './ExportDialog.tsx'

const URL_ = '/api/v1/users/users/'
const FILE = () =>
  new Response('\ufeff*Name,*Username\r\nA,a\r\n', {
    headers: { 'Content-Type': 'text/csv', 'Content-Length': '25', 'Content-Disposition': 'attachment; filename="user_2026-11-22_01-02-03.csv"' },
  })

let received: Received[]
let saved: ReturnType<typeof captureDownloads>
let onClose: ReturnType<typeof vi.fn<(o: ExportFlowOutput) => void>>

function open(props: Partial<Parameters<typeof ExportDialog>[0]>, routes: Record<string, Route>) {
  received = fakeServer(routes)
  saved = captureDownloads()
  onClose = vi.fn<(o: ExportFlowOutput) => void>()
  renderUi(<ExportDialog url={URL_} query={{}} selection={[]} needsConfirm={false} onClose={onClose} {...props} />)
}

const exports = () => received.filter((r) => r.method === 'GET' && r.url.searchParams.has('format'))

beforeEach(() => Cookies.set('jms_public_key', PUBLIC_KEY_COOKIE))
afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
  Cookies.remove('jms_public_key')
})

describe('ExportDialog', { timeout: 30_000 }, () => {
  it('offers the scopes the list allows and exports everything as Excel', async () => {
    open({ query: { order: 'name', limit: 15, offset: 30 } }, { [`GET ${URL_}`]: FILE })
    const user = userEvent.setup()
    expect(await screen.findByRole('radio', { name: 'All' })).toBeChecked()
    expect(screen.getByRole('radio', { name: 'Selected rows (0)' })).toBeDisabled()
    expect(screen.getByRole('radio', { name: 'Filtered results' })).toBeDisabled()
    await user.click(screen.getByRole('radio', { name: 'Excel' }))
    await user.click(screen.getByRole('button', { name: 'Export' }))
    await waitFor(() => expect(onClose).toHaveBeenCalledWith({ status: 'downloaded', scope: 'all', format: 'xlsx' }))
    expect(Object.fromEntries(exports()[0]!.url.searchParams)).toEqual({ order: 'name', format: 'xlsx' })
    expect(saved.map((s) => s.name)).toEqual(['user_2026-11-22_01-02-03.csv'])
  })

  it('exports the filtered list or the selection (as an spm)', async () => {
    open(
      { query: { search: 'ad', is_active: 'true', limit: 15, offset: 0, date_from: '2026-11-01' }, selection: [{ id: 'u-1' }, { id: 'u-2' }] },
      { [`GET ${URL_}`]: FILE, 'POST /api/v1/common/resources/cache/': () => ({ spm: 'spm-9' }) },
    )
    const user = userEvent.setup()
    expect(await screen.findByRole('radio', { name: 'Selected rows (2)' })).toBeChecked()
    expect(screen.getByRole('radio', { name: 'All' })).toBeDisabled()
    await user.click(screen.getByRole('button', { name: 'Export' }))
    await waitFor(() => expect(onClose).toHaveBeenCalled())
    expect(received.find((r) => r.method === 'POST')!.body).toEqual({ resources: ['u-1', 'u-2'] })
    expect(Object.fromEntries(exports()[0]!.url.searchParams)).toEqual({ spm: 'spm-9', format: 'csv' })
  })

  it('sends the list filters without paging for "filtered"', async () => {
    open({ query: { search: 'ad', limit: 15, offset: 0, date_from: '2026-11-01' } }, { [`GET ${URL_}`]: FILE })
    const user = userEvent.setup()
    expect(await screen.findByRole('radio', { name: 'Filtered results' })).toBeChecked()
    await user.click(screen.getByRole('button', { name: 'Export' }))
    await waitFor(() => expect(onClose).toHaveBeenCalled())
    expect(Object.fromEntries(exports()[0]!.url.searchParams)).toEqual({ search: 'ad', date_from: '2026-11-01', format: 'csv' })
  })

  it('shows a failed download with Retry', async () => {
    let fail = true
    open({}, { [`GET ${URL_}`]: () => (fail ? jsonResponse(403, { detail: 'You do not have permission to perform this action.' }) : FILE()) })
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'Export' }))
    expect(await screen.findByText('The export failed: You do not have permission to perform this action.')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Export' })).toBeDisabled()
    fail = false
    await user.click(screen.getByRole('button', { name: 'Retry' }))
    await waitFor(() => expect(onClose).toHaveBeenCalledWith(expect.objectContaining({ status: 'downloaded' })))
    expect(saved).toHaveLength(1)
  })

  it('asks for the OTP first when the export needs a verification, then shows the options', async () => {
    let confirmed = false
    open({ needsConfirm: true }, {
      [`GET ${URL_}`]: (req) => (confirmed || req.url.searchParams.has('format') ? FILE() : jsonResponse(400, { code: 'mfa', detail: 'This action require confirm current user' })),
      'GET /api/v1/authentication/confirm/': () => ({ confirm_type: 'mfa', content: [{ name: 'otp', display_name: 'OTP', disabled: false, placeholder: 'OTP verification code' }] }),
      'POST /api/v1/authentication/confirm/': () => {
        confirmed = true
        return 'ok'
      },
    })
    const user = userEvent.setup()
    await user.type(await screen.findByRole('textbox', { name: /OTP/ }), '123456{Enter}')
    expect(await screen.findByRole('radio', { name: 'All' })).toBeChecked()
    expect(received[0]!.url.search).toBe('?limit=1')
    await user.click(screen.getByRole('button', { name: 'Export' }))
    await waitFor(() => expect(onClose).toHaveBeenCalledWith(expect.objectContaining({ status: 'downloaded' })))
  })

  it('asks for the verification when the server refuses the download for want of one, then downloads', async () => {
    let confirmed = false
    open({ query: { confirm: 'mfa' } }, {
      [`GET ${URL_}`]: () => (confirmed ? FILE() : jsonResponse(400, { code: 'mfa', detail: 'This action require confirm current user' })),
      'GET /api/v1/authentication/confirm/': () => ({ confirm_type: 'mfa', content: [{ name: 'otp', display_name: 'OTP', disabled: false, placeholder: 'OTP verification code' }] }),
      'POST /api/v1/authentication/confirm/': () => {
        confirmed = true
        return 'ok'
      },
    })
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'Export' }))
    await user.type(await screen.findByRole('textbox', { name: /OTP/ }), '123456{Enter}')
    await waitFor(() => expect(onClose).toHaveBeenCalledWith(expect.objectContaining({ status: 'downloaded', scope: 'filtered' })))
    // refused export, the confirmation's check of that same URL, then the export again
    expect(exports().map((r) => r.url.search)).toEqual(['?confirm=mfa&format=csv', '?confirm=mfa&format=csv', '?confirm=mfa&format=csv'])
    expect(saved).toHaveLength(1)
  })

  it('ends when the verification is cancelled', async () => {
    open({ needsConfirm: true }, {
      [`GET ${URL_}`]: () => jsonResponse(400, { code: 'password' }),
      'GET /api/v1/authentication/confirm/': () => ({ confirm_type: 'password', content: '' }),
    })
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'Cancel' }))
    await waitFor(() => expect(onClose).toHaveBeenCalledWith({ status: 'cancelled' }))
    expect(exports()).toHaveLength(0)
  })

  it('formats sizes', () => {
    expect(formatBytes(512, 'en')).toBe('512 B')
    expect(formatBytes(1536, 'en')).toBe('1.5 KB')
    expect(formatBytes(5 * 1024 * 1024, 'en')).toBe('5 MB')
  })
})
