import { describe, expect, it } from 'vitest'
import { allLeaves, checkedItems, findNode, stateOf, toggle, type CheckNode } from './tree.ts'

const tree: CheckNode[] = [{
  id: 'All', label: 'All', children: [
    { id: 'connect', label: 'Connect' },
    { id: 'Transfer', label: 'Transfer', children: [{ id: 'upload', label: 'Upload' }, { id: 'download', label: 'Download', disabled: true }] },
  ],
}]

describe('check tree', () => {
  it('group state is checked, mixed or unchecked from its leaves', () => {
    const transfer = findNode(tree, 'Transfer')!
    expect(stateOf(transfer, new Set())).toBe('unchecked')
    expect(stateOf(transfer, new Set(['upload']))).toBe('mixed')
    expect(stateOf(transfer, new Set(['upload', 'download']))).toBe('checked')
  })
  it('ticking a group ticks its enabled leaves; unticking clears them', () => {
    const all = findNode(tree, 'All')!
    expect([...toggle(all, new Set(), true)].sort()).toEqual(['connect', 'upload'])
    expect([...toggle(all, new Set(['connect', 'upload', 'download']), false)]).toEqual(['download'])
  })
  it('reports states for the widget', () => {
    expect(checkedItems(tree, new Set(['upload']))).toEqual([['All', 'mixed'], ['Transfer', 'mixed'], ['upload', true]])
    expect(allLeaves(tree)).toEqual(['connect', 'upload', 'download'])
  })
})
