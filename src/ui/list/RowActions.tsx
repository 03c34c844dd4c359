/** The actions cell: at most two buttons, else the first plus a More menu (spec §9). */
import type { Row } from '../../api/resources.ts'
import { CommandBar } from './CommandBar.tsx'
import type { CommandEnv } from './commands.ts'
import type { CommandHelpers, ListCommand } from './types.ts'

export function RowActions({ row, commands, env, helpers, rowName }: { row: Row; commands: readonly ListCommand[]; env: CommandEnv; helpers: () => CommandHelpers; rowName: string }) {
  return <CommandBar commands={commands} env={env} target={{ row, selection: [] }} helpers={helpers} max={2} shownWhenMore={1} look="row" objectName={rowName} />
}
