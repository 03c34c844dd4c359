import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { buildNeeded, inputsDigest, writeStamp } from './build-if-changed.ts'

describe('npm start builds only when the inputs changed', () => {
  let root = ''
  const write = (rel: string, text: string) => {
    mkdirSync(join(root, rel, '..'), { recursive: true })
    writeFileSync(join(root, rel), text)
  }
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'build-stamp-'))
    write('src/main.tsx', 'export {}')
    write('locales/en.po', 'msgid "a"')
    write('index.html', '<html>')
    write('package-lock.json', '{}')
  })
  afterEach(() => rmSync(root, { recursive: true, force: true }))
  const build = () => {
    write('dist/index.html', '<html>built')
    write('dist/login.html', '<html>login')
    writeStamp(root)
  }

  it('builds when there is no build or no record of it, and not again when nothing changed', () => {
    expect(buildNeeded(root)).toBe('no build in dist/')
    write('dist/index.html', 'x')
    write('dist/login.html', 'y')
    expect(buildNeeded(root)).toBe('no record of what dist/ was built from')
    build()
    expect(buildNeeded(root)).toBeUndefined()
  })

  it('builds again when a source, a catalogue or the lock file changed, or a file was added', () => {
    for (const [file, text] of <Array<[string, string]>>[['src/main.tsx', 'export const a = 1'], ['locales/en.po', 'msgid "b"'], ['package-lock.json', '{"a":1}'], ['src/new.ts', '']]) {
      build()
      write(file, text)
      expect(buildNeeded(root), file).toBe('the sources changed since the last build')
    }
  })

  it('ignores tests and compiled catalogues, and a touched file with the same content', () => {
    build()
    write('src/main.test.ts', 'it()')
    write('locales/en.ts', 'export const messages = {}')
    utimesSync(join(root, 'src/main.tsx'), new Date(2030, 0, 1), new Date(2030, 0, 1))
    expect(buildNeeded(root)).toBeUndefined()
  })

  it('builds again when dist/ was replaced by another build', () => {
    build()
    write('dist/index.html', '<html>built from other sources')
    expect(buildNeeded(root)).toBe('dist/ changed since the recorded build')
    expect(inputsDigest(root)).toMatch(/^[0-9a-f]{64}$/)
  })
})
