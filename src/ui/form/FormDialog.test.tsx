import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { invalidateMetadata } from '../../api/metadata.ts'
import { activateEnglish, fakeFetch, json } from '../common/testing.ts'
import { renderInApp as wrap } from '../common/testing-render.tsx'
import { FormDialog } from './FormDialog.tsx'

const META = {
  actions: {
    POST: {
      name: { type: 'string', required: true, read_only: false, write_only: false, label: 'Name', max_length: 64 },
      comment: { type: 'string', required: false, read_only: false, write_only: false, label: 'Comment', max_length: 200 },
    },
    PUT: {
      name: { type: 'string', required: true, read_only: false, write_only: false, label: 'Name', max_length: 64 },
      comment: { type: 'string', required: false, read_only: false, write_only: false, label: 'Comment', max_length: 200 },
    },
  },
}

beforeEach(() => {
  activateEnglish()
  invalidateMetadata()
})
afterEach(() => vi.unstubAllGlobals())

describe('FormDialog', () => {
  it('new: a refused confirm keeps the dialog open with the field error and the typed values; a good one closes it', async () => {
    let refuse = true
    const sent = fakeFetch({
      'OPTIONS /api/v1/things/': () => META,
      'POST /api/v1/things/': (req) => (refuse ? json(400, { name: ['This field must be unique.'] }) : json(201, { id: 't1', ...(req.body as object) })),
    })
    const onClose = vi.fn()
    wrap(<FormDialog title="New thing" mode="new" url="/api/v1/things/" onClose={onClose} />)
    const name = await screen.findByRole('textbox', { name: 'Name' })
    const user = userEvent.setup()
    await user.type(name, 'dup')
    await user.click(screen.getByRole('button', { name: 'Confirm' }))
    expect(await screen.findByText('This field must be unique.')).toBeInTheDocument()
    // the form shows its machine's state: the save failed, the values stay
    expect(name.closest('form')).toHaveAttribute('data-state', 'failed')
    expect(onClose).not.toHaveBeenCalled()
    expect(screen.getByRole('button', { name: 'Confirm' })).toBeEnabled()
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveValue('dup')
    refuse = false
    await user.click(screen.getByRole('button', { name: 'Confirm' }))
    await waitFor(() => expect(onClose).toHaveBeenCalledWith({ id: 't1', name: 'dup', comment: '' }))
    expect(sent.filter((r) => r.method === 'POST')).toHaveLength(2)
  })

  it('view: the object with disabled fields and no footer buttons', async () => {
    fakeFetch({
      'OPTIONS /api/v1/things/t1/': () => META,
      'GET /api/v1/things/t1/': () => ({ id: 't1', name: 'first', comment: 'hello' }),
    })
    wrap(<FormDialog title="Thing" mode="view" url="/api/v1/things/" id="t1" onClose={() => {}} />)
    const name = await screen.findByRole('textbox', { name: 'Name' })
    expect(name).toHaveValue('first')
    expect(name).toBeDisabled()
    expect(screen.queryByRole('button', { name: 'Confirm' })).toBeNull()
    expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull()
  })

  it('edit: client rules run before anything is sent', async () => {
    const sent = fakeFetch({
      'OPTIONS /api/v1/things/t1/': () => META,
      'GET /api/v1/things/t1/': () => ({ id: 't1', name: 'first', comment: '' }),
    })
    wrap(<FormDialog title="Thing" mode="edit" url="/api/v1/things/" id="t1" onClose={() => {}} />)
    const name = await screen.findByRole('textbox', { name: 'Name' })
    const user = userEvent.setup()
    await user.clear(name)
    await user.click(screen.getByRole('button', { name: 'Confirm' }))
    expect(await screen.findByText('This field is required')).toBeInTheDocument()
    expect(name.closest('form')).toHaveAttribute('data-state', 'editing')
    expect(sent.filter((r) => r.method === 'PUT')).toHaveLength(0)
  })
})
