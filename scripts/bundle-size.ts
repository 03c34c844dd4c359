/**
 * First-load JavaScript of each entry of the built console (`node --import tsx scripts/bundle-size.ts [dist]`):
 * the entry scripts and module preloads of dist/index.html, dist/login.html and dist/luna.html (the web terminal,
 * a build of its own: xterm is never in the console's first chunk), plus every chunk they import
 * statically (transitively). Dynamic `import()` chunks are lazy and not counted. Prints gzip sizes and fails
 * when an entry is over its budget.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { gzipSync } from 'node:zlib'

const BUDGETS_KB: Record<string, number> = { 'index.html': 257, 'login.html': 135, 'luna.html': 270 }
/** The stylesheet each page links (Griffel's rules, extracted at build time: scripts/griffel-extract.ts), gzip. */
const CSS_BUDGETS_KB: Record<string, number> = { 'index.html': 32, 'login.html': 12, 'luna.html': 20 }
/**
 * Files a list page's first visit asks for besides the first chunk (its page's chunks and the list chunk, as the
 * early script preloads them: the build's table in index.html). A list page loads list code only (docs/decisions/a-list-page-loads-list-code-only.md,
 * session 13); the asset lists also show the node tree and the category tabs.
 */
const LIST_FILES_BUDGET = 10
const LIST_FILES_BUDGETS: Record<string, number> = { '/console/users/users': 2 }
const TREE_LIST_FILES_BUDGET = 30
const TREE_LISTS = /^\/console\/assets\/(assets|hosts|databases|devices|clouds|webs|customs)$/

/** Each list page of the early table with the files it preloads (index.html's early script tag, `data-assets`). */
export function listPageFiles(html: string): Record<string, string[]> {
  const raw = /<script[^>]*\sdata-assets="([^"]*)"/.exec(html)?.[1]
  if (!raw) return {}
  const text = raw.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&')
  const packed = JSON.parse(text) as { files: string[]; pages: Record<string, number[]> }
  return Object.fromEntries(Object.entries(packed.pages).map(([path, ids]) => [path, ids.map((i) => packed.files[i]!)]))
}

export function listFilesBudget(path: string): number {
  return LIST_FILES_BUDGETS[path] ?? (TREE_LISTS.test(path) ? TREE_LIST_FILES_BUDGET : LIST_FILES_BUDGET)
}

/** Stylesheets an HTML page links. */
export function htmlStylesheets(html: string): string[] {
  return [...html.matchAll(/<link[^>]*rel="stylesheet"[^>]*href="([^"]+)"/g)].map((m) => m[1]!)
}

/** Script (module and classic, e.g. the early script) and modulepreload URLs of an HTML page (paths under /ui/). */
export function htmlEntries(html: string): string[] {
  const urls = new Set<string>()
  for (const m of html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)) urls.add(m[1]!)
  for (const m of html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)) urls.add(m[1]!)
  return [...urls]
}

/** Static imports of a built chunk: `import … from "./x.js"`, `import "./x.js"`, `export … from "./x.js"`. */
export function staticImports(code: string): string[] {
  const out = new Set<string>()
  const re = /(?:^|[;\n}])\s*(?:import|export)\s*(?:[\w*${}\s,]+?\s*from\s*)?["']([^"']+\.js)["']/g
  for (const m of code.matchAll(re)) out.add(m[1]!)
  return [...out]
}

export interface EntrySize {
  entry: string
  files: string[]
  raw: number
  gzip: number
}

