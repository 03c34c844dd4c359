/**
 * A small statechart layout for the inspector (no layout library: the charts are tens of states). Children of a
 * compound state go in columns by their distance from its initial state (following transitions between
 * siblings), stacked within a column; the regions of a parallel state are stacked under each other; a
 * compound box wraps its children under a title bar. Labels get room: a gap between columns is as wide as the
 * widest label crossing it, a column is widened by its loops' labels and its vertical arrows' labels (written to
 * its right); arrows between columns leave and enter boxes by their facing sides (an elbow when not level), twin
 * arrows run side by side with their labels on either side, an ancestor's event is a short arrow into its target
 * with the label above; a label that would still cover another label or a state moves a line up or down.
 * Pure: tested in layout.test.ts (no label covers another or a state, for every machine).
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
  /** the line's corners, ends included (a loop has none: it is a curve from (x1, y1) to (x2, y2)) */
  points: Point[]
  /** where the label is written (its baseline) and how it is anchored */
  lx: number
  ly: number
  anchor: 'start' | 'middle' | 'end'
}

export type Point = [number, number]

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
const GAP_Y = 26
/** room beside a label */
const LABEL_PAD = 10
/** a label's height above and below its baseline (11 px text) */
export const LABEL_ASCENT = 9
export const LABEL_DESCENT = 3

export const textWidth = (text: string) => Math.ceil(text.length * CHAR_W)

/** The rectangle a label covers (for the overlap tests). */
export function labelBox(arrow: Pick<Arrow, 'label' | 'lx' | 'ly' | 'anchor'>): { x: number; y: number; w: number; h: number } {
  const w = textWidth(arrow.label)
  const x = arrow.anchor === 'start' ? arrow.lx : arrow.anchor === 'end' ? arrow.lx - w : arrow.lx - w / 2
  return { x, y: arrow.ly - LABEL_ASCENT, w, h: LABEL_ASCENT + LABEL_DESCENT }
}

interface Size {
  w: number
  h: number
  /** child id → offset inside this node */
  offsets: Map<string, { x: number; y: number }>
  /** child id → x (inside this node) where the labels of its column's vertical arrows start */
  labelX: Map<string, number>
}

interface Merged {
  sourceId: string
  targetId: string
  label: string
}

/**
 * The layout of a machine's graph. Columns leave room for the labels they carry: the gap between two columns is
 * as wide as the widest label of the arrows between them, a column is widened by the labels of its loops and of
 * its vertical arrows (written to the right of the column); arrows between columns leave and enter boxes by
 * their facing sides, and two arrows between the same boxes in opposite directions run side by side with their
 * labels on either side.
 */
