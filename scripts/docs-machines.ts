/**
 * Writes docs/machines/<machine>.md (a Mermaid stateDiagram-v2 plus tables of states, transitions and the
 * implementations a caller provides) for every machine exported by machines/index.ts, and docs/machines/README.md.
 *
 *   node --import tsx scripts/docs-machines.ts        (npm run docs:machines)
 *
 * The diagrams are generated from the machine definitions (state nodes, `on`, `always`, `after`, invoke
 * onDone/onError) as read by machines/graph.ts, which the console's inspector draws too; do not edit the output by hand.
 */
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { AnyStateMachine, AnyStateNode } from 'xstate'
import { allStateNodes, childNodes, describeAction, edgesOfNode } from '../machines/graph.ts'
import * as catalogue from '../machines/index.ts'

const OUT_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'machines')

interface Edge {
  source: AnyStateNode
  targets: AnyStateNode[]
  event: string
  guard: string | null
  actions: string[]
}

function isMachine(value: unknown): value is AnyStateMachine {
  return typeof value === 'object' && value !== null && 'root' in value && 'getStateNodeById' in value
}

const kebab = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase()
const mermaidId = (node: AnyStateNode) => node.path.length === 0 ? `${node.id}__root` : node.id.replace(/[^A-Za-z0-9_]/g, '_')
const displayPath = (node: AnyStateNode) => (node.path.length === 0 ? '(root)' : node.path.join('.'))
const clean = (text: string) => text.replace(/[;:{}#"|]/g, ' ').replace(/\s+/g, ' ').trim()
const cell = (text: string) => text.replace(/\|/g, '\\|')

const children = childNodes
const allNodes = allStateNodes

/** The `raise(…, { delay })` XState adds to the entry of a state with `after` transitions. */
function isDelaySchedule(action: unknown): boolean {
  return typeof action === 'function' && (action as { type?: unknown }).type === 'xstate.raise' && (action as { delay?: unknown }).delay !== undefined
}

/** The transitions of machines/graph.ts (the inspector draws the same ones), with their state nodes. */
function edgesOf(machine: AnyStateMachine, node: AnyStateNode): Edge[] {
  return edgesOfNode(machine, node).map((edge) => ({
    source: node,
    targets: edge.targetIds.map((id) => machine.getStateNodeById(id)),
    event: edge.event,
    guard: edge.guard,
    actions: edge.actions,
  }))
}

/** The deepest state node containing both nodes (where Mermaid wants the transition written). */
function commonAncestor(a: AnyStateNode, b: AnyStateNode): AnyStateNode {
  let candidate: AnyStateNode | undefined = a.parent
  while (candidate) {
    const ancestor: AnyStateNode = candidate
    if (b.path.length > ancestor.path.length && ancestor.path.every((key, index) => b.path[index] === key)) return ancestor
    candidate = ancestor.parent
  }
  return a.machine.root
}

function edgeLabel(edge: Edge): string {
  return clean(edge.guard ? `${edge.event} [${edge.guard}]` : edge.event)
}

function renderNode(node: AnyStateNode, edgesByScope: Map<AnyStateNode, string[]>, indent: string, label?: string): string[] {
  const lines: string[] = []
  const id = mermaidId(node)
  const kids = children(node)
  if (kids.length === 0) {
    lines.push(`${indent}state "${node.key}" as ${id}`)
    return lines
  }
  lines.push(`${indent}state "${label ?? `${node.key}${node.type === 'parallel' ? ' (parallel)' : ''}`}" as ${id} {`)
  lines.push(...renderScope(node, edgesByScope, `${indent}  `))
  lines.push(`${indent}}`)
  return lines
}

function renderScope(scope: AnyStateNode, edgesByScope: Map<AnyStateNode, string[]>, indent: string): string[] {
  const lines: string[] = []
  const kids = children(scope)
  if (scope.type === 'parallel') {
    kids.forEach((region, index) => {
      if (index > 0) lines.push(`${indent}--`)
      lines.push(...renderNode(region, edgesByScope, indent))
    })
  } else {
    const initial = scope.initial?.target[0] as AnyStateNode | undefined
    if (initial) lines.push(`${indent}[*] --> ${mermaidId(initial)}`)
    for (const kid of kids) lines.push(...renderNode(kid, edgesByScope, indent))
    for (const kid of kids) if (kid.type === 'final') lines.push(`${indent}${mermaidId(kid)} --> [*]`)
  }
  lines.push(...(edgesByScope.get(scope) ?? []).map((line) => `${indent}${line}`))
  return lines
}

function mermaid(machine: AnyStateMachine, edges: Edge[]): string {
  const root = machine.root
  const edgesByScope = new Map<AnyStateNode, string[]>()
  const add = (scope: AnyStateNode, line: string) => edgesByScope.set(scope, [...(edgesByScope.get(scope) ?? []), line])
  const lines = ['stateDiagram-v2']
  const fromRoot = edges.filter((edge) => edge.source === root && edge.targets.length > 0)
  if (fromRoot.length > 0) lines.push(`  state "any state" as ${mermaidId(root)}_any`)
  for (const edge of edges) {
    const label = edgeLabel(edge)
    if (edge.source === root) {
      for (const target of edge.targets) add(root, `${mermaidId(root)}_any --> ${mermaidId(target)} : ${label}`)
      continue
    }
    if (edge.targets.length === 0) {
      add(edge.source.parent ?? root, `${mermaidId(edge.source)} --> ${mermaidId(edge.source)} : ${label}`)
      continue
    }
    for (const target of edge.targets) add(commonAncestor(edge.source, target), `${mermaidId(edge.source)} --> ${mermaidId(target)} : ${label}`)
  }
  // Mermaid only accepts the concurrency separator inside a composite state.
  if (root.type === 'parallel') lines.push(...renderNode(root, edgesByScope, '  ', `${machine.id} (parallel)`))
  else lines.push(...renderScope(root, edgesByScope, '  '))
  return lines.join('\n')
}

function implementationsTable(machine: AnyStateMachine): string[] {
  const impl = machine.implementations as unknown as Record<string, Record<string, unknown> | undefined>
  const rows: string[] = []
  const invoked = new Map<string, string[]>()
  for (const node of allNodes(machine.root)) {
    for (const invoke of node.invoke) {
      const src = typeof invoke.src === 'string' ? invoke.src : invoke.id
      invoked.set(src, [...(invoked.get(src) ?? []), displayPath(node)])
    }
  }
  for (const name of Object.keys(impl.actors ?? {})) {
    rows.push(`| actor | \`${name}\` | provide | invoked in ${cell((invoked.get(name) ?? []).join(', ') || '—')} |`)
  }
  for (const [name, action] of Object.entries(impl.actions ?? {})) {
    const builtIn = typeof (action as { type?: unknown }).type === 'string'
    rows.push(`| action | \`${name}\` | ${builtIn ? 'internal' : 'provide (side effect)'} | |`)
  }
  for (const name of Object.keys(impl.guards ?? {})) rows.push(`| guard | \`${name}\` | internal | |`)
  for (const [name, delay] of Object.entries(impl.delays ?? {})) {
    rows.push(`| delay | \`${name}\` | internal | ${typeof delay === 'number' ? `${delay} ms` : 'computed from context'} |`)
  }
  return ['| Kind | Name | Caller | Notes |', '| --- | --- | --- | --- |', ...rows]
}

function statesTable(machine: AnyStateMachine): string[] {
  const rows = allNodes(machine.root)
    .filter((node) => node.path.length > 0)
    .map((node) => {
      const entry = node.entry.filter((action) => !isDelaySchedule(action)).map(describeAction).join(', ')
      const invokes = node.invoke.map((invoke) => (typeof invoke.src === 'string' ? invoke.src : invoke.id)).join(', ')
      return `| \`${displayPath(node)}\` | ${node.type} | ${cell(entry) || '—'} | ${cell(invokes) || '—'} | ${cell(node.description ?? '')} |`
    })
  return ['| State | Type | Entry actions | Invokes | Notes |', '| --- | --- | --- | --- | --- |', ...rows]
}

function transitionsTable(edges: Edge[]): string[] {
  const rows = edges.map((edge) => {
    const targets = edge.targets.map((target) => `\`${displayPath(target)}\``).join(', ') || '(stays)'
    return `| \`${displayPath(edge.source)}\` | ${cell(edge.event)} | ${cell(edge.guard ?? '')} | ${targets} | ${cell(edge.actions.join(', '))} |`
  })
  return ['| From | Event | Guard | To | Actions |', '| --- | --- | --- | --- | --- |', ...rows]
}

function render(exportName: string, machine: AnyStateMachine): string {
  const edges = allNodes(machine.root).flatMap((node) => edgesOf(machine, node))
  return [
    `# ${machine.id}`,
    '',
    `<!-- Generated by scripts/docs-machines.ts from machines/index.ts (\`${exportName}\`). Do not edit. -->`,
    '',
    machine.root.description ?? '',
    '',
    '```mermaid',
    mermaid(machine, edges),
    '```',
    '',
    '## States',
    '',
    ...statesTable(machine),
    '',
    '## Transitions',
    '',
    ...transitionsTable(edges),
    '',
    '## Implementations',
    '',
    'Actors and side-effect actions have defaults in the machine (a no-op, or a rejection/throw naming what is missing);',
    'the caller replaces them with `machine.provide({ actors, actions })`. Guards, delays and `assign` actions are internal.',
    '',
    ...implementationsTable(machine),
    '',
  ].join('\n')
}

function main(): void {
  const machines = Object.entries(catalogue)
    .filter((entry): entry is [string, AnyStateMachine] => entry[0].endsWith('Machine') && isMachine(entry[1]))
    .sort(([a], [b]) => a.localeCompare(b))
  mkdirSync(OUT_DIR, { recursive: true })
  // only generated pages are replaced (the guides beside them are written by hand)
  for (const file of readdirSync(OUT_DIR)) {
    if (file.endsWith('.md') && readFileSync(join(OUT_DIR, file), 'utf8').includes('<!-- Generated by')) rmSync(join(OUT_DIR, file))
  }
  const index = [
    '# State machines',
    '',
    '<!-- Generated by scripts/docs-machines.ts (npm run docs:machines). Do not edit. -->',
    '',
    'Pure XState v5 machines of the console (`machines/`). Side effects are named actors and actions the caller',
    'provides with `machine.provide(...)`; every machine has a model-based test walking its paths with `xstate/graph`.',
    '',
    'Guides: [model-testing.md](model-testing.md) (unit model walks, model-driven UI tests, `npm run test:models`,',
    'adding a machine) and [inspector.md](inspector.md) (the built-in inspector, `?inspect`). The diagrams below and the',
    'inspector are drawn from the same reading of the definitions (`machines/graph.ts`).',
    '',
    '| Machine | File | Summary |',
    '| --- | --- | --- |',
  ]
  for (const [exportName, machine] of machines) {
    const file = `${kebab(machine.id)}.md`
    writeFileSync(join(OUT_DIR, file), render(exportName, machine))
    const summary = (machine.root.description ?? '').split(/(?<=\.) /, 1)[0] ?? ''
    index.push(`| [${machine.id}](${file}) | \`${exportName}\` | ${cell(summary)} |`)
  }
  writeFileSync(join(OUT_DIR, 'README.md'), `${index.join('\n')}\n`)
  console.log(`docs/machines: ${machines.length} machines written`)
}

main()
