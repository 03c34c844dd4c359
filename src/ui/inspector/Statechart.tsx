/** The SVG drawing of one machine definition (layout.ts), its active states highlighted. */
import { useMemo, type ReactElement } from 'react'
import { t } from '@lingui/core/macro'
import { tokens } from '@fluentui/react-components'
import type { MachineGraph } from '../../../machines/graph.ts'
import { layoutChart } from './layout.ts'

export function Statechart({ graph, active, current }: { graph: MachineGraph; active: ReadonlySet<string>; current: string }): ReactElement {
  const chart = useMemo(() => layoutChart(graph), [graph])
  const markerId = `arrow-${graph.id}`
  return (
    <svg
      role="img"
      aria-label={t`Statechart of ${graph.id}; current state: ${current}`}
      width={chart.width}
      height={chart.height}
      viewBox={`-2 -2 ${chart.width + 4} ${chart.height + 4}`}
      style={{ fontFamily: tokens.fontFamilyBase, fontSize: 11, display: 'block' }}
    >
      <defs>
        <marker id={markerId} viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
          <path d="M 0 0 L 10 5 L 0 10 z" fill={tokens.colorNeutralForeground3} />
        </marker>
      </defs>
      {chart.boxes.map((box) => {
        const on = active.has(box.id)
        const leaf = box.type === 'atomic' || box.type === 'final'
        return (
          <g key={box.id} data-state-id={box.id} data-active={on ? 'true' : 'false'}>
            <rect
              x={box.x}
              y={box.y}
              width={box.w}
              height={box.h}
              rx={leaf ? 14 : 6}
              fill={on ? (leaf ? tokens.colorBrandBackground : tokens.colorBrandBackground2) : tokens.colorNeutralBackground1}
              stroke={on ? tokens.colorBrandStroke1 : tokens.colorNeutralStroke1}
              strokeWidth={on ? 2 : 1}
            />
            {box.type === 'final' && (
              <rect x={box.x + 3} y={box.y + 3} width={box.w - 6} height={box.h - 6} rx={11} fill="none" stroke={on ? tokens.colorNeutralForegroundOnBrand : tokens.colorNeutralStroke1} />
            )}
            <text
              x={leaf ? box.x + box.w / 2 : box.x + 8}
              y={leaf ? box.y + box.h / 2 + 4 : box.y + 15}
              textAnchor={leaf ? 'middle' : 'start'}
              fontWeight={leaf ? 400 : 600}
              fill={on && leaf ? tokens.colorNeutralForegroundOnBrand : tokens.colorNeutralForeground1}
            >
              {box.initial ? '→ ' : ''}
              {box.label}
              {box.type === 'parallel' ? ' ∥' : ''}
            </text>
          </g>
        )
      })}
      {chart.arrows.map((arrow) => {
        const d = arrow.loop
          ? `M ${arrow.x1} ${arrow.y1} C ${arrow.x1 + 28} ${arrow.y1 - 10}, ${arrow.x2 + 28} ${arrow.y2 + 10}, ${arrow.x2} ${arrow.y2}`
          : arrow.points.map(([x, y], index) => `${index === 0 ? 'M' : 'L'} ${x} ${y}`).join(' ')
        return (
          <g key={`${arrow.sourceId}→${arrow.targetId}`}>
            <path d={d} fill="none" stroke={tokens.colorNeutralForeground3} markerEnd={`url(#${markerId})`} />
            <text x={arrow.lx} y={arrow.ly} textAnchor={arrow.anchor} fill={tokens.colorNeutralForeground2} paintOrder="stroke" stroke={tokens.colorNeutralBackground1} strokeWidth={3}>
              {arrow.label}
            </text>
          </g>
        )
      })}
    </svg>
  )
}