export function measure(dist: string, page: string): EntrySize {
  const html = readFileSync(join(dist, page), 'utf8')
  const toFile = (url: string) => join(dist, url.replace(/^\/ui\//, '').replace(/^\//, ''))
  const seen = new Set<string>()
  const queue = htmlEntries(html).map(toFile)
  while (queue.length) {
    const file = queue.shift()!
    if (seen.has(file) || !existsSync(file)) continue
    seen.add(file)
    const code = readFileSync(file, 'utf8')
    for (const spec of staticImports(code)) if (spec.startsWith('.')) queue.push(resolve(dirname(file), spec))
  }
  let raw = 0
  let gzip = 0
  for (const file of seen) {
    const buf = readFileSync(file)
    raw += buf.length
    gzip += gzipSync(buf, { level: 9 }).length
  }
  return { entry: page, files: [...seen].map((f) => f.slice(resolve(dist).length + 1)).sort(), raw, gzip }
}

/**
 * Files a built chunk names for Vite's preload helper (`__vite__mapDeps`'s list: the JavaScript and CSS a dynamic
 * import waits for), as paths under the output folder.
 */
export function preloadLists(code: string): string[] {
  const out: string[] = []
  for (const m of code.matchAll(/m\.f=(\[[^\]]*\])/g)) {
    try {
      out.push(...(JSON.parse(m[1]!) as string[]))
    } catch {
      // not a literal list of names (a `renderBuiltUrl` expression): nothing to check
    }
  }
  return out
}

/**
 * Preload names that are not files of the build: the helper would ask for them on a lazy import, get a 404 and
 * fail that import (a stylesheet folded into another one by a plugin and left in the lists did exactly that).
 */
export function missingPreloads(dist: string): { named: number; missing: { chunk: string; file: string }[] } {
  const assets = join(dist, 'assets')
  const missing: { chunk: string; file: string }[] = []
  let named = 0
  if (!existsSync(assets)) return { named, missing }
  for (const name of readdirSync(assets)) {
    if (!name.endsWith('.js')) continue
    for (const file of preloadLists(readFileSync(join(assets, name), 'utf8'))) {
      named++
      if (!existsSync(join(dist, file))) missing.push({ chunk: `assets/${name}`, file })
    }
  }
  return { named, missing }
}

/**
 * Code that must never be in an entry's first load: the terminal (xterm, whose helper textarea's class name is in
 * its code) belongs to the web terminal's entry only; the console loads it lazily (the replay player).
 */
export const NOT_FIRST_LOAD: Record<string, { what: string; marker: string }[]> = {
  'index.html': [{ what: 'xterm', marker: 'xterm-helper-textarea' }],
  'login.html': [{ what: 'xterm', marker: 'xterm-helper-textarea' }],
}

/** What an entry's first-load files carry that they must not (NOT_FIRST_LOAD). */
export function forbiddenInFirstLoad(dist: string, size: EntrySize): string[] {
  return (NOT_FIRST_LOAD[size.entry] ?? [])
    .filter(({ marker }) => size.files.some((f) => readFileSync(join(dist, f), 'utf8').includes(marker)))
    .map(({ what }) => what)
}

/**
 * The JavaScript files of the build that carry xterm (its marker): one file, shared by the console's lazy terminal
 * views and the web terminal's first load (scripts/vite-plugins.ts, `xtermGroup`: both builds write the same bytes
 * under the same name). Two files mean a visitor of /luna/ downloads xterm again for the console's monitor.
 */
export function xtermFiles(dist: string): string[] {
  const assets = join(dist, 'assets')
  if (!existsSync(assets)) return []
  return readdirSync(assets).filter((n) => n.endsWith('.js') && readFileSync(join(assets, n), 'utf8').includes('xterm-helper-textarea')).map((n) => `assets/${n}`).sort()
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`

function main() {
  const dist = resolve(process.argv[2] ?? 'dist')
  let over = false
  for (const [page, budget] of Object.entries(BUDGETS_KB)) {
    if (!existsSync(join(dist, page))) {
      console.log(`${page}: not built`)
      over = true
      continue
    }
    const size = measure(dist, page)
    const ok = size.gzip <= budget * 1024
    over ||= !ok
    console.log(`${page}: ${kb(size.gzip)} gzip (${kb(size.raw)} raw) in ${size.files.length} files — budget ${budget} KB ${ok ? 'ok' : 'EXCEEDED'}`)
    for (const f of size.files) console.log(`  ${f}`)
    const forbidden = forbiddenInFirstLoad(dist, size)
    over ||= forbidden.length > 0
    if (forbidden.length) console.log(`${page}: its first load carries ${forbidden.join(', ')} — NOT ALLOWED`)
    const html = readFileSync(join(dist, page), 'utf8')
    const css = htmlStylesheets(html).map((url) => readFileSync(join(dist, url.replace(/^\/ui\//, '').replace(/^\//, ''))))
    const cssGzip = css.reduce((n, b) => n + gzipSync(b, { level: 9 }).length, 0)
    const cssOk = cssGzip <= CSS_BUDGETS_KB[page]! * 1024
    over ||= !cssOk
    console.log(`${page} stylesheets: ${kb(cssGzip)} gzip (${kb(css.reduce((n, b) => n + b.length, 0))} raw) in ${css.length} files — budget ${CSS_BUDGETS_KB[page]} KB ${cssOk ? 'ok' : 'EXCEEDED'}`)
  }
  if (existsSync(join(dist, 'index.html'))) {
    const pages = listPageFiles(readFileSync(join(dist, 'index.html'), 'utf8'))
    const overPages = Object.entries(pages).filter(([path, files]) => files.length > listFilesBudget(path))
    over ||= overPages.length > 0 || Object.keys(pages).length === 0
    const counts = Object.values(pages).map((f) => f.length)
    console.log(`list pages' first visit: ${Object.keys(pages).length} pages, ${Math.min(...counts)}–${Math.max(...counts)} files besides the first chunk — budget ${LIST_FILES_BUDGET} (users ${LIST_FILES_BUDGETS['/console/users/users']}, asset lists ${TREE_LIST_FILES_BUDGET}) ${overPages.length ? 'EXCEEDED' : 'ok'}`)
    for (const [path, files] of overPages) console.log(`  ${path}: ${files.length} files`)
  }
  const xterm = xtermFiles(dist)
  const lunaFiles = existsSync(join(dist, 'luna.html')) ? measure(dist, 'luna.html').files : []
  const xtermShared = xterm.length === 1 && lunaFiles.includes(xterm[0]!)
  over ||= !xtermShared
  console.log(`xterm: ${xterm.length} file(s) (${xterm.join(', ') || 'none'}) — one file, in the web terminal's first load and the console's lazy views: ${xtermShared ? 'ok' : 'NOT SO'}`)
  // No list found at all means the helper's format changed and the check would pass without checking anything.
  const { named, missing } = missingPreloads(dist)
  over ||= missing.length > 0 || named === 0
  console.log(`lazy imports' preload lists: ${named === 0 ? 'none found (has the preload helper changed?)' : missing.length ? `${missing.length} of ${named} names are not files of the build` : `all ${named} names are files of the build`}`)
  for (const { chunk, file } of missing.slice(0, 20)) console.log(`  ${chunk} names ${file}`)
  if (over) process.exitCode = 1
}

if (import.meta.url === `file://${process.argv[1]}`) main()
