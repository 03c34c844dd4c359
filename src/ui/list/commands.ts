/**
 * One command registry for header buttons, bulk actions and row actions (style.md §2.5 item 6): each command
 * has an id, an i18n label, an icon, an order, permission requirements and predicates. The list page asks the
 * registry what to show and what is enabled (spec §6) and never special-cases a command.
 *
 * Permission entries are full strings (`users.invite_user`, `a|b`) or references to the resource's own
 * permissions: `@view`, `@add`, `@change`, `@delete`.
 */
import type { MessageDescriptor } from '@lingui/core'
import type { FluentIcon } from '@fluentui/react-icons'
import type { ReactNode } from 'react'
import type { Row } from '../../api/resources.ts'
import type { Access } from '../common/access.tsx'
import { hasPerms, type ResourcePerms } from '../common/perms.ts'

export type CommandScope = 'header' | 'bulk' | 'row'

export interface CommandEnv {
  access: Access
  perms: ResourcePerms
  /** the current organization is the root (global) one */
  rootOrg: boolean
}

export interface CommandTarget {
  /** row actions: the row */
  row?: Row
  /** bulk actions: the selected rows (across pages) */
  selection: readonly Row[]
}

export interface Command<H = unknown> {
  id: string
  scope: CommandScope
  label: MessageDescriptor
  icon?: FluentIcon
  order: number
  perms?: readonly string[]
  /** hidden in the root organization (create, update, clone, bulk update, import: spec §6) */
  hiddenInRoot?: boolean
  /** disabled (not hidden) in the root organization (row delete: spec §6) */
  disabledInRoot?: boolean
  visible?: (env: CommandEnv, target: CommandTarget) => boolean
  enabled?: (env: CommandEnv, target: CommandTarget) => boolean
  /** shown as the primary button (header) */
  primary?: boolean
  danger?: boolean
  /** header commands: left group (default) or right-hand tools */
  placement?: 'start' | 'end'
  run?: (target: CommandTarget, helpers: H) => void | Promise<void>
  /** a command that brings its own element (import/export dialogs) instead of a button */
  render?: (target: CommandTarget, helpers: H) => ReactNode
}

export function resolvePerms(perms: readonly string[] = [], own: ResourcePerms): string[] {
  const one = (p: string) => (p.startsWith('@') ? own[p.slice(1) as keyof ResourcePerms] ?? p : p)
  return perms.map((entry) => entry.split('|').map(one).join('|'))
}

export function isVisible(cmd: Command<any>, env: CommandEnv, target: CommandTarget): boolean {
  if (cmd.hiddenInRoot && env.rootOrg) return false
  if (!hasPerms(env.access.perms, resolvePerms(cmd.perms, env.perms))) return false
  return cmd.visible ? cmd.visible(env, target) : true
}

export function isEnabled(cmd: Command<any>, env: CommandEnv, target: CommandTarget): boolean {
  if (cmd.disabledInRoot && env.rootOrg) return false
  if (cmd.scope === 'bulk' && target.selection.length === 0) return false
  return cmd.enabled ? cmd.enabled(env, target) : true
}

/** The visible commands of one scope, by order (ties keep registration order). */
export function commandsFor<H>(scope: CommandScope, commands: readonly Command<H>[], env: CommandEnv, target: CommandTarget): Command<H>[] {
  return commands
    .map((cmd, index) => ({ cmd, index }))
    .filter(({ cmd }) => cmd.scope === scope && isVisible(cmd, env, target))
    .sort((a, b) => a.cmd.order - b.cmd.order || a.index - b.index)
    .map(({ cmd }) => cmd)
}

/**
 * At most `max` actions are shown; with more, the first `shownWhenMore` are shown and the rest go to a More menu
 * (rows: 2 and 1, spec §9; a detail page: 3 and 3).
 */
export function splitActions<T>(actions: readonly T[], max = 2, shownWhenMore = 1): { shown: T[]; more: T[] } {
  if (actions.length <= max) return { shown: [...actions], more: [] }
  return { shown: actions.slice(0, shownWhenMore), more: actions.slice(shownWhenMore) }
}

/**
 * Merges a resource's own commands into the defaults: same id replaces (or removes, with `null`), new ids
 * are added.
 */
export function mergeCommands<H>(defaults: readonly Command<H>[], overrides: Readonly<Record<string, Partial<Command<H>> | null>> = {}, extra: readonly Command<H>[] = []): Command<H>[] {
  const out: Command<H>[] = []
  for (const cmd of defaults) {
    const o = overrides[cmd.id]
    if (o === null) continue
    out.push(o ? { ...cmd, ...o } : cmd)
  }
  return [...out, ...extra]
}
