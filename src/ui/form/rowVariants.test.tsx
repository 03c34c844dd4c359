/**
 * Rows of a list of nested objects (issue 35): a sub-field whose children depend on a sibling (`variants`: a
 * protocol's setting by its name) shows that value's typed inputs and swaps them when the value changes; the
 * server's errors inside rows land on the row's sub-field; the page's extra add buttons start marked rows.
 */
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { msg } from '@lingui/core/macro'
import { invalidateMetadata } from '../../api/metadata.ts'
import { AccessProvider, NO_ACCESS } from '../common/access.tsx'
import { activateEnglish, fakeFetch, json } from '../common/testing.ts'
import { renderInApp as wrap } from '../common/testing-render.tsx'
import { FormDialog } from './FormDialog.tsx'

const info = (type: string, label: string, extra: Record<string, unknown> = {}) => ({ type, required: false, read_only: false, write_only: false, label, ...extra })
const META = {
  actions: {
    POST: {
      name: info('string', 'Name', { required: true, max_length: 64 }),
      protocols: info('field', 'Protocols', { child: info('nested object', '', { children: {
        name: info('string', 'Protocol', { required: true, max_length: 32 }),
        setting: info('nested object', 'Setting', { default: {}, children_from: 'name', variants: {
          ssh: { sftp_enabled: info('boolean', 'SFTP enabled', { default: true }), sftp_home: info('string', 'SFTP home', { default: '/tmp', max_length: 256 }) },
          rdp: { security: info('choice', 'Security', { default: 'any', choices: [{ value: 'any', label: 'Any' }, { value: 'nla', label: 'NLA' }] }) },
        } }),
      } }) }),
    },
  },
}

beforeEach(() => {
  activateEnglish()
  invalidateMetadata()
})
afterEach(() => vi.unstubAllGlobals())

describe('rows with sub-fields by a sibling', () => {
  it("show the row's variant, swap it with the value, and take the server's errors at the row's sub-field", async () => {
    let answer: () => Response = () => json(400, { protocols: [{ setting: { sftp_home: ['Enter an absolute path (starting with /).'] } }] })
    const sent = fakeFetch({
      'OPTIONS /api/v1/platforms/': () => META,
      'POST /api/v1/platforms/': () => answer(),
    })
    const onClose = vi.fn()
    wrap(<FormDialog title="New platform" mode="new" url="/api/v1/platforms/" onClose={onClose} />)
    const user = userEvent.setup()
    await user.type(await screen.findByRole('textbox', { name: 'Name' }), 'p1')
    await user.click(screen.getByRole('button', { name: 'Add' }))
    const row = screen.getByRole('group', { name: 'Item 1' })
    // no protocol named yet: no setting inputs, no JSON editor
    expect(within(row).queryByText('Setting')).toBeNull()
    await user.type(within(row).getByRole('textbox', { name: /Protocol/ }), 'ssh')
    expect(within(row).getByRole('switch', { name: 'SFTP enabled' })).toBeChecked()
    const home = within(row).getByRole('textbox', { name: 'SFTP home' })
    expect(home).toHaveValue('/tmp')
    await user.clear(home)
    await user.type(home, 'relative')
    await user.click(screen.getByRole('button', { name: 'Confirm' }))
    const message = await within(row).findByText('Enter an absolute path (starting with /).')
    expect(within(home.closest('.fui-Field') as HTMLElement).getByText('Enter an absolute path (starting with /).')).toBe(message)
    expect(sent.filter((r) => r.method === 'POST').at(-1)!.body).toEqual({ name: 'p1', protocols: [{ name: 'ssh', setting: { sftp_enabled: true, sftp_home: 'relative' } }] })
    // another protocol: its own keys, with their defaults
    const proto = within(row).getByRole('textbox', { name: /Protocol/ })
    await user.clear(proto)
    await user.type(proto, 'rdp')
    expect(within(row).queryByRole('switch', { name: 'SFTP enabled' })).toBeNull()
    expect(within(row).getByRole('radio', { name: 'Any' })).toBeChecked()
    await user.click(within(row).getByRole('radio', { name: 'NLA' }))
    answer = () => json(201, { id: 1 })
    await user.click(screen.getByRole('button', { name: 'Confirm' }))
    await waitFor(() => expect(onClose).toHaveBeenCalled())
    expect(sent.filter((r) => r.method === 'POST').at(-1)!.body).toEqual({ name: 'p1', protocols: [{ name: 'rdp', setting: { security: 'nla' } }] })
  })
})

describe("a list's extra add buttons", () => {
  const ROWS = {
    actions: {
      POST: {
        accounts: info('field', 'Accounts', { child: info('nested object', '', { children: {
          template: info('string', 'Template', { max_length: 36 }), username: info('string', 'Username', { max_length: 128 }),
        } }) }),
      },
    },
  }
  const overrides = { accounts: {
    adds: [{ label: msg`From template`, values: { $tpl: true }, perms: ['accounts.view_accounttemplate'] }],
    fields: { template: { hidden: (row: Record<string, unknown>) => row.$tpl !== true }, username: { hidden: (row: Record<string, unknown>) => row.$tpl === true } },
  } }

  it('start rows marked for the hidden rules, send no marker, and show only with their permission', async () => {
    const sent = fakeFetch({ 'OPTIONS /api/v1/hosts/': () => ROWS, 'POST /api/v1/hosts/': () => json(201, { id: 'h1' }) })
    const onClose = vi.fn()
    const { unmount } = wrap(
      <AccessProvider value={{ ...NO_ACCESS, perms: new Set(['accounts.view_accounttemplate']) }}>
        <FormDialog title="New host" mode="new" url="/api/v1/hosts/" overrides={overrides} onClose={onClose} />
      </AccessProvider>,
    )
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'Add' }))
    await user.click(screen.getByRole('button', { name: 'From template' }))
    await user.type(within(screen.getByRole('group', { name: 'Item 1' })).getByRole('textbox', { name: 'Username' }), 'root')
    const second = screen.getByRole('group', { name: 'Item 2' })
    expect(within(second).queryByRole('textbox', { name: 'Username' })).toBeNull()
    await user.type(within(second).getByRole('textbox', { name: 'Template' }), 't1')
    await user.click(screen.getByRole('button', { name: 'Confirm' }))
    await waitFor(() => expect(onClose).toHaveBeenCalled())
    expect(sent.filter((r) => r.method === 'POST').at(-1)!.body).toEqual({ accounts: [{ username: 'root' }, { template: 't1' }] })
    unmount()
    wrap(<FormDialog title="New host" mode="new" url="/api/v1/hosts/" overrides={overrides} onClose={onClose} />)
    expect(await screen.findByRole('button', { name: 'Add' })).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'From template' })).toBeNull()
  })
})
