import { useState } from 'react'
import { screen, waitFor } from '@testing-library/react'
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

describe('DataTable keyboard (WAI-ARIA grid)', () => {
  const keyColumns: DataColumn[] = [
    ...columns,
    { id: 'note', label: 'Note', render: (r) => `note of ${String(r.name)}` },
  ]
  function KeyHarness({ onResize }: { onResize?: (column: string, width: number) => void }) {
    const [selected, setSelected] = useState<ReadonlySet<RowId>>(new Set())
    return (
      <>
        <button type="button">before</button>
        <DataTable label="People" columns={keyColumns} rows={rows} emptyText="None" selectable selected={selected}
          onSelectionChange={setSelected} rowLabel={(r) => String(r.name)} onColumnResize={onResize} />
        <button type="button">after</button>
        <output>{[...selected].join(',') || 'none'}</output>
      </>
    )
  }
  const grid = () => screen.getByRole('grid', { name: 'People' })
  const tabbable = () => [...grid().querySelectorAll('[tabindex="0"]')]

  it('is one Tab stop, and the arrow keys reach every cell and widget', async () => {
    const user = userEvent.setup()
    renderUi(<KeyHarness />)
    expect(tabbable()).toHaveLength(1)
    await user.click(screen.getByRole('button', { name: 'before' }))
    await user.tab()
    expect(document.activeElement).toBe(screen.getByRole('checkbox', { name: 'Select all rows on this page' }))
    const note = (name: string) => () => screen.getByText(`note of ${name}`)
    const walk: [key: string, expected: () => HTMLElement][] = [
      ['{ArrowDown}', () => screen.getByRole('checkbox', { name: 'Select Alice' })],
      ['{ArrowRight}', () => screen.getByRole('link', { name: 'Alice' })],
      ['{ArrowRight}', () => screen.getByRole('button', { name: 'More of Alice' })],
      ['{ArrowDown}', () => screen.getByRole('button', { name: 'More of Bob' })],
      ['{ArrowRight}', note('Bob')],
      ['{ArrowRight}', note('Bob')], // the last stop of the row: stays
      ['{Home}', () => screen.getByRole('checkbox', { name: 'Select Bob' })],
      ['{Control>}{Home}{/Control}', () => screen.getByRole('checkbox', { name: 'Select all rows on this page' })],
      ['{Control>}{End}{/Control}', note('Bob')],
    ]
    for (const [key, expected] of walk) {
      await user.keyboard(key)
      expect(document.activeElement, key).toBe(expected())
    }
    // Tab leaves the grid; Shift+Tab comes back to the same stop
    expect(tabbable()).toEqual([document.activeElement])
    await user.tab()
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'after' }))
    await user.tab({ shift: true })
    expect(document.activeElement).toBe(note('Bob')())
  }, 60_000)

  it('Space on a cell selects its row; Space on a link does not', async () => {
    const user = userEvent.setup()
    renderUi(<KeyHarness />)
    const note = screen.getByText('note of Alice')
    note.focus()
    await user.keyboard(' ')
    expect(document.querySelector('output')!.textContent).toBe('a')
    expect(screen.getAllByRole('row')[1]).toHaveAttribute('aria-selected', 'true')
    await user.keyboard(' ')
    expect(document.querySelector('output')!.textContent).toBe('none')
    screen.getByRole('link', { name: 'Bob' }).focus()
    await user.keyboard(' ')
    expect(document.querySelector('output')!.textContent).toBe('none')
  }, 60_000)

  it('Shift+Arrow on a column header resizes it and reports the width once the keys stop', async () => {
    const user = userEvent.setup()
    const reported: [string, number][] = []
    renderUi(<KeyHarness onResize={(column, width) => reported.push([column, width])} />)
    const header = grid().querySelector<HTMLElement>('[role="columnheader"][data-column="note"]')!
    header.focus()
    await user.keyboard('{Shift>}{ArrowRight}{ArrowRight}{ArrowRight}{ArrowLeft}{/Shift}')
    expect(grid().style.getPropertyValue('--bastion-col-2')).toBe('186px') // 170 and the cell's padding
    await waitFor(() => expect(reported).toEqual([['note', 170]]))
    expect(document.activeElement).toBe(header)
  }, 60_000)
})

describe('DataTable Tab stop as rows change', () => {
  function Growing() {
    const [list, setList] = useState(rows)
    return (
      <>
        <button type="button" onClick={() => setList([...list, { id: 'c', name: 'Carol' }])}>add</button>
        <DataTable label="People" columns={columns} rows={list} emptyText="None" />
      </>
    )
  }
  it('keeps a single Tab stop when rows and their widgets come', async () => {
    const user = userEvent.setup()
    renderUi(<Growing />)
    const grid = screen.getByRole('grid', { name: 'People' })
    await waitFor(() => expect(grid.querySelectorAll('[tabindex="0"]')).toHaveLength(1))
    await user.click(screen.getByRole('button', { name: 'add' }))
    await waitFor(() => expect(screen.getByRole('button', { name: 'More of Carol' })).toHaveAttribute('tabindex', '-1'))
    expect(grid.querySelectorAll('[tabindex="0"]')).toHaveLength(1)
  }, 60_000)
})
