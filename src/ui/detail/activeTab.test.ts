import { describe, expect, it } from 'vitest'
import { chooseTab, detailTitle } from './activeTab.ts'

const tabs = ['Info', 'Groups', 'Activity']

describe('chooseTab', () => {
  it('takes the query, then the cookie, then the default, case-insensitively', () => {
    expect(chooseTab(tabs, 'groups', 'Activity', 'Info')).toBe('Groups')
    expect(chooseTab(tabs, undefined, 'ACTIVITY', 'Info')).toBe('Activity')
    expect(chooseTab(tabs, '', undefined, 'groups')).toBe('Groups')
  })
  it('ignores tabs that are not visible and falls back to the first visible tab', () => {
    expect(chooseTab(tabs, 'Secret', 'Hidden', 'Nope')).toBe('Info')
    expect(chooseTab(['Groups', 'Info'], 'Activity', undefined)).toBe('Groups')
    expect(chooseTab([], 'Info', undefined)).toBeUndefined()
  })
})

describe('detailTitle', () => {
  it('joins type and name and cuts at 80 characters', () => {
    expect(detailTitle('User', 'alice')).toBe('User: alice')
    const long = detailTitle('User', 'x'.repeat(100))
    expect(long).toHaveLength(83)
    expect(long.endsWith('...')).toBe(true)
    expect(detailTitle('User', 'x'.repeat(74))).toHaveLength(80)
  })
})
