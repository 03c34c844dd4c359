import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { forbiddenInFirstLoad, measure, missingPreloads, preloadLists, xtermFiles } from './bundle-size.ts'

// The head of a chunk as Vite writes it when the chunk's dynamic imports wait for other files.
const chunk = (files: string[]) =>
  `const __vite__mapDeps=(i,m=__vite__mapDeps,d=(m.f||(m.f=${JSON.stringify(files)})))=>i.map(i=>d[i]);\nexport const x=1;`

describe('preload lists of the built chunks', () => {
  let dist = ''
  afterEach(() => rmSync(dist, { recursive: true, force: true }))

  it('reads the names a chunk lists for its lazy imports', () => {
    expect(preloadLists(chunk(['assets/a-1.js', 'assets/a-1.css']))).toEqual(['assets/a-1.js', 'assets/a-1.css'])
    expect(preloadLists('export const y=2;')).toEqual([])
  })

  it('names what the build does not have, and counts what it checked', () => {
    dist = mkdtempSync(join(tmpdir(), 'bundle-size-'))
    mkdirSync(join(dist, 'assets'))
    writeFileSync(join(dist, 'assets', 'a-1.js'), 'export const a=1;')
    writeFileSync(join(dist, 'assets', 'main-2.js'), chunk(['assets/a-1.js', 'assets/main-2.css']))
    expect(missingPreloads(dist)).toEqual({ named: 2, missing: [{ chunk: 'assets/main-2.js', file: 'assets/main-2.css' }] })
    writeFileSync(join(dist, 'assets', 'main-2.css'), 'a{}')
    expect(missingPreloads(dist)).toEqual({ named: 2, missing: [] })
  })
})

describe('code an entry must not load first', () => {
  let dist = ''
  afterEach(() => rmSync(dist, { recursive: true, force: true }))

  it("names xterm when the console's first load carries it, and allows it in the web terminal's", () => {
    dist = mkdtempSync(join(tmpdir(), 'bundle-size-'))
    mkdirSync(join(dist, 'assets'))
    writeFileSync(join(dist, 'assets', 'term-1.js'), 'export const c="xterm-helper-textarea";')
    writeFileSync(join(dist, 'assets', 'main-1.js'), 'import "./term-1.js";export const m=1;')
    writeFileSync(join(dist, 'assets', 'lazy-1.js'), 'export const l=()=>import("./term-1.js");')
    writeFileSync(join(dist, 'index.html'), '<script type="module" src="/ui/assets/main-1.js"></script>')
    writeFileSync(join(dist, 'luna.html'), '<script type="module" src="/ui/assets/main-1.js"></script>')
    writeFileSync(join(dist, 'login.html'), '<script type="module" src="/ui/assets/lazy-1.js"></script>')
    expect(forbiddenInFirstLoad(dist, measure(dist, 'index.html'))).toEqual(['xterm'])
    expect(forbiddenInFirstLoad(dist, measure(dist, 'luna.html'))).toEqual([])
    expect(forbiddenInFirstLoad(dist, measure(dist, 'login.html'))).toEqual([])
  })
})

describe("xterm's file", () => {
  let dist = ''
  afterEach(() => rmSync(dist, { recursive: true, force: true }))

  it('names every chunk that carries xterm (the console and the web terminal should share one)', () => {
    dist = mkdtempSync(join(tmpdir(), 'bundle-size-'))
    mkdirSync(join(dist, 'assets'))
    writeFileSync(join(dist, 'assets', 'xterm-1.js'), 'export const c="xterm-helper-textarea";')
    writeFileSync(join(dist, 'assets', 'main-1.js'), 'export const m=()=>import("./xterm-1.js");')
    expect(xtermFiles(dist)).toEqual(['assets/xterm-1.js'])
    writeFileSync(join(dist, 'assets', 'xterm-2.js'), 'import{n as e}from"./rt.js";export const c="xterm-helper-textarea";')
    expect(xtermFiles(dist)).toEqual(['assets/xterm-1.js', 'assets/xterm-2.js'])
  })
})