export function layoutChart(graph: MachineGraph): ChartLayout {
  const byId = new Map(graph.nodes.map((node) => [node.id, node]))
  const sizes = new Map<string, Size>()

  // one arrow per source and target, its events joined
  const mergedMap = new Map<string, Merged>()
  for (const edge of graph.edges) {
    const label = edge.guard ? `${edge.event} [${edge.guard}]` : edge.event
    for (const targetId of edge.targetIds.length > 0 ? edge.targetIds : [edge.sourceId]) {
      const key = `${edge.sourceId}→${targetId}`
      const entry = mergedMap.get(key)
      if (!entry) mergedMap.set(key, { sourceId: edge.sourceId, targetId, label })
      else if (!entry.label.split(', ').includes(label)) entry.label = `${entry.label}, ${label}`
    }
  }
  const merged = [...mergedMap.values()]
  const hasReverse = (arrow: Merged) => arrow.sourceId !== arrow.targetId && mergedMap.has(`${arrow.targetId}→${arrow.sourceId}`)

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
    const labelX = new Map<string, number>()
    const titleW = textWidth(node.key + (node.type === 'parallel' ? ' ∥' : '')) + 2 * PAD
    if (node.childIds.length === 0) {
      const size = { w: Math.max(80, textWidth(node.key) + 24), h: LEAF_H, offsets, labelX }
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
        w = Math.max(w, child.w + reserveRight(id))
      }
      h = y - GAP_Y / 2 + PAD
    } else {
      const columns = ranksOf(node)
      const columnOf = new Map(columns.flatMap((column, index) => column.map((id) => [id, index] as const)))
      // labels between two neighbouring columns (arrows between sibling boxes only)
      const gapLabel = new Map<number, number>()
      // labels written to the right of a column (its vertical arrows)
      const sideLabel = new Map<number, number>()
      for (const arrow of merged) {
        const a = columnOf.get(arrow.sourceId)
        const b = columnOf.get(arrow.targetId)
        if (a === undefined || b === undefined || arrow.sourceId === arrow.targetId) continue
        if (Math.abs(a - b) === 1) gapLabel.set(Math.min(a, b), Math.max(gapLabel.get(Math.min(a, b)) ?? 0, textWidth(arrow.label)))
        else if (a === b) sideLabel.set(a, Math.max(sideLabel.get(a) ?? 0, textWidth(arrow.label)))
      }
      let x = PAD
      let tallest = 0
      for (const [index, column] of columns.entries()) {
        let y = TITLE_H
        let widest = 0
        let reserved = 0
        for (const id of column) {
          const child = measure(byId.get(id)!)
          offsets.set(id, { x, y })
          y += child.h + GAP_Y
          widest = Math.max(widest, child.w)
          reserved = Math.max(reserved, child.w + reserveRight(id))
        }
        const side = sideLabel.get(index)
        if (side !== undefined) reserved = Math.max(reserved, widest + LABEL_PAD + side)
        for (const id of column) labelX.set(id, x + widest + LABEL_PAD)
        tallest = Math.max(tallest, y - GAP_Y)
        x += reserved + Math.max(GAP_X, (gapLabel.get(index) ?? 0) + 2 * LABEL_PAD)
      }
      w = x - Math.max(GAP_X, (gapLabel.get(columns.length - 1) ?? 0) + 2 * LABEL_PAD) - PAD
      h = tallest + PAD
    }
    const size = { w: Math.max(titleW, w + 2 * PAD), h, offsets, labelX }
    // regions of a parallel state share its width
    if (node.type === 'parallel') for (const id of node.childIds) sizes.get(id)!.w = size.w - 2 * PAD - reserveRight(id)
    sizes.set(node.id, size)
    return size
  }

  /** Room a box needs on its right for the label of its loop. */
  function reserveRight(id: string): number {
    const loop = mergedMap.get(`${id}→${id}`)
    return loop ? 30 + textWidth(loop.label) + LABEL_PAD : 0
  }

  const root = byId.get(graph.rootId)!
  measure(root)

  const boxes: Box[] = []
  const labelXOf = new Map<string, number>()
  const place = (node: GraphNode, x: number, y: number, depth: number) => {
    const size = sizes.get(node.id)!
    const parent = node.parentId ? byId.get(node.parentId) : undefined
    boxes.push({ id: node.id, label: node.key, type: node.type, x, y, w: size.w, h: size.h, depth, initial: parent?.initialId === node.id })
    for (const id of node.childIds) {
      const offset = size.offsets.get(id)!
      const side = size.labelX.get(id)
      if (side !== undefined) labelXOf.set(id, x + side)
      place(byId.get(id)!, x + offset.x, y + offset.y, depth + 1)
    }
  }
  place(root, 0, 0, 0)
  const boxById = new Map(boxes.map((box) => [box.id, box]))

  const arrows: Arrow[] = []
  for (const arrow of merged) {
    const { sourceId, targetId, label } = arrow
    const source = boxById.get(sourceId)
    const target = boxById.get(targetId)
    if (!source || !target) continue
    const base = { sourceId, targetId, label }
    if (sourceId === targetId) {
      // a loop on the right edge (a compound state's at its bottom, clear of arrows leaving by its side)
      const leaf = source.type === 'atomic' || source.type === 'final'
      const y1 = leaf ? source.y + 8 : source.y + source.h - 22
      const x = source.x + source.w
      arrows.push({ ...base, x1: x, y1, x2: x, y2: y1 + 14, points: [], loop: true, lx: x + 30, ly: y1 + 10, anchor: 'start' })
      continue
    }
    if (isAncestor(byId, sourceId, targetId)) {
      // an event of an ancestor (taken in any of its states): a short arrow into the target's top, near its right
      // end, the label above it (a line from the ancestor's title would cross its other states)
      const x = target.x + target.w - 14
      arrows.push({ ...base, x1: x, y1: target.y - 14, x2: x, y2: target.y, points: [[x, target.y - 14], [x, target.y]], loop: false, lx: x + 4, ly: target.y - 4, anchor: 'start' })
      continue
    }
    const twin = hasReverse(arrow)
    // a pair runs side by side: the one going right (or down) first
    const forward = source.x < target.x || (source.x === target.x && source.y < target.y)
    const shift = twin ? (forward ? -4 : 4) : 0
    const sameColumn = byId.get(sourceId)?.parentId === byId.get(targetId)?.parentId && source.x === target.x
    if (source.x + source.w <= target.x || target.x + target.w <= source.x) {
      // facing sides; level when the boxes overlap vertically
      const rightwards = source.x + source.w <= target.x
      const x1 = rightwards ? source.x + source.w : source.x
      const x2 = rightwards ? target.x : target.x + target.w
      const top = Math.max(source.y, target.y)
      const bottom = Math.min(source.y + source.h, target.y + target.h)
      const level = bottom - top >= 20
      const y1 = level ? (Math.min(top + 30, bottom) + top) / 2 + shift : source.y + Math.min(source.h, 30) / 2 + shift
      const y2 = level ? y1 : target.y + Math.min(target.h, 30) / 2 + shift
      // not level: an elbow through the middle of the gap, so the label can sit level beside the box on the right
      const xm = (x1 + x2) / 2 + shift
      const points: Point[] = level ? [[x1, y1], [x2, y2]] : [[x1, y1], [xm, y1], [xm, y2], [x2, y2]]
      const yRight = rightwards ? y2 : y1
      const xRight = rightwards ? x2 : x1
      const ly = forward ? yRight - 4 : yRight + LABEL_ASCENT + 3
      arrows.push({ ...base, x1, y1, x2, y2, points, loop: false, lx: xRight - 6, ly, anchor: 'end' })
      continue
    }
    if (sameColumn) {
      // a vertical arrow inside a column: the label to the right of the column
      const down = source.y < target.y
      const x = Math.min(source.x + source.w / 2, target.x + target.w / 2) + shift * 2
      const y1 = down ? source.y + source.h : source.y
      const y2 = down ? target.y : target.y + target.h
      const mid = (y1 + y2) / 2
      const ly = twin ? (forward ? mid - 1 : mid + LABEL_ASCENT + 2) : mid + 4
      arrows.push({ ...base, x1: x, y1, x2: x, y2, points: [[x, y1], [x, y2]], loop: false, lx: labelXOf.get(sourceId) ?? x + 6, ly, anchor: 'start' })
      continue
    }
    const [x1, y1] = border(source, target.x + target.w / 2, target.y + target.h / 2)
    const [x2, y2] = border(target, source.x + source.w / 2, source.y + source.h / 2)
    arrows.push({ ...base, x1, y1, x2, y2, points: [[x1, y1], [x2, y2]], loop: false, lx: (x1 + x2) / 2 + 4, ly: (y1 + y2) / 2 - 4, anchor: 'start' })
  }
  nudgeLabels(arrows, boxes)
  const rootSize = sizes.get(root.id)!
  const right = Math.max(rootSize.w, ...arrows.map((arrow) => { const box = labelBox(arrow); return box.x + box.w }))
  const bottom = Math.max(rootSize.h, ...arrows.map((arrow) => arrow.ly + LABEL_DESCENT))
  return { width: Math.ceil(right) + 4, height: Math.ceil(bottom) + 4, boxes, arrows }
}

const overlaps = (a: Rect, b: Rect) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h

type Rect = { x: number; y: number; w: number; h: number }

/** A label that would cover an earlier label or a state moves up or down a line or two, where it is free. */
function nudgeLabels(arrows: Arrow[], boxes: readonly Box[]): void {
  const leaves = boxes.filter((box) => box.type === 'atomic' || box.type === 'final')
  const placed: Rect[] = []
  const line = LABEL_ASCENT + LABEL_DESCENT + 1
  for (const arrow of arrows) {
    const free = (dy: number) => {
      const box = labelBox({ ...arrow, ly: arrow.ly + dy })
      return !placed.some((other) => overlaps(box, other)) && !leaves.some((leaf) => overlaps(box, leaf))
    }
    const dy = [0, -line, line, -2 * line, 2 * line, -3 * line, 3 * line].find(free) ?? 0
    arrow.ly += dy
    placed.push(labelBox(arrow))
  }
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
