import Cookies from 'js-cookie'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { captureDownloads, fakeServer, jsonResponse, PUBLIC_KEY_COOKIE, renderUi, type Received } from '../confirm/testing.tsx'
import { ImportDialog } from './ImportDialog.tsx'
import { importStorageKey } from './persist.ts'

const URL_ = '/api/v1/users/users/'
const TITLE = [['*Name', 'name'], ['*Username', 'username'], ['Email', 'email'], ['Password', 'password'], ['Comment', 'comment']]

function users(count: number, bad: number[] = []) {
  return Array.from({ length: count }, (_, i) => ({
    name: `User ${i + 1}`,
    username: `user${i + 1}`,
    email: bad.includes(i + 1) ? 'not-an-email' : `user${i + 1}@example.com`,
    password: i === 0 ? 'Secret-1!' : '',
    comment: '',
  }))
}

let received: Received[]
let onClose: ReturnType<typeof vi.fn<(imported: boolean) => void>>

/** A server that refuses bad emails, like the users resource does. */
function serve(count: number, bad: number[] = []) {
  received = fakeServer({
    [`POST ${URL_}render-to-json/`]: () => ({ title: TITLE, data: users(count, bad) }),
    [`POST ${URL_}`]: (req) => {
      const body = req.body as Record<string, string>
      return (body.email ?? '').includes('@') ? jsonResponse(201, { id: 'x', ...body }) : jsonResponse(400, { email: ['Enter a valid email address.'] })
    },
    [`PUT ${URL_}*/`]: (req) => jsonResponse(200, req.body),
    [`GET ${URL_}`]: () => new Response('*Name,*Username\r\n', { headers: { 'Content-Type': 'text/csv', 'Content-Disposition': 'attachment; filename="user_2026.csv"' } }),
    'POST /api/v1/common/resources/cache/': () => ({ spm: 'spm-7' }),
  })
}

function open(props: Partial<Parameters<typeof ImportDialog>[0]> = {}) {
  onClose = vi.fn<(imported: boolean) => void>()
  return renderUi(<ImportDialog listUrl={URL_} orgId="org-1" canCreate canUpdate={false} selection={[]} onClose={onClose} {...props} />)
}

const LONG = { timeout: 15_000 }
const csv = () => new File(['*Name,*Username\nA,a\n'], 'users.csv', { type: 'text/csv' })
const uploads = () => received.filter((r) => (r.method === 'POST' || r.method === 'PUT') && !r.url.pathname.endsWith('render-to-json/'))
const counts = () => screen.getByTestId('import-counts').textContent
const actionButton = () => document.querySelector('[data-import-action]') as HTMLButtonElement

beforeEach(() => Cookies.set('jms_public_key', PUBLIC_KEY_COOKIE))
afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
  Cookies.remove('jms_public_key')
  sessionStorage.clear()
})

