/**
 * Issue 36 points 1–3: spreadsheets that took the server down. The rendered answer of render-to-json is bounded while
 * it is built (per cell and in total: shared-string amplification); every zip entry the XLSX reader inflates is
 * counted, whatever the central directory says (hidden entries); no temporary file is written, so none outlives
 * its request. The files are assembled here, byte by byte.
 */
import { createRequire } from 'node:module'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { UPLOAD_LIMITS } from '../engine/files.ts'
import { allResources } from '../engine/registry.ts'
import { allows } from '../engine/routes.ts'
import { createTestServer, dbKind, type TestClient, type TestServer } from '../testing.ts'
import { buildZip, xlsxParts as P } from '../testing/zip.ts'
import { makeWorld, USERS, type World } from './fixtures.ts'

const RENDER = `${USERS}render-to-json/`
// The `tmp` module ExcelJS writes its temporary files with: every call is counted.
const tmp = createRequire(createRequire(import.meta.url).resolve('exceljs'))('tmp') as { file: (...a: unknown[]) => unknown }
let tmpFiles = 0
const realFile = tmp.file
tmp.file = (...a: unknown[]) => {
  tmpFiles++
  return realFile(...a)
}

// Started while the file is collected: the class cases are generated from every resource that imports.
const t: TestServer = await createTestServer()

