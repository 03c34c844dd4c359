import { useState } from 'react'
import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import type { Row, RowId } from '../../api/resources.ts'
import { renderUi } from '../confirm/testing.tsx'
import { DataTable, type DataColumn } from './DataTable.tsx'

const rows: Row[] = [{ id: 'a', name: 'Alice' }, { id: 'b', name: 'Bob' }]
const columns: DataColumn[] = [
  { id: 'name', label: 'Name', render: (r) => <a href={`#${String(r.id)}`}>{String(r.name)}</a> },
  { id: 'actions', label: 'Actions', render: (r) => <button type="button">More of {String(r.name)}</button> },
]

function Harness() {
  const [selected, setSelected] = useState<ReadonlySet<RowId>>(new Set())
  return (
    <>
      <DataTable label="People" columns={columns} rows={rows} emptyText="None" selectable selected={selected}
        onSelectionChange={setSelected} rowLabel={(r) => String(r.name)} />
      <output>{[...selected].join(',') || 'none'}</output>
    </>
  )
}

describe('DataTable selection (issue 17, defect 5)', () => {
  it('selects through the checkboxes only, not by clicking a cell, a link or a row button', async () => {
    const user = userEvent.setup()
    renderUi(<Harness />)
    await user.click(screen.getByText('Alice'))
    await user.click(screen.getByRole('button', { name: 'More of Bob' }))
    await user.click(document.querySelector('[role="row"][data-row-id] [data-column="name"]') ?? document.querySelectorAll('[data-column="name"]')[1]!)
    expect(document.querySelector('output')!.textContent).toBe('none')
    await user.click(screen.getByRole('checkbox', { name: 'Select Bob' }))
    expect(document.querySelector('output')!.textContent).toBe('b')
    await user.click(screen.getByRole('checkbox', { name: 'Select all rows on this page' }))
    expect(document.querySelector('output')!.textContent).toBe('b,a')
    await user.click(screen.getByText('Alice'))
    expect(document.querySelector('output')!.textContent).toBe('b,a')
  }, 60_000)
})
