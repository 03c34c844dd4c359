import { FluentProvider, webLightTheme } from '@fluentui/react-components'
import { I18nProvider } from '@lingui/react'
import { i18n } from '@lingui/core'
import { render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { invalidateMetadata } from '../../api/metadata.ts'
import { activateEnglish, fakeFetch, json } from '../common/testing.ts'
import { AutoForm } from './AutoForm.tsx'
import { useResourceForm } from './useResourceForm.ts'

const URL = '/api/v1/settings/setting/?category=clean'
const info = (label: string) => ({ type: 'integer', required: true, read_only: false, write_only: false, label, min_value: 1, max_value: 9999, help_text: 'Unit: day' })
const META = { actions: { PUT: { LOGIN: info('Login log keep days'), TASK: info('Task log keep days') }, PATCH: { LOGIN: info('Login log keep days'), TASK: info('Task log keep days') } } }

function Harness() {
  const form = useResourceForm({ url: URL, single: true, updateMethod: 'PATCH', layout: ['LOGIN', 'TASK'] })
  if (form.status !== 'ready') return <p>loading</p>
  return (
    <form onSubmit={(e) => { e.preventDefault(); void form.submit() }}>
      <AutoForm form={form} />
      <button type="submit">Save</button>
      <output>{form.mode}</output>
    </form>
  )
}

const wrap = () => render(<I18nProvider i18n={i18n}><FluentProvider theme={webLightTheme}><Harness /></FluentProvider></I18nProvider>)

beforeEach(() => {
  activateEnglish()
  invalidateMetadata()
})
afterEach(() => vi.unstubAllGlobals())

describe('useResourceForm, one object without an id', () => {
  it('reads OPTIONS and GET of the URL, PATCHes it, keeps typed values on a 400 and shows the saved values after', async () => {
    let refuse = true
    const sent = fakeFetch({
      'OPTIONS /api/v1/settings/setting/': () => META,
      'GET /api/v1/settings/setting/': () => ({ LOGIN: 180, TASK: 90 }),
      'PATCH /api/v1/settings/setting/': (req) => (refuse ? json(400, { TASK: ['Not on Sundays.'] }) : { ...(req.body as object), TASK: 8 }),
    })
    wrap()
    const login = await screen.findByRole('spinbutton', { name: 'Login log keep days' })
    expect(login).toHaveValue(180)
    expect(screen.getByText('update')).toBeInTheDocument()
    const user = userEvent.setup()
    await user.clear(login)
    await user.type(login, '30')
    await user.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Not on Sundays.')).toBeInTheDocument()
    expect(screen.getByRole('spinbutton', { name: 'Login log keep days' })).toHaveValue(30)
    refuse = false
    const task = screen.getByRole('spinbutton', { name: 'Task log keep days' })
    await user.clear(task)
    await user.type(task, '7')
    await user.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(sent.filter((r) => r.method === 'PATCH')).toHaveLength(2))
    const patch = sent.filter((r) => r.method === 'PATCH')[1]!
    expect(patch.url.search).toBe('?category=clean')
    expect(patch.body).toEqual({ LOGIN: 30, TASK: 7 })
    expect(sent.some((r) => r.method === 'GET' && r.url.search === '?category=clean')).toBe(true)
    // the server's answer (it may adjust values) is what the form shows now
    await waitFor(() => expect(screen.getByRole('spinbutton', { name: 'Task log keep days' })).toHaveValue(8))
    expect(screen.queryByText('Not on Sundays.')).not.toBeInTheDocument()
  }, 30_000)
})
