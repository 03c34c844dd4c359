import { describe, expect, it } from 'vitest'
import { findNode } from '../../../ui/common/tree.ts'
import { parseZTree } from '../../../api/rbac.ts'
import { buildPermTree, permissionIds, withDependencies } from './permTree.ts'

const leaf = (id: number, codename: string, pId: string, checked = false) => ({ id: String(id), name: codename.split('.')[1], pId, isParent: false, checked, chkDisabled: false, meta: { type: 'perm', perm_id: id, codename } })
const group = (id: string, pId: string | null) => ({ id, name: id, pId, isParent: true, checked: false, chkDisabled: false, meta: {} })

const raw = [
  group('view:console', null),
  group('app:console:users', 'view:console'),
  group('model:console:users.user', 'app:console:users'),
  leaf(1, 'users.view_user', 'model:console:users.user', true),
  leaf(2, 'users.add_user', 'model:console:users.user'),
  leaf(3, 'users.change_user', 'model:console:users.user', true),
  leaf(4, 'users.delete_user', 'model:console:users.user'),
  leaf(5, 'users.invite_user', 'model:console:users.user'),
  group('model:console:users.usergroup', 'app:console:users'),
  leaf(6, 'users.view_usergroup', 'model:console:users.usergroup'),
  leaf(7, 'users.add_usergroup', 'model:console:users.usergroup'),
]

describe('permission tree', () => {
  const tree = buildPermTree(parseZTree(raw))

  it('nests the flat nodes and reads the checked leaves', () => {
    expect(tree.roots).toHaveLength(1)
    expect(tree.roots[0]!.children![0]!.children!.map((c) => c.id)).toEqual(['model:console:users.user', 'model:console:users.usergroup'])
    expect([...tree.checked].sort()).toEqual(['1', '3'])
    expect(tree.readOnly).toBe(false)
  })

  it('ticking add, change or delete ticks the view of the same model', () => {
    const next = withDependencies(tree, new Set(['7']), findNode(tree.roots, '7')!, true)
    expect([...next].sort()).toEqual(['6', '7'])
    const group = findNode(tree.roots, 'model:console:users.usergroup')!
    expect([...withDependencies(tree, new Set(['6', '7']), group, true)].sort()).toEqual(['6', '7'])
  })

  it('ticking a custom action does not tick view', () => {
    expect([...withDependencies(tree, new Set(['5']), findNode(tree.roots, '5')!, true)]).toEqual(['5'])
  })

  it('unticking view clears the model\'s other permissions only', () => {
    const before = new Set(['1', '2', '3', '5', '6', '7'])
    before.delete('1')
    const next = withDependencies(tree, before, findNode(tree.roots, '1')!, false)
    expect([...next].sort()).toEqual(['6', '7'])
  })

  it('unticking change leaves view alone', () => {
    expect([...withDependencies(tree, new Set(['1']), findNode(tree.roots, '3')!, false)]).toEqual(['1'])
  })

  it('saves integer permission ids of leaves only', () => {
    expect(permissionIds(new Set(['1', '3', 'model:console:users.user']), tree)).toEqual([1, 3])
  })

  it('a tree where every node is disabled is read-only', () => {
    expect(buildPermTree(parseZTree(raw.map((n) => ({ ...n, chkDisabled: true })))).readOnly).toBe(true)
    expect(parseZTree({ bad: true })).toEqual([])
  })
})
