/**
 * Import cycles among the console's modules (src/ and machines/): every relative import counts — static, `import
 * type`, `export … from` and lazy `import()` — since each one ties the modules' reading and their folders together
 * (issue 29: the manifest, its pages and the router were one circle of 53 files). `npx tsx scripts/import-cycles.ts`
 * prints the cycles; scripts/import-cycles.test.ts fails when one appears.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

const SPECIFIER = /(?:^|[\s;])(?:import|export)\s[^'"`;]*?\sfrom\s*['"]([^'"]+)['"]|(?:^|[\s;])import\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) sourceFiles(path, out)
    else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(path)
  }
  return out
}

/** The relative imports of a module's text (comments are removed first). */
export function importsOf(code: string): string[] {
  const text = code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '')
  const out: string[] = []
  for (const m of text.matchAll(SPECIFIER)) {
    const spec = m[1] ?? m[2] ?? m[3]
    if (spec?.startsWith('.')) out.push(spec)
  }
  return out
}

/** Module → modules it imports, for every module under `roots` (paths relative to `base`). */
export function importGraph(base: string, roots: readonly string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>()
  for (const root of roots) {
    for (const file of sourceFiles(join(base, root))) {
      const targets = importsOf(readFileSync(file, 'utf8'))
        .map((spec) => resolve(dirname(file), spec.replace(/\?.*$/, '')))
        .filter((path) => existsSync(path) && /\.tsx?$/.test(path))
        .map((path) => relative(base, path))
      graph.set(relative(base, file), [...new Set(targets)])
    }
  }
  return graph
}

/** Strongly connected components of more than one module (or a module importing itself): Tarjan's algorithm. */
export function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let index = 0
  const stack: string[] = []
  const onStack = new Set<string>()
  const indexOf = new Map<string, number>()
  const low = new Map<string, number>()
  const found: string[][] = []
  const visit = (v: string) => {
    indexOf.set(v, index)
    low.set(v, index)
    index++
    stack.push(v)
    onStack.add(v)
    for (const w of graph.get(v) ?? []) {
      if (!indexOf.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, indexOf.get(w)!))
    }
    if (low.get(v) === indexOf.get(v)) {
      const component: string[] = []
      let w: string
      do {
        w = stack.pop()!
        onStack.delete(w)
        component.push(w)
      } while (w !== v)
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort())
    }
  }
  for (const v of graph.keys()) if (!indexOf.has(v)) visit(v)
  return found
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const found = cycles(importGraph(process.cwd(), ['src', 'machines']))
  for (const c of found) console.log(`${c.length} modules:\n  ${c.join('\n  ')}`)
  if (!found.length) console.log('no import cycles')
  process.exitCode = found.length ? 1 : 0
}
