/**
 * A list/detail command that starts a background task through a resource's own call and opens its live log in a
 * new tab (the reference's `openTaskPage`): row, bulk or header scope. The view says which URL and body start it.
 */
import type { MessageDescriptor } from '@lingui/core'
import type { FluentIcon } from '@fluentui/react-icons'
import { t } from '@lingui/core/macro'
import type { Row } from '../../api/resources.ts'
import { startTask } from '../../api/tasks.ts'
import { describeError } from '../common/errors.ts'
import { notify } from '../common/notify.tsx'
import type { CommandScope, CommandTarget } from '../list/commands.ts'
import type { ListCommand } from '../list/types.ts'
import { taskLogPath } from './taskLogPath.ts'

export interface TaskCommandOptions {
  id: string
  scope: CommandScope
  label: MessageDescriptor
  icon?: FluentIcon
  order: number
  perms: readonly string[]
  /** the call that starts the task for this target, or undefined when there is nothing to start */
  request: (target: CommandTarget) => { url: string; body?: Record<string, unknown> } | undefined
  /** enabled for this row / selection (default: a row, or a non-empty selection) */
  enabled?: (target: CommandTarget) => boolean
  hiddenInRoot?: boolean
}

/** Starts the task, says so, and opens its log page in a new tab (errors are shown, not thrown). */
export async function startAndOpenLog(url: string, body: Record<string, unknown> | undefined, openInNewTab: (path: string) => void): Promise<void> {
  try {
    const execution = await startTask(url, body)
    notify('success', t`Task started`)
    openInNewTab(taskLogPath(execution))
  } catch (e) {
    notify('error', t`Could not start the task`, describeError(e))
  }
}

export function taskCommand(o: TaskCommandOptions): ListCommand {
  return {
    id: o.id,
    scope: o.scope,
    label: o.label,
    icon: o.icon,
    order: o.order,
    perms: o.perms,
    hiddenInRoot: o.hiddenInRoot,
    enabled: (_env, target) => (o.enabled ? o.enabled(target) : o.scope !== 'bulk' || target.selection.length > 0),
    run: async (target, h) => {
      const call = o.request(target)
      if (call) await startAndOpenLog(call.url, call.body, (path) => h.openInNewTab(path))
    },
  }
}

export const rowId = (row: Row | undefined) => (row ? String(row.id) : '')