describe('ImportDialog', { timeout: 30_000 }, () => {
  it('imports row by row, shows failed rows with their errors, and finishes after a fix', async () => {
    serve(12, [4])
    const user = userEvent.setup()
    open()
    await user.upload(screen.getByLabelText('File to import'), csv())
    await screen.findByRole('table', { name: 'Rows to import' })
    expect(received[0]!.headers.get('Content-Type')).toBe('text/csv')
    expect(counts()).toContain('Total 12')
    expect(screen.queryByRole('columnheader', { name: 'Comment' })).toBeNull()
    expect(screen.getAllByRole('row')).toHaveLength(11)
    expect(actionButton()).toHaveTextContent('Import')

    await user.click(actionButton())
    await waitFor(() => expect(actionButton()).toHaveTextContent('Continue'), LONG)
    expect(counts()).toMatch(/Succeeded 11.*Failed 1.*Pending 0/)
    expect(screen.getByRole('alert')).toHaveTextContent('1 of 12 rows failed')
    const bodies = uploads().map((r) => r.body as Record<string, string>)
    expect(bodies).toHaveLength(12)
    expect(bodies.every((b) => !('@status' in b))).toBe(true)
    expect(bodies[0]!.password).toMatch(/^[^:]+:[^:]+$/)
    expect(bodies[0]!.password).not.toContain('Secret-1!')

    expect(screen.getByText('Page 2 of 2')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Previous page' }))
    const row4 = document.querySelector('[data-row="4"]') as HTMLElement
    expect(within(row4).getAllByText('Email: Enter a valid email address.').length).toBeGreaterThan(0)
    const email = within(row4).getByRole('textbox', { name: 'Email, row 4' })
    await user.clear(email)
    await user.type(email, 'user4@example.com{Enter}')
    expect(row4).toHaveAttribute('data-state', 'pending')
    await user.click(actionButton())
    await waitFor(() => expect(actionButton()).toHaveTextContent('Finished'), LONG)
    expect((uploads().at(-1)!.body as Record<string, string>).email).toBe('user4@example.com')
    expect(screen.getByText('All 12 rows were imported.')).toBeInTheDocument()
    await user.click(actionButton())
    expect(onClose).toHaveBeenCalledWith(true)
    expect(sessionStorage.getItem(importStorageKey(URL_, 'org-1'))).toBeNull()
  })

  it('stops after the current row and continues; a reopened dialog offers to resume', async () => {
    serve(15)
    const user = userEvent.setup()
    const view = open()
    await user.upload(screen.getByLabelText('File to import'), csv())
    await screen.findByRole('table', { name: 'Rows to import' })
    await user.click(actionButton())
    await waitFor(() => expect(uploads().length).toBeGreaterThanOrEqual(3), LONG)
    await user.click(screen.getByRole('button', { name: 'Stop' }))
    await waitFor(() => expect(actionButton()).toHaveTextContent('Continue'), LONG)
    const stoppedAt = uploads().length
    expect(stoppedAt).toBeLessThan(15)
    expect(counts()).toContain(`Succeeded ${stoppedAt}`)

    // closing keeps the task; opening again (as after a page reload) offers it
    view.unmount()
    open()
    expect(await screen.findByText('Unfinished import')).toBeInTheDocument()
    expect(screen.getByText(`users.csv: ${stoppedAt} of 15 rows were imported.`)).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Resume' }))
    expect(actionButton()).toHaveTextContent('Continue')
    await user.click(actionButton())
    await waitFor(() => expect(actionButton()).toHaveTextContent('Finished'), LONG)
    expect(uploads()).toHaveLength(15)
    expect(new Set(uploads().map((r) => (r.body as Record<string, string>).username)).size).toBe(15)
  })

  it('updates with PUT on each row when only update is permitted, and fills the update template with the selection', async () => {
    received = fakeServer({
      [`POST ${URL_}render-to-json/`]: () => ({ title: [['ID', 'id'], ['*Name', 'name']], data: [{ id: 'u-1', name: 'New name' }] }),
      [`PUT ${URL_}*/`]: (req) => jsonResponse(200, req.body),
      [`GET ${URL_}`]: () => new Response('ID,*Name\r\n', { headers: { 'Content-Type': 'text/csv', 'Content-Disposition': 'attachment; filename="user_2026.csv"' } }),
      'POST /api/v1/common/resources/cache/': () => ({ spm: 'spm-7' }),
    })
    const saved = captureDownloads()
    const user = userEvent.setup()
    open({ canCreate: false, canUpdate: true, selection: [{ id: 'u-1' }, { id: 'u-2' }] })
    expect(screen.getByText('Import mode: update')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Excel template' }))
    await waitFor(() => expect(saved).toHaveLength(1), LONG)
    const template = received.find((r) => r.method === 'GET')!
    expect(Object.fromEntries(template.url.searchParams)).toEqual({ format: 'xlsx', template: 'update', spm: 'spm-7' })
    expect(received.find((r) => r.url.pathname.endsWith('/cache/'))!.body).toEqual({ resources: ['u-1', 'u-2'] })
    expect(saved[0]!.name).toBe('user_2026.csv')

    await user.upload(screen.getByLabelText('File to import'), csv())
    await user.click(await screen.findByRole('button', { name: 'Import' }))
    await waitFor(() => expect(actionButton()).toHaveTextContent('Finished'), LONG)
    const put = received.find((r) => r.method === 'PUT')!
    expect(put.url.pathname).toBe(`${URL_}u-1/`)
    expect(put.body).toEqual({ id: 'u-1', name: 'New name' })
  })

  it('refuses files it cannot import and shows the server refusal under the upload', async () => {
    received = fakeServer({ [`POST ${URL_}render-to-json/`]: () => jsonResponse(400, { error: 'Request file format may be wrong' }) })
    const user = userEvent.setup({ applyAccept: false })
    open()
    const input = screen.getByLabelText('File to import')
    await user.upload(input, new File(['x'], 'users.txt'))
    expect(await screen.findByText('Only .csv and .xlsx files can be imported.')).toBeInTheDocument()
    const big = new File(['x'], 'users.xlsx')
    Object.defineProperty(big, 'size', { value: 10 * 1024 * 1024 + 1 })
    await user.upload(input, big)
    expect(await screen.findByText('The file is larger than 10 MB.')).toBeInTheDocument()
    expect(received).toHaveLength(0)
    await user.upload(input, csv())
    expect(await screen.findByText('Request file format may be wrong')).toBeInTheDocument()
    expect(screen.getByText('One .csv or .xlsx file, at most 10 MB.')).toBeInTheDocument()
  })

  it('downloads the failed rows with their errors', async () => {
    serve(3, [2])
    const saved = captureDownloads()
    const user = userEvent.setup()
    open()
    await user.upload(screen.getByLabelText('File to import'), csv())
    await user.click(await screen.findByRole('button', { name: 'Import' }))
    await waitFor(() => expect(actionButton()).toHaveTextContent('Continue'), LONG)
    await user.click(screen.getByRole('button', { name: 'Download failed rows' }))
    expect(saved).toHaveLength(1)
    expect(saved[0]!.name).toMatch(/^users_failed_.*\.csv$/)
    const text = await saved[0]!.blob.text()
    expect(text).toContain('*Name,*Username,Email,Password,Comment,Error')
    expect(text).toContain('User 2,user2,not-an-email,,,Email: Enter a valid email address.')
    expect(text).not.toContain('User 1')
  })
})
