/**
 * Which ACL decides — pure (no database): the matching rules of JumpServer 3.2's acls app (docs/acls.md).
 *
 * - Matchers: `users {username_group}`, `assets {name_group, address_group}`, `accounts {username_group}`. An entry
 *   `*` matches everything; any other entry matches exactly (JumpServer filters with JSON `contains`, so no
 *   partial or glob matches). An address entry is also an IP, a CIDR subnet or an IP range (the asset's address
 *   must then be an IP in it), or a host name (equal, ignoring case).
 * - Order: active ACLs of the asset's organization, by priority (lower first), then date_updated (older first),
 *   then name — JumpServer's `Meta.ordering`. Inactive ACLs never decide.
 * - Command filter ACLs: the first ACL (in that order) whose matchers hold and one of whose command groups matches
 *   the command decides; its action applies. Nothing matching: the command runs (`accept`, no ACL).
 * - Login asset ACLs: the first ACL whose matchers, IP rules and time periods hold decides.
 */
import { ipMatches } from '../../auth/ip-match.ts'
import { timeMatches } from './rules.ts'

export interface UserMatcher { username_group?: unknown }
export interface AssetMatcher { name_group?: unknown; address_group?: unknown }

export interface CommandGroupLike { id: string; name: string; type: string; content: string; ignore_case: boolean }

export interface AclLike {
  id: string
  name: string
  org_id: string
  priority: number
  action: string
  is_active: boolean
  date_updated: Date | string
  users: UserMatcher | null
  assets: AssetMatcher | null
  accounts: UserMatcher | null
}
export interface CommandAclLike extends AclLike { command_groups: CommandGroupLike[] }
export interface LoginAssetAclLike extends AclLike { rules: { ip_group?: unknown; time_period?: unknown } | null }

export interface Subject {
  /** the user's username */
  user: string
  asset: { name: string; address: string; org_id: string }
  /** the account's username */
  account: string
}

const list = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [])

/** `*` or an exact entry. An absent group is `["*"]` (the serializer's default). */
export function namesMatch(group: unknown, name: string): boolean {
  const entries = group === undefined || group === null ? ['*'] : list(group)
  return entries.some((e) => e === '*' || e === name)
}

/** `*`, an IP / CIDR / range holding the address, or a host name equal to it (case-insensitive). */
export function addressMatches(group: unknown, address: string): boolean {
  const entries = group === undefined || group === null ? ['*'] : list(group)
  return entries.some((e) => {
    const rule = e.trim()
    if (rule === '*') return true
    if (ipMatches(address, [rule])) return true
    return rule.toLowerCase() === address.trim().toLowerCase()
  })
}

export function subjectMatches(acl: AclLike, s: Subject): boolean {
  return acl.org_id === s.asset.org_id &&
    namesMatch(acl.users?.username_group, s.user) &&
    namesMatch(acl.assets?.name_group, s.asset.name) &&
    addressMatches(acl.assets?.address_group, s.asset.address) &&
    namesMatch(acl.accounts?.username_group, s.account)
}

const time = (d: Date | string) => (d instanceof Date ? d.getTime() : Date.parse(d))

/** Active ACLs in deciding order: priority, then older updates first, then name. */
export function inOrder<T extends AclLike>(acls: readonly T[]): T[] {
  return acls.filter((a) => a.is_active).sort((a, b) =>
    a.priority - b.priority || time(a.date_updated) - time(b.date_updated) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
}

const REGEX_SPECIAL = /[\\^$.*+?()[\]{}|/-]/g

/**
 * The regular expression of a command group, as JumpServer 3.2 builds it (`CommandGroup.pattern`): type `regex`
 * is the content itself; type `command` is one alternative per line, runs of blanks matching any whitespace, a
 * one-word command anchored at word boundaries (`\brm\b`; only at its start when it ends in a non-letter).
 * Blank lines are skipped (JumpServer turned a blank-only line into `\s+`, which matches nearly everything).
 */
export function commandPattern(group: Pick<CommandGroupLike, 'type' | 'content'>): string {
  if (group.type === 'regex') return group.content
  const out: string[] = []
  for (const raw of group.content.replace(/\r\n/g, '\n').split('\n')) {
    if (!raw.trim()) continue
    const escaped = raw.replace(/\s+/g, ' ').replace(REGEX_SPECIAL, '\\$&').replace(/ /g, '\\s+')
    if (raw.includes(' ')) out.push(escaped)
    else out.push(/\p{L}$/u.test(raw) ? `\\b${escaped}\\b` : `\\b${escaped}`)
  }
  return out.join('|')
}

/** The compiled pattern, or the compiler's message when the content is not a valid expression. */
export function compileGroup(group: Pick<CommandGroupLike, 'type' | 'content' | 'ignore_case'>): { regex: RegExp } | { error: string } {
  try {
    return { regex: new RegExp(commandPattern(group), group.ignore_case ? 'i' : '') }
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) }
  }
}

/** The matched text of `command`, or null. An empty pattern matches nothing; a broken one never matches. */
export function matchCommand(group: CommandGroupLike, command: string): string | null {
  if (!commandPattern(group)) return null
  const c = compileGroup(group)
  if (!('regex' in c)) return null
  const m = c.regex.exec(command)
  return m ? m[0] : null
}

export interface CommandDecision<T extends CommandAclLike> {
  /** the effective action: the deciding ACL's, or `accept` when none decides */
  action: string
  acl: T | null
  group: CommandGroupLike | null
  matched: string
}

export function decideCommand<T extends CommandAclLike>(acls: readonly T[], s: Subject, command: string): CommandDecision<T> {
  for (const acl of inOrder(acls)) {
    if (!subjectMatches(acl, s)) continue
    for (const group of acl.command_groups) {
      const matched = matchCommand(group, command)
      if (matched !== null) return { action: acl.action, acl, group, matched }
    }
  }
  return { action: 'accept', acl: null, group: null, matched: '' }
}

export interface LoginAssetDecision<T extends LoginAssetAclLike> { action: string; acl: T | null }

export function decideLoginAsset<T extends LoginAssetAclLike>(acls: readonly T[], s: Subject & { ip: string; now: Date; tz: string }): LoginAssetDecision<T> {
  for (const acl of inOrder(acls)) {
    if (!subjectMatches(acl, s)) continue
    const ipGroup = acl.rules?.ip_group ?? ['*']
    if (!list(ipGroup).includes('*') && !ipMatches(s.ip, ipGroup)) continue
    if (!timeMatches(acl.rules?.time_period, s.now, s.tz)) continue
    return { action: acl.action, acl }
  }
  return { action: 'accept', acl: null }
}

export interface LoginAclLike { name: string; priority: number; action: string; is_active: boolean; date_updated: Date | string; rules: { ip_group?: unknown; time_period?: unknown } | null }

/** A user's login (login ACLs are per user: no matchers, no organization): the first rule whose IPs and times hold. */
export function decideUserLogin<T extends LoginAclLike>(acls: readonly T[], s: { ip: string; now: Date; tz: string }): T | null {
  const ordered = acls.filter((a) => a.is_active).sort((a, b) =>
    a.priority - b.priority || time(a.date_updated) - time(b.date_updated) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  return ordered.find((a) => ipMatches(s.ip, a.rules?.ip_group ?? ['*']) && timeMatches(a.rules?.time_period, s.now, s.tz)) ?? null
}
