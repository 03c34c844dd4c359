/** The decision table of decide.ts, one rule per test (docs/acls.md). */
import { describe, expect, it } from 'vitest'
import {
  addressMatches, commandPattern, compileGroup, decideCommand, decideLoginAsset, decideUserLogin, matchCommand, namesMatch,
  type CommandAclLike, type CommandGroupLike, type LoginAssetAclLike, type Subject,
} from './decide.ts'

const ORG = 'org-a'
const subject: Subject = { user: 'alice', asset: { name: 'web-1', address: '10.0.0.5', org_id: ORG }, account: 'root' }
const grp = (content: string, extra: Partial<CommandGroupLike> = {}): CommandGroupLike => ({ id: content, name: content, type: 'command', content, ignore_case: true, ...extra })
let n = 0
const acl = (extra: Partial<CommandAclLike> = {}): CommandAclLike => ({
  id: `acl-${++n}`, name: `acl-${n}`, org_id: ORG, priority: 50, action: 'reject', is_active: true, date_updated: '2024-01-01T00:00:00Z',
  users: { username_group: ['*'] }, assets: { name_group: ['*'], address_group: ['*'] }, accounts: { username_group: ['*'] },
  command_groups: [grp('rm')], ...extra,
})

describe('command patterns (JumpServer 3.2 CommandGroup.pattern)', () => {
  it('anchors one-word commands at word boundaries, only at the start when they end in a non-letter', () => {
    expect(commandPattern(grp('rm'))).toBe('\\brm\\b')
    expect(commandPattern(grp('ls.'))).toBe('\\bls\\.')
    expect(matchCommand(grp('rm'), 'sudo rm -rf /')).toBe('rm')
    expect(matchCommand(grp('rm'), 'rmdir x')).toBeNull()
    expect(matchCommand(grp('rm'), 'charm')).toBeNull()
  })
  it('lets runs of blanks in a multi-word command match any whitespace, escapes specials, skips blank lines', () => {
    expect(commandPattern(grp('rm  -rf\n\n  \nshutdown'))).toBe('rm\\s+\\-rf|\\bshutdown\\b')
    expect(matchCommand(grp('rm -rf'), 'rm \t -rf /tmp')).toBe('rm \t -rf')
    expect(matchCommand(grp('cat /etc/*'), 'cat /etc/*')).toBe('cat /etc/*')
    expect(matchCommand(grp('cat /etc/*'), 'cat /etc/passwd')).toBeNull()
    expect(matchCommand(grp('\n\n'), 'anything')).toBeNull()
  })
  it('ignores case only when asked', () => {
    expect(matchCommand(grp('reboot'), 'REBOOT now')).toBe('REBOOT')
    expect(matchCommand(grp('reboot', { ignore_case: false }), 'REBOOT now')).toBeNull()
  })
  it('takes regex content as one expression and reports one that does not compile', () => {
    const re = grp('^(shutdown|halt)\\b', { type: 'regex' })
    expect(matchCommand(re, 'halt -p')).toBe('halt')
    expect(matchCommand(re, 'echo halt')).toBeNull()
    expect(compileGroup(grp('(', { type: 'regex' }))).toHaveProperty('error')
    expect(matchCommand(grp('(', { type: 'regex' }), '(')).toBeNull()
  })
})

describe('matchers', () => {
  it('names: * or an exact entry (no partial or glob matches); an absent group matches all', () => {
    expect(namesMatch(['*'], 'x')).toBe(true)
    expect(namesMatch(['alice', 'bob'], 'bob')).toBe(true)
    expect(namesMatch(['ali'], 'alice')).toBe(false)
    expect(namesMatch(['ali*'], 'alice')).toBe(false)
    expect(namesMatch([], 'alice')).toBe(false)
    expect(namesMatch(undefined, 'alice')).toBe(true)
  })
  it('addresses: *, IP, CIDR, range (IPv4 and IPv6), or a host name ignoring case', () => {
    expect(addressMatches(['10.0.0.0/24'], '10.0.0.5')).toBe(true)
    expect(addressMatches(['10.0.0.1-10.0.0.9'], '10.0.0.5')).toBe(true)
    expect(addressMatches(['10.0.1.0/24'], '10.0.0.5')).toBe(false)
    expect(addressMatches(['2001:db8::/64'], '2001:db8::7')).toBe(true)
    expect(addressMatches(['DB.example.com'], 'db.example.com')).toBe(true)
    expect(addressMatches(['10.0.0.0/8'], 'db.example.com')).toBe(false)
    expect(addressMatches(['*'], 'db.example.com')).toBe(true)
  })
})

