/**
 * A small statechart layout for the inspector (no layout library: the charts are tens of states). Children of a
 * compound state go in columns by their distance from its initial state (following transitions between
 * siblings), stacked within a column; the regions of a parallel state are stacked under each other; a
 * compound box wraps its children under a title bar. Transitions are straight arrows between box borders,
 * merged per source and target, with their labels at the middle; a transition that stays (or targets its own
 * state) is a loop on the box's right edge. Pure: tested in layout.test.ts.
 */
import type { GraphNode, MachineGraph } from '../../../machines/graph.ts'

export interface Box {
  id: string
  label: string
  type: GraphNode['type']
  x: number
  y: number
  w: number
  h: number
  /** nesting depth (root 0) */
  depth: number
  initial: boolean
}

export interface Arrow {
  sourceId: string
  targetId: string
  label: string
  /** start and end points; a loop has `loop` set and both points on the box's right edge */
  x1: number
  y1: number
  x2: number
  y2: number
  loop: boolean
}

export interface ChartLayout {
  width: number
  height: number
  boxes: Box[]
  arrows: Arrow[]
}

const CHAR_W = 6.6
const LEAF_H = 30
const TITLE_H = 22
const PAD = 12
const GAP_X = 56
const GAP_Y = 18

const textWidth = (text: string) => Math.ceil(text.length * CHAR_W)

interface Size {
  w: number
  h: number
  /** child id → offset inside this node */
  offsets: Map<string, { x: number; y: number }>
}

