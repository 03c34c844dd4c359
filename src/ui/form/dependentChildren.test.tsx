/**
 * A field whose sub-fields come from another field's value (`children_from`): hidden until that value is chosen,
 * then typed inputs from the metadata read with `?<field>=<value>`, sent as an object, their rules run on each
 * sub-field, and the server's nested errors shown on the right sub-field.
 */
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { invalidateMetadata } from '../../api/metadata.ts'
import { activateEnglish, fakeFetch, json } from '../common/testing.ts'
import { renderInApp as wrap } from '../common/testing-render.tsx'
import { FormDialog } from './FormDialog.tsx'

const base = (info: Record<string, unknown>) => ({
  actions: {
    POST: {
      name: { type: 'string', required: true, read_only: false, write_only: false, label: 'Name', max_length: 64 },
      kind: { type: 'choice', required: true, read_only: false, write_only: false, label: 'Kind', choices: [{ value: 'a', label: 'A' }, { value: 'b', label: 'B' }] },
      info: { required: false, read_only: false, write_only: false, label: 'Info', children_from: 'kind', ...info },
    },
  },
})
const CHILDREN = {
  a: { owner: { type: 'string', required: true, read_only: false, write_only: false, label: 'Owner', max_length: 1024 },
    slots: { type: 'integer', required: false, read_only: false, write_only: false, label: 'Slots', default: 4 } },
  b: { managed: { type: 'boolean', required: false, read_only: false, write_only: false, label: 'Managed' } },
}

beforeEach(() => {
  activateEnglish()
  invalidateMetadata()
})
afterEach(() => vi.unstubAllGlobals())

describe('sub-fields from another field', () => {
  it('follow the chosen value, validate per sub-field, and show server errors on the sub-field', async () => {
    let answer: (body: Record<string, unknown>) => Response = () => json(400, { info: { owner: ['Taken.'], ghost: ['Unknown field: ghost'] } })
    const sent = fakeFetch({
      'OPTIONS /api/v1/things/': (req) => {
        const kind = req.url.searchParams.get('kind') as 'a' | 'b' | null
        return base(kind ? { type: 'nested object', children: CHILDREN[kind] } : { type: 'json' })
      },
      'POST /api/v1/things/': (req) => answer(req.body as Record<string, unknown>),
    })
    const onClose = vi.fn()
    wrap(<FormDialog title="New thing" mode="new" url="/api/v1/things/" onClose={onClose} />)
    const user = userEvent.setup()
    await user.type(await screen.findByRole('textbox', { name: 'Name' }), 'one')
    // no kind chosen: no sub-fields, and no JSON editor either
    expect(screen.queryByText('Info')).toBeNull()
    await user.click(screen.getByRole('radio', { name: 'A' }))
    const owner = await screen.findByRole('textbox', { name: /Owner/ })
    expect(screen.getByRole('spinbutton', { name: 'Slots' })).toHaveValue(4)
    // the sub-field's own rule runs before anything is sent
    await user.click(screen.getByRole('button', { name: 'Confirm' }))
    expect(await screen.findByText('This field is required')).toBeInTheDocument()
    expect(sent.filter((r) => r.method === 'POST')).toHaveLength(0)
    await user.type(owner, 'ops')
    await user.click(screen.getByRole('button', { name: 'Confirm' }))
    // the server's nested errors: on the sub-field it shows, the rest on the field
    expect(await screen.findByText('Taken.')).toBeInTheDocument()
    const ownerField = owner.closest('.fui-Field') as HTMLElement
    expect(within(ownerField).getByText('Taken.')).toBeInTheDocument()
    expect(screen.getByText('ghost: Unknown field: ghost')).toBeInTheDocument()
    expect(sent.filter((r) => r.method === 'POST').at(-1)!.body).toEqual({ name: 'one', kind: 'a', info: { owner: 'ops', slots: 4 } })
    // another kind: its sub-fields replace the first's
    await user.click(screen.getByRole('radio', { name: 'B' }))
    await screen.findByRole('switch', { name: 'Managed' })
    expect(screen.queryByRole('textbox', { name: /Owner/ })).toBeNull()
    answer = (body) => json(201, { id: 't1', ...body })
    await user.click(screen.getByRole('switch', { name: 'Managed' }))
    await user.click(screen.getByRole('button', { name: 'Confirm' }))
    await waitFor(() => expect(onClose).toHaveBeenCalled())
    expect(sent.filter((r) => r.method === 'POST').at(-1)!.body).toEqual({ name: 'one', kind: 'b', info: { managed: true } })
  })
})