describe('command decisions', () => {
  it('takes the lowest priority value first, then the older update, then the name', () => {
    const late = acl({ priority: 10, action: 'accept', date_updated: '2024-02-01T00:00:00Z' })
    const early = acl({ priority: 10, action: 'warning', date_updated: '2024-01-01T00:00:00Z' })
    const low = acl({ priority: 90, action: 'reject' })
    expect(decideCommand([low, late, early], subject, 'rm x').acl).toBe(early)
    expect(decideCommand([low, late], subject, 'rm x')).toMatchObject({ action: 'accept', acl: late, matched: 'rm' })
  })
  it('skips ACLs whose command groups do not match, and answers accept with no ACL when none decides', () => {
    const other = acl({ priority: 1, command_groups: [grp('reboot')] })
    const rm = acl({ priority: 2, action: 'review' })
    expect(decideCommand([other, rm], subject, 'rm -f a')).toMatchObject({ action: 'review', acl: rm })
    expect(decideCommand([other, rm], subject, 'ls')).toEqual({ action: 'accept', acl: null, group: null, matched: '' })
    expect(decideCommand([acl({ command_groups: [] })], subject, 'rm')).toMatchObject({ acl: null })
  })
  it('never lets an inactive ACL decide', () => {
    const off = acl({ priority: 1, action: 'accept', is_active: false })
    const on = acl({ priority: 2, action: 'reject' })
    expect(decideCommand([off, on], subject, 'rm').acl).toBe(on)
  })
  it('applies the user, asset (name and address) and account matchers together', () => {
    const bob = acl({ priority: 1, users: { username_group: ['bob'] } })
    const db = acl({ priority: 2, assets: { name_group: ['*'], address_group: ['192.168.0.0/16'] } })
    const named = acl({ priority: 3, assets: { name_group: ['web-2'], address_group: ['*'] } })
    const admin = acl({ priority: 4, accounts: { username_group: ['admin'] } })
    const mine = acl({ priority: 5, users: { username_group: ['alice'] }, assets: { name_group: ['web-1'], address_group: ['10.0.0.0/8'] }, accounts: { username_group: ['root'] } })
    expect(decideCommand([bob, db, named, admin, mine], subject, 'rm').acl).toBe(mine)
  })
  it('uses only the ACLs of the asset\'s organization', () => {
    const foreign = acl({ priority: 1, org_id: 'org-b', action: 'accept' })
    const own = acl({ priority: 2 })
    expect(decideCommand([foreign, own], subject, 'rm').acl).toBe(own)
    expect(decideCommand([foreign], subject, 'rm').acl).toBeNull()
  })
})

describe('login asset decisions', () => {
  const sundayNoonShanghai = new Date('2024-06-02T04:00:00Z')
  const at = { ...subject, ip: '192.168.1.20', now: sundayNoonShanghai, tz: 'Asia/Shanghai' }
  const lacl = (extra: Partial<LoginAssetAclLike> = {}): LoginAssetAclLike => {
    const { command_groups: _, ...base } = acl()
    return { ...base, rules: { ip_group: ['*'], time_period: [] }, ...extra }
  }
  it('matches the source IP rules (* matches even an unparsable source)', () => {
    const office = lacl({ priority: 1, action: 'accept', rules: { ip_group: ['192.168.1.0/24'], time_period: [] } })
    const rest = lacl({ priority: 2, action: 'reject' })
    expect(decideLoginAsset([office, rest], at).acl).toBe(office)
    expect(decideLoginAsset([office, rest], { ...at, ip: '10.9.9.9' }).acl).toBe(rest)
    expect(decideLoginAsset([rest], { ...at, ip: '' }).acl).toBe(rest)
  })
  it('matches time periods by weekday and time in the zone; an empty list is any time', () => {
    const weekdays = lacl({ priority: 1, action: 'accept', rules: { ip_group: ['*'], time_period: [1, 2, 3, 4, 5].map((id) => ({ id, value: '09:00~18:00' })) } })
    const sunday = lacl({ priority: 2, action: 'notice', rules: { ip_group: ['*'], time_period: [{ id: 0, value: '11:00~13:00' }] } })
    const always = lacl({ priority: 3, action: 'reject' })
    expect(decideLoginAsset([weekdays, sunday, always], at)).toMatchObject({ action: 'notice', acl: sunday })
    expect(decideLoginAsset([weekdays, sunday, always], { ...at, now: new Date('2024-06-03T02:00:00Z') }).acl).toBe(weekdays)
    expect(decideLoginAsset([weekdays, sunday, always], { ...at, tz: 'UTC' }).acl).toBe(always)
  })
  it('answers accept with no ACL when none matches, and skips inactive and foreign ones', () => {
    expect(decideLoginAsset([lacl({ is_active: false }), lacl({ org_id: 'x' }), lacl({ accounts: { username_group: ['admin'] } })], at))
      .toEqual({ action: 'accept', acl: null })
  })
})

describe('user login decisions', () => {
  it('orders like the other ACLs (priority, older update, name) and skips inactive rules', () => {
    const rule = (name: string, priority: number, updated: string, extra = {}) => ({ name, priority, action: 'reject', is_active: true, date_updated: updated, rules: { ip_group: ['*'], time_period: [] }, ...extra })
    const at = { ip: '10.0.0.1', now: new Date('2024-06-03T04:00:00Z'), tz: 'Asia/Shanghai' }
    const newer = rule('b', 10, '2024-02-01T00:00:00Z')
    const older = rule('c', 10, '2024-01-01T00:00:00Z')
    const off = rule('a', 1, '2024-01-01T00:00:00Z', { is_active: false })
    const elsewhere = rule('d', 2, '2024-01-01T00:00:00Z', { rules: { ip_group: ['192.168.0.0/16'], time_period: [] } })
    expect(decideUserLogin([newer, off, older, elsewhere], at)).toBe(older)
    expect(decideUserLogin([off], at)).toBeNull()
  })
})