export function layoutChart(graph: MachineGraph): ChartLayout {
  const byId = new Map(graph.nodes.map((node) => [node.id, node]))
  const sizes = new Map<string, Size>()

  /** The child of `scope` that contains `id` (or is it). */
  const childOf = (scope: GraphNode, id: string): string | null => {
    let node = byId.get(id)
    while (node && node.parentId !== scope.id) node = node.parentId ? byId.get(node.parentId) : undefined
    return node ? node.id : null
  }

  const ranksOf = (node: GraphNode): string[][] => {
    const kids = node.childIds
    const next = new Map<string, Set<string>>(kids.map((id) => [id, new Set()]))
    for (const edge of graph.edges) {
      const from = childOf(node, edge.sourceId)
      if (!from) continue
      for (const target of edge.targetIds) {
        const to = childOf(node, target)
        if (to && to !== from) next.get(from)?.add(to)
      }
    }
    const rank = new Map<string, number>()
    const start = node.initialId ?? kids[0]
    const queue = start ? [start] : []
    if (start) rank.set(start, 0)
    while (queue.length > 0) {
      const id = queue.shift()!
      for (const to of next.get(id) ?? []) {
        if (!rank.has(to)) {
          rank.set(to, (rank.get(id) ?? 0) + 1)
          queue.push(to)
        }
      }
    }
    let last = Math.max(0, ...rank.values())
    for (const id of kids) if (!rank.has(id)) rank.set(id, ++last)
    const columns: string[][] = []
    for (const id of kids) (columns[rank.get(id)!] ??= []).push(id)
    return columns.filter((column) => column && column.length > 0)
  }

  const measure = (node: GraphNode): Size => {
    const offsets = new Map<string, { x: number; y: number }>()
    const titleW = textWidth(node.key + (node.type === 'parallel' ? ' ∥' : '')) + 2 * PAD
    if (node.childIds.length === 0) {
      const size = { w: Math.max(80, textWidth(node.key) + 24), h: LEAF_H, offsets }
      sizes.set(node.id, size)
      return size
    }
    let w = 0
    let h: number
    if (node.type === 'parallel') {
      let y = TITLE_H
      for (const id of node.childIds) {
        const child = measure(byId.get(id)!)
        offsets.set(id, { x: PAD, y })
        y += child.h + GAP_Y / 2
        w = Math.max(w, child.w)
      }
      h = y - GAP_Y / 2 + PAD
    } else {
      let x = PAD
      let tallest = 0
      for (const column of ranksOf(node)) {
        let y = TITLE_H
        let widest = 0
        for (const id of column) {
          const child = measure(byId.get(id)!)
          offsets.set(id, { x, y })
          y += child.h + GAP_Y
          widest = Math.max(widest, child.w)
        }
        tallest = Math.max(tallest, y - GAP_Y)
        x += widest + GAP_X
      }
      w = x - GAP_X - PAD
      h = tallest + PAD
    }
    const size = { w: Math.max(titleW, w + 2 * PAD), h, offsets }
    // regions of a parallel state share its width
    if (node.type === 'parallel') for (const id of node.childIds) sizes.get(id)!.w = size.w - 2 * PAD
    sizes.set(node.id, size)
    return size
  }

  const root = byId.get(graph.rootId)!
  measure(root)

  const boxes: Box[] = []
  const place = (node: GraphNode, x: number, y: number, depth: number) => {
    const size = sizes.get(node.id)!
    const parent = node.parentId ? byId.get(node.parentId) : undefined
    boxes.push({ id: node.id, label: node.key, type: node.type, x, y, w: size.w, h: size.h, depth, initial: parent?.initialId === node.id })
    for (const id of node.childIds) {
      const offset = size.offsets.get(id)!
      place(byId.get(id)!, x + offset.x, y + offset.y, depth + 1)
    }
  }
  place(root, 0, 0, 0)
  const boxById = new Map(boxes.map((box) => [box.id, box]))

  // one arrow per source and target, its events joined
  const merged = new Map<string, { sourceId: string; targetId: string; labels: string[] }>()
  for (const edge of graph.edges) {
    const label = edge.guard ? `${edge.event} [${edge.guard}]` : edge.event
    for (const targetId of edge.targetIds.length > 0 ? edge.targetIds : [edge.sourceId]) {
      const key = `${edge.sourceId}→${targetId}`
      const entry = merged.get(key) ?? { sourceId: edge.sourceId, targetId, labels: [] }
      if (!entry.labels.includes(label)) entry.labels.push(label)
      merged.set(key, entry)
    }
  }
  const arrows: Arrow[] = []
  for (const { sourceId, targetId, labels } of merged.values()) {
    const source = boxById.get(sourceId)
    const target = boxById.get(targetId)
    if (!source || !target) continue
    const label = labels.join(', ')
    if (sourceId === targetId) {
      arrows.push({ sourceId, targetId, label, x1: source.x + source.w, y1: source.y + 8, x2: source.x + source.w, y2: source.y + 22, loop: true })
      continue
    }
    if (isAncestor(byId, sourceId, targetId)) {
      // from the ancestor's title bar straight down to the target
      const x = target.x + target.w / 2
      arrows.push({ sourceId, targetId, label, x1: x, y1: source.y + TITLE_H - 4, x2: x, y2: target.y, loop: false })
      continue
    }
    const [x1, y1] = border(source, target.x + target.w / 2, target.y + target.h / 2)
    const [x2, y2] = border(target, source.x + source.w / 2, source.y + source.h / 2)
    arrows.push({ sourceId, targetId, label, x1, y1, x2, y2, loop: false })
  }
  const rootSize = sizes.get(root.id)!
  return { width: rootSize.w + 200, height: rootSize.h + 4, boxes, arrows }
}

function isAncestor(byId: Map<string, GraphNode>, ancestorId: string, id: string): boolean {
  let node = byId.get(id)
  while (node?.parentId) {
    if (node.parentId === ancestorId) return true
    node = byId.get(node.parentId)
  }
  return false
}

/** Where the line from the box's centre towards (tx, ty) leaves the box. */
export function border(box: Pick<Box, 'x' | 'y' | 'w' | 'h'>, tx: number, ty: number): [number, number] {
  const cx = box.x + box.w / 2
  const cy = box.y + box.h / 2
  const dx = tx - cx
  const dy = ty - cy
  if (dx === 0 && dy === 0) return [cx, cy]
  const scale = Math.min(dx === 0 ? Infinity : box.w / 2 / Math.abs(dx), dy === 0 ? Infinity : box.h / 2 / Math.abs(dy))
  return [cx + dx * scale, cy + dy * scale]
}
