import { dirname } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cycles, importGraph, importsOf } from './import-cycles.ts'

describe('import cycles of the console (issue 29: the manifest, its pages and the router were one circle of 53 files)', () => {
  it('reads static, type, re-export and lazy imports, and not those in comments', () => {
    const code = [
      "import { a } from './a.ts'",
      "import type { B } from '../b.ts'",
      "export { c } from './c.ts'",
      "import './d.css'",
      "const e = () => import('./e.tsx').then((m) => m.E)",
      "import {\n  f,\n  g,\n} from './fg.ts'",
      "import { h } from 'react'",
      '// import { x } from "./x.ts"',
      "/* import('./y.ts') */",
    ].join('\n')
    expect(importsOf(code)).toEqual(['./a.ts', '../b.ts', './c.ts', './d.css', './e.tsx', './fg.ts'])
  })

  it('finds a circle, lazy or not, and nothing in a tree', () => {
    expect(cycles(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]]))).toEqual([['a', 'b', 'c']])
    expect(cycles(new Map([['a', ['b', 'c']], ['b', ['c']], ['c', []]]))).toEqual([])
    expect(cycles(new Map([['a', ['a']]]))).toEqual([['a']])
  })

  it('has no circle that leaves its folder (a component and its lazily loaded part may import each other)', () => {
    const graph = importGraph(process.cwd(), ['src', 'machines'])
    expect(graph.size).toBeGreaterThan(300)
    // the manifest lazily imports every page: a page must not reach it back
    expect(graph.get('src/views/manifest.ts')).toContain('src/views/console/users/pages.ts')
    const wide = cycles(graph).filter((c) => new Set(c.map((m) => dirname(m))).size > 1)
    expect(wide).toEqual([])
  })
})
