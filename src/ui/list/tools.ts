/**
 * Import and export slots of every list. The import/export dialogs (src/ui/import, src/ui/export) register
 * their renderers once at start-up; each list then shows them subject to the registry's permission rules
 * (import: add or change and not in the root org; export: view) and its own `tools` config.
 */
import type { ReactNode } from 'react'
import type { ListToolContext } from './types.ts'

export interface ListTools {
  renderImport?: (ctx: ListToolContext) => ReactNode
  renderExport?: (ctx: ListToolContext) => ReactNode
}

let tools: ListTools = {}

export function registerListTools(next: ListTools): void {
  tools = { ...tools, ...next }
}

export function listTools(): ListTools {
  return tools
}