describe(`uploads that took the server down (${dbKind()})`, () => {
  let admin: TestClient
  let w: World
  beforeAll(async () => {
    w = await makeWorld(t)
    admin = await w.as('admin')
    admin.headers['x-jms-org'] = w.acme
  })
  afterAll(async () => {
    tmp.file = realFile
    await t.close()
  })
  const post = (body: Buffer) => admin.request({ method: 'POST', url: RENDER, payload: body, headers: { 'content-type': 'application/xlsx' } })
  const workbook = (strings: string[], rows: Array<Array<number | string>>) => buildZip([
    { name: '[Content_Types].xml', data: P.contentTypes }, { name: '_rels/.rels', data: P.rels },
    { name: 'xl/_rels/workbook.xml.rels', data: P.workbookRels }, { name: 'xl/workbook.xml', data: P.workbook },
    { name: 'xl/sharedStrings.xml', data: P.sharedStrings(strings) }, { name: 'xl/worksheets/sheet1.xml', data: P.sheet(rows) },
  ])

  it('a plain workbook of these parts is read (the builder is right)', async () => {
    const r = await post(workbook(['Name', 'Username', 'alice'], [[0, 1], [2, 'alice_u']]))
    expect(r.statusCode, r.body).toBe(200)
    expect(r.json().data).toEqual([{ name: 'alice', username: 'alice_u' }])
  })

  it('one long shared string referenced by every cell is refused while the answer is built (point 1)', async () => {
    const long = 'x'.repeat(1024 * 1024)
    const file = workbook(['Name', long], [[0], ...Array.from({ length: 20 }, () => [1])])
    expect(file.length).toBeLessThan(64 * 1024)
    const r = await post(file)
    expect(r.statusCode).toBe(400)
    expect(r.json()).toEqual({ code: 'file_too_large', error: `A cell is too long (at most ${UPLOAD_LIMITS.cellChars} characters)` })
    // Within the per-cell bound, the total is bounded.
    const cell = 'y'.repeat(UPLOAD_LIMITS.cellChars)
    const many = workbook(['Name', cell], [[0], ...Array.from({ length: Math.ceil(UPLOAD_LIMITS.chars / UPLOAD_LIMITS.cellChars) + 1 }, () => [1])])
    const r2 = await post(many)
    expect(r2.statusCode).toBe(400)
    expect(r2.json().error).toBe(`The file holds too much text (more than ${UPLOAD_LIMITS.chars} characters)`)
  })

  it('an entry missing from the central directory is never parsed (point 2)', async () => {
    const padding = Array.from({ length: 12 * 1024 }, (_, i) => `pad${i}`.padEnd(1024, 'p'))
    const file = buildZip([
      { name: '[Content_Types].xml', data: P.contentTypes }, { name: '_rels/.rels', data: P.rels },
      { name: 'xl/_rels/workbook.xml.rels', data: P.workbookRels }, { name: 'xl/workbook.xml', data: P.workbook },
      { name: 'xl/sharedStrings.xml', data: P.sharedStrings(['Name', 'listed']) },
      // 12 MiB of shared strings the directory does not list (the decompressed bound is 10 MiB)
      { name: 'xl/sharedStrings.xml', data: P.sharedStrings(['Name', 'HIDDEN', ...padding]), hidden: true },
      { name: 'xl/worksheets/sheet1.xml', data: P.sheet([[0], [1]]) },
    ])
    expect(file.length).toBeLessThan(1024 * 1024)
    const r = await post(file)
    expect(r.body).not.toContain('HIDDEN')
    expect(r.statusCode, r.body).toBe(200)
    expect(r.json().data).toEqual([{ name: 'listed' }])
  })

  it('no temporary file is written: a hidden worksheet before the workbook, a refused 60,000-row file (point 3)', async () => {
    tmpFiles = 0
    const hidden = buildZip([
      { name: '[Content_Types].xml', data: P.contentTypes }, { name: '_rels/.rels', data: P.rels },
      { name: 'xl/worksheets/sheet1.xml', data: P.sheet(Array.from({ length: 1000 }, () => ['h'])), hidden: true },
      { name: 'xl/_rels/workbook.xml.rels', data: P.workbookRels }, { name: 'xl/workbook.xml', data: P.workbook },
      { name: 'xl/sharedStrings.xml', data: P.sharedStrings(['Name']) },
      { name: 'xl/worksheets/sheet1.xml', data: P.sheet([[0], ['listed']]) },
    ])
    const r = await post(hidden)
    expect(r.statusCode, r.body).toBe(200)
    expect(r.json().data).toEqual([{ name: 'listed' }])
    // A worksheet first in the archive (ExcelJS kept such a sheet in a temporary file until the end of the read).
    const rows = buildZip([
      { name: '[Content_Types].xml', data: P.contentTypes }, { name: '_rels/.rels', data: P.rels },
      { name: 'xl/worksheets/sheet1.xml', data: P.sheet([['Name'], ...Array.from({ length: 60_000 }, () => ['a'])]) },
      { name: 'xl/_rels/workbook.xml.rels', data: P.workbookRels }, { name: 'xl/workbook.xml', data: P.workbook },
      { name: 'xl/sharedStrings.xml', data: P.sharedStrings(['Name']) },
    ])
    const r2 = await post(rows)
    expect(r2.statusCode).toBe(400)
    expect(r2.json().error).toBe(`The file has too many rows (at most ${UPLOAD_LIMITS.rows})`)
    expect(tmpFiles).toBe(0)
  })

  const importers = allResources().filter((d) => allows(d, 'import'))
  it('every resource that imports is in the generated cases', () => {
    expect(importers.length).toBeGreaterThan(20)
  })
  it.each(importers.map((d) => [d.path, d] as const))('%s render-to-json: the amplified cell and the hidden entry are refused (points 1, 2)', async (path) => {
    const amplified = workbook(['Name', 'x'.repeat(UPLOAD_LIMITS.cellChars + 1)], [[0], [1], [1]])
    const r = await admin.request({ method: 'POST', url: `${path}render-to-json/`, payload: amplified, headers: { 'content-type': 'application/xlsx' } })
    expect(r.statusCode, r.body.slice(0, 200)).toBe(400)
    const hidden = buildZip([
      { name: 'xl/_rels/workbook.xml.rels', data: P.workbookRels }, { name: 'xl/workbook.xml', data: P.workbook },
      { name: 'xl/sharedStrings.xml', data: P.sharedStrings(['Name', 'HIDDEN']), hidden: true },
      { name: 'xl/worksheets/sheet1.xml', data: P.sheet([[0], [1]]) },
    ])
    const r2 = await admin.request({ method: 'POST', url: `${path}render-to-json/`, payload: hidden, headers: { 'content-type': 'application/xlsx' } })
    expect(r2.statusCode).toBe(400)
    expect(r2.body).not.toContain('HIDDEN')
  })
})
