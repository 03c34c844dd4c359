// @vitest-environment node
import { describe, expect, it } from 'vitest'
import { machineGraph } from '../../../machines/graph.ts'
import * as machines from '../../../machines/index.ts'
import { appMachine, confirmMachine, exportFlowMachine } from '../../../machines/index.ts'
import { border, labelBox, layoutChart } from './layout.ts'
import { activeStateIds, describeValue } from './store.ts'

describe('inspector layout', () => {
  it.each([['confirm', confirmMachine], ['exportFlow', exportFlowMachine], ['app', appMachine]] as const)('draws every state and transition of %s', (_, machine) => {
    const graph = machineGraph(machine)
    const chart = layoutChart(graph)
    expect(chart.boxes.map((box) => box.id).sort()).toEqual(graph.nodes.map((node) => node.id).sort())
    const byId = new Map(chart.boxes.map((box) => [box.id, box]))
    for (const box of chart.boxes) {
      const parent = graph.nodes.find((node) => node.id === box.id)?.parentId
      if (!parent) continue
      const outer = byId.get(parent)!
      // children sit inside their parent
      expect(box.x).toBeGreaterThanOrEqual(outer.x)
      expect(box.y).toBeGreaterThanOrEqual(outer.y)
      expect(box.x + box.w).toBeLessThanOrEqual(outer.x + outer.w + 0.5)
      expect(box.y + box.h).toBeLessThanOrEqual(outer.y + outer.h + 0.5)
    }
    // one arrow per source and target of the definition's transitions
    const pairs = new Set(graph.edges.flatMap((edge) => (edge.targetIds.length ? edge.targetIds : [edge.sourceId]).map((t) => `${edge.sourceId}→${t}`)))
    expect(chart.arrows.map((arrow) => `${arrow.sourceId}→${arrow.targetId}`).sort()).toEqual([...pairs].sort())
  })

  it('siblings of a compound state do not overlap', () => {
    const chart = layoutChart(machineGraph(exportFlowMachine))
    const leaves = chart.boxes.filter((box) => box.depth === 1)
    for (const a of leaves) for (const b of leaves) {
      if (a === b) continue
      const apart = a.x + a.w <= b.x || b.x + b.w <= a.x || a.y + a.h <= b.y || b.y + b.h <= a.y
      expect(apart, `${a.id} / ${b.id}`).toBe(true)
    }
  })

  const overlap = (a: { x: number; y: number; w: number; h: number }, b: { x: number; y: number; w: number; h: number }) =>
    a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h
  // every machine of machines/ (exported as `<name>Machine`)
  const readable = Object.keys(machines).filter((name) => name.endsWith('Machine')) as Array<keyof typeof machines>

  it.each(readable)('no transition label of %s covers another label or a state', (name) => {
    const chart = layoutChart(machineGraph(machines[name] as Parameters<typeof machineGraph>[0]))
    const labels = chart.arrows.map((arrow) => ({ arrow: `${arrow.sourceId}→${arrow.targetId}`, box: labelBox(arrow) }))
    const leaves = chart.boxes.filter((box) => box.type === 'atomic' || box.type === 'final')
    for (const [index, a] of labels.entries()) {
      for (const b of labels.slice(index + 1)) expect(overlap(a.box, b.box), `${a.arrow} / ${b.arrow}`).toBe(false)
      for (const leaf of leaves) expect(overlap(a.box, leaf), `${a.arrow} on ${leaf.id}`).toBe(false)
      // inside the drawing
      expect(a.box.x).toBeGreaterThanOrEqual(0)
      expect(a.box.x + a.box.w).toBeLessThanOrEqual(chart.width)
    }
  })

  it('clips a line to the box border', () => {
    expect(border({ x: 0, y: 0, w: 100, h: 20 }, 200, 10)).toEqual([100, 10])
    expect(border({ x: 0, y: 0, w: 100, h: 20 }, 50, -100)).toEqual([50, 0])
  })

  it('names the active states', () => {
    const graph = machineGraph(confirmMachine)
    const value = { verifying: { form: 'asking', sms: 'ready' } }
    expect(describeValue(value)).toBe('verifying.form.asking, verifying.sms.ready')
    expect([...activeStateIds({ value }, graph)].sort()).toEqual(
      ['confirm', 'confirm.verifying', 'confirm.verifying.form', 'confirm.verifying.form.asking', 'confirm.verifying.sms', 'confirm.verifying.sms.ready'],
    )
  })
})

describe('inspector display', () => {
  it('never shows a typed secret', async () => {
    const { toDisplayJson } = await import('./store.ts')
    const text = toDisplayJson({ type: 'SUBMIT', code: 'Admin-Passw0rd!', nested: { password: 'x', secret: 'y' }, other: 'kept' })
    expect(text).not.toMatch(/Admin-Passw0rd|"x"|"y"/)
    expect(text).toContain('kept')
  })
})
