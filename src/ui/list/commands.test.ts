import { describe, expect, it } from 'vitest'
import { msg } from '@lingui/core/macro'
import { commandsFor, isEnabled, isVisible, mergeCommands, resolvePerms, splitActions, type Command, type CommandEnv } from './commands.ts'
import { resourcePerms } from '../common/perms.ts'

const perms = resourcePerms('/api/v1/users/users/')
const env = (held: string[], rootOrg = false): CommandEnv => ({ access: { perms: new Set(held), orgId: 'o', userId: 'u', isSystemAdmin: false }, perms, rootOrg })
const cmd = (id: string, over: Partial<Command> = {}): Command => ({ id, scope: 'row', label: msg`x`, order: 100, run: () => {}, ...over })

const row = { id: 'r1', name: 'alice' }
const defaults = [
  cmd('delete', { order: 20, perms: ['@delete'], disabledInRoot: true }),
  cmd('update', { order: 10, perms: ['@change'], hiddenInRoot: true }),
  cmd('clone', { order: 30, perms: ['@add'], hiddenInRoot: true }),
]

describe('permission predicates', () => {
  it('resolves @ references against the resource', () => {
    expect(resolvePerms(['@add', 'users.invite_user', 'a|b', '@add|@change'], perms)).toEqual(['users.add_user', 'users.invite_user', 'a|b', 'users.add_user|users.change_user'])
  })
  it('hides without permission and in root when asked', () => {
    const update = defaults[1]!
    expect(isVisible(update, env(['users.change_user']), { row, selection: [] })).toBe(true)
    expect(isVisible(update, env([]), { row, selection: [] })).toBe(false)
    expect(isVisible(update, env(['users.change_user'], true), { row, selection: [] })).toBe(false)
  })
  it('disables row delete in root, bulk without selection, and through predicates', () => {
    const del = defaults[0]!
    expect(isEnabled(del, env(['users.delete_user'], true), { row, selection: [] })).toBe(false)
    expect(isEnabled(del, env(['users.delete_user']), { row, selection: [] })).toBe(true)
    const bulk = cmd('bulk', { scope: 'bulk' })
    expect(isEnabled(bulk, env([]), { selection: [] })).toBe(false)
    expect(isEnabled(bulk, env([]), { selection: [row] })).toBe(true)
    const guarded = cmd('g', { enabled: (_e, t) => t.row?.name !== 'alice' })
    expect(isEnabled(guarded, env([]), { row, selection: [] })).toBe(false)
  })
})

describe('ordering and overflow', () => {
  it('sorts visible commands of a scope by order', () => {
    const all = [...defaults, cmd('extra', { order: 15 }), cmd('head', { scope: 'header', order: 1 })]
    const shown = commandsFor('row', all, env(['users.change_user', 'users.delete_user', 'users.add_user']), { row, selection: [] })
    expect(shown.map((c) => c.id)).toEqual(['update', 'extra', 'delete', 'clone'])
    const fewer = commandsFor('row', all, env(['users.delete_user']), { row, selection: [] })
    expect(fewer.map((c) => c.id)).toEqual(['extra', 'delete'])
  })
  it('shows two actions, or the first plus More', () => {
    expect(splitActions(['a'])).toEqual({ shown: ['a'], more: [] })
    expect(splitActions(['a', 'b'])).toEqual({ shown: ['a', 'b'], more: [] })
    expect(splitActions(['a', 'b', 'c'])).toEqual({ shown: ['a'], more: ['b', 'c'] })
    expect(splitActions(['a', 'b', 'c'], 3, 3)).toEqual({ shown: ['a', 'b', 'c'], more: [] })
    expect(splitActions(['a', 'b', 'c', 'd'], 3, 3)).toEqual({ shown: ['a', 'b', 'c'], more: ['d'] })
  })
  it('merges overrides, removals and extras', () => {
    const merged = mergeCommands(defaults, { clone: null, delete: { order: 5 } }, [cmd('reset')])
    expect(merged.map((c) => [c.id, c.order])).toEqual([['delete', 5], ['update', 10], ['reset', 100]])
  })
})
