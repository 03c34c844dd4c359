/**
 * Files: export and import templates (contract §4.7) and `render-to-json` (contract §4.8).
 */
import { Readable } from 'node:stream'
import { crc32, inflateRawSync } from 'node:zlib'
import ExcelJS from 'exceljs'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import Papa from 'papaparse'
import type { DB } from '../db/connection.ts'
import { ApiError } from '../http/errors.ts'
import { tr } from '../i18n.ts'
import { labelOf } from './fields.ts'
import { fromCell, toCell } from './kinds.ts'
import type { Query } from './query.ts'
import { resourceByName } from './registry.ts'
import { qstr } from './query.ts'
import type { Ctx, FieldDef, ResourceDef, Row } from './types.ts'

export type Template = 'export' | 'import' | 'update'

export function templateOf(q: Query): Template {
  const t = qstr(q, 'template')
  return t === 'import' || t === 'update' ? t : 'export'
}

/** Columns of a file: export = every readable field; import = writable fields but id; update = writable + id. */
export function fileColumns(def: ResourceDef, fields: FieldDef[], template: Template): FieldDef[] {
  const unexport = new Set(def.unexport ?? [])
  return fields.filter((f) => {
    if (unexport.has(f.name) || f.name === 'org_id' || f.name === 'org_name') return false
    if (template === 'export') return !f.write_only
    if (f.name === 'id') return template === 'update'
    return !f.read_only
  })
}

const headerOf = (f: FieldDef, ctx: Ctx) => `${f.required && !f.read_only ? '*' : ''}${tr(ctx.lang, labelOf(f))}`

/**
 * Formula injection: spreadsheet tools run a cell starting with `=`, `+`, `-`, `@` (or a tab / carriage return
 * before one) as a formula. Such cells are written with a leading apostrophe, the tools' own "this is text"
 * mark (OWASP CSV injection); plain numbers (`-5`, `+1.5`) and the null mark `-` stay as they are. The import
 * removes exactly one apostrophe from a cell that starts with apostrophes followed by one of those characters,
 * so every exported value reads back unchanged (a value already starting with `'=` exports as `''=`).
 */
const FORMULA_START = /^'*[=+\-@\t\r]/
const PLAIN = /^([+-]?\d+(\.\d+)?([eE][+-]?\d+)?|-)$/

export function neutralizeFormula(text: string): string {
  return FORMULA_START.test(text) && !PLAIN.test(text) ? `'${text}` : text
}

export function restoreFormula(text: string): string {
  return /^'+[=+\-@\t\r]/.test(text) ? text.slice(1) : text
}

function csvCell(text: string): string {
  return /[",\r\n]/.test(text) || /^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

const pad = (n: number) => String(n).padStart(2, '0')

function stamp(tz: string): string {
  const parts = Object.fromEntries(new Intl.DateTimeFormat('en-US', {
    timeZone: tz, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
  }).formatToParts(new Date()).map((p) => [p.type, p.value]))
  return `${parts.year}-${parts.month}-${parts.day}_${pad(Number(parts.hour) % 24)}-${parts.minute}-${parts.second}`
}

const refId = (v: unknown) => (v && typeof v === 'object' ? (v as { id?: unknown }).id : v)

/**
 * Relations with a natural key (Relation.naturalKey) are written as those keys, which the import reads back:
 * per such column, a function from the serialized value to the key (or the keys of a list).
 */
async function naturalKeys(db: DB, columns: FieldDef[], objects: Row[]): Promise<Map<string, (v: unknown) => unknown>> {
  const out = new Map<string, (v: unknown) => unknown>()
  for (const f of columns) {
    const key = f.relation?.naturalKey
    if (!key || f.write_only) continue
    const ids = [...new Set(objects.flatMap((o) => (Array.isArray(o[f.name]) ? (o[f.name] as unknown[]) : [o[f.name]]).map(refId)).filter((v) => v !== null && v !== undefined).map(String))]
    const target = resourceByName(f.relation!.resource)
    const found = new Map(ids.length ? (await sql<{ id: string | number; k: string }>`select t.id, ${sql.ref(`t.${key}`)} as k from ${sql.table(target.table)} as t
      where t.id::text = any(${ids}::text[])`.execute(db)).rows.map((r) => [String(r.id), r.k]) : [])
    const one = (v: unknown) => found.get(String(refId(v))) ?? v
    out.set(f.name, (v) => (Array.isArray(v) ? v.map(one) : v === null || v === undefined ? v : one(v)))
  }
  return out
}

/** Writes the file answer for already serialized objects. */
export async function sendFile(reply: FastifyReply, req: FastifyRequest, def: ResourceDef, columns: FieldDef[], objects: Row[], format: 'csv' | 'xlsx'): Promise<FastifyReply> {
  const ctx = req.ctx
  const header = columns.map((f) => headerOf(f, ctx))
  const keyed = await naturalKeys(ctx.db, columns, objects)
  const rows = objects.map((o) => columns.map((f) => (f.write_only ? '' : neutralizeFormula(toCell(f, keyed.get(f.name)?.(o[f.name]) ?? o[f.name])))))
  const filename = `${def.model}_${stamp(ctx.tz)}.${format}`
  reply.header('Content-Disposition', `attachment; filename="${filename}"`)
  if (format === 'csv') {
    const text = '\ufeff' + [header, ...rows].map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n'
    return reply.type('text/csv; charset=utf-8').send(text)
  }
  const wb = new ExcelJS.Workbook()
  const ws = wb.addWorksheet(def.model)
  for (const r of [header, ...rows]) {
    const added = ws.addRow(r)
    added.eachCell((cell) => { cell.numFmt = '@' })
  }
  const buf = Buffer.from(await wb.xlsx.writeBuffer())
  return reply.type('application/xlsx').send(buf)
}

// ------------------------------------------------------------------------------------------- import

function decodeText(buf: Buffer): string {
  let bytes = buf
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3)
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    return new TextDecoder('gb18030').decode(bytes)
  }
}

function cellText(v: ExcelJS.CellValue): string {
  if (v === null || v === undefined) return ''
  if (v instanceof Date) return v.toISOString()
  if (typeof v === 'object') {
    if ('richText' in v) return v.richText.map((r) => r.text).join('')
    if ('text' in v) return String(v.text)
    if ('result' in v) return v.result === undefined || v.result === null ? '' : String(v.result)
    if ('error' in v) return ''
  }
  return String(v)
}

/**
 * Bounds of one upload's parsing: decompressed bytes, rows, cells, time, and the text of the answer — per cell and
 * in total, counted while the rows are read (shared strings let a small file name one long string in every cell).
 */
export const UPLOAD_LIMITS = { unzipped: 10 * 1024 * 1024, rows: 50_000, cells: 1_000_000, ms: 15_000, cellChars: 65_536, chars: 16 * 1024 * 1024 }

/** A file beyond the bounds: a translated 400 (the message names the bound). */
export class UploadTooLarge extends Error {
  constructor(readonly text: string, readonly vars: Record<string, string | number>) { super(text) }
}

/**
 * The entries of a zip archive as its central directory lists them, each inflated with a bounded output (node's
 * `maxOutputLength`, the remaining budget of `limit` bytes over all entries), so a zip bomb is refused after at
 * most `limit` bytes of output rather than filling the memory; refuses malformed or ZIP64 archives and unknown
 * compression methods.
 */
export function zipEntries(buf: Buffer, limit: number): Array<{ name: string; data: Buffer }> {
  let eocd = -1
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 0xffff); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) { eocd = i; break }
  }
  if (eocd < 0) throw new Error('not a zip archive')
  const count = buf.readUInt16LE(eocd + 10)
  let p = buf.readUInt32LE(eocd + 16)
  let total = 0
  const out: Array<{ name: string; data: Buffer }> = []
  for (let n = 0; n < count; n++) {
    if (p + 46 > buf.length || buf.readUInt32LE(p) !== 0x02014b50) throw new Error('bad zip directory')
    const method = buf.readUInt16LE(p + 10)
    const csize = buf.readUInt32LE(p + 20)
    const nameLength = buf.readUInt16LE(p + 28)
    const name = buf.subarray(p + 46, p + 46 + nameLength).toString('utf8')
    const local = buf.readUInt32LE(p + 42)
    if (local + 30 > buf.length || buf.readUInt32LE(local) !== 0x04034b50) throw new Error('bad zip entry')
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28)
    if (start + csize > buf.length) throw new Error('truncated zip entry')
    const raw = buf.subarray(start, start + csize)
    let data: Buffer
    if (method === 0) data = raw
    else if (method === 8) {
      try {
        data = inflateRawSync(raw, { maxOutputLength: limit - total + 1 })
      } catch (e) {
        if ((e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' || e instanceof RangeError) tooLarge(limit)
        else throw e
      }
    } else throw new Error(`unsupported zip compression method ${method}`)
    total += data.length
    if (total > limit) tooLarge(limit)
    if (!name.endsWith('/')) out.push({ name, data })
    p += 46 + nameLength + buf.readUInt16LE(p + 30) + buf.readUInt16LE(p + 32)
  }
  return out
}

function tooLarge(limit: number): never {
  throw new UploadTooLarge('The file is too large once decompressed (more than {n} bytes)', { n: limit })
}

/** The parts ExcelJS's streaming reader needs before a worksheet, in the order it needs them. */
const WORKBOOK_PARTS = ['[Content_Types].xml', '_rels/.rels', 'xl/_rels/workbook.xml.rels', 'xl/workbook.xml', 'xl/sharedStrings.xml', 'xl/styles.xml']
const EMPTY_SST = Buffer.from('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="0" uniqueCount="0"/>')

/**
 * The XLSX the reader is given (issue 36 points 2 and 3): a new archive of exactly the entries counted above —
 * the central directory's, each inflated within the budget — stored (not compressed), with the workbook's parts
 * before the worksheets (an empty shared-string table when there is none). ExcelJS's streaming reader walks local
 * entries, so an entry hidden from the directory of the upload never reaches it; and it keeps a worksheet met
 * before those parts in a temporary file, which it now never needs.
 */
export function boundedXlsx(buf: Buffer, limit: number): Buffer {
  const entries = zipEntries(buf, limit)
  const seen = new Set<string>()
  const unique = entries.filter((e) => !seen.has(e.name) && !!seen.add(e.name))
  if (!seen.has('xl/_rels/workbook.xml.rels') || !seen.has('xl/workbook.xml')) throw new Error('not an XLSX workbook (no xl/workbook.xml and its relations)')
  if (!seen.has('xl/sharedStrings.xml')) unique.push({ name: 'xl/sharedStrings.xml', data: EMPTY_SST })
  const rank = (name: string) => (WORKBOOK_PARTS.includes(name) ? WORKBOOK_PARTS.indexOf(name) : WORKBOOK_PARTS.length)
  unique.sort((a, b) => rank(a.name) - rank(b.name))
  return storedZip(unique)
}

/** A zip archive of stored entries. */
function storedZip(entries: Array<{ name: string; data: Buffer }>): Buffer {
  const parts: Buffer[] = []
  const dir: Buffer[] = []
  let offset = 0
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8')
    const crc = crc32(e.data)
    const head = Buffer.alloc(30)
    head.writeUInt32LE(0x04034b50, 0); head.writeUInt16LE(10, 4); head.writeUInt16LE(0x0800, 6)
    head.writeUInt32LE(crc, 14); head.writeUInt32LE(e.data.length, 18); head.writeUInt32LE(e.data.length, 22); head.writeUInt16LE(name.length, 26)
    const cen = Buffer.alloc(46)
    cen.writeUInt32LE(0x02014b50, 0); cen.writeUInt16LE(10, 4); cen.writeUInt16LE(10, 6); cen.writeUInt16LE(0x0800, 8)
    cen.writeUInt32LE(crc, 16); cen.writeUInt32LE(e.data.length, 20); cen.writeUInt32LE(e.data.length, 24); cen.writeUInt16LE(name.length, 28)
    cen.writeUInt32LE(offset, 42)
    parts.push(head, name, e.data)
    dir.push(cen, name)
    offset += 30 + name.length + e.data.length
  }
  const central = Buffer.concat(dir)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0); end.writeUInt16LE(entries.length, 8); end.writeUInt16LE(entries.length, 10)
  end.writeUInt32LE(central.length, 12); end.writeUInt32LE(offset, 16)
  return Buffer.concat([...parts, central, end])
}

/** Counts rows, cells and the answer's text against the limits and watches the clock. */
class Budget {
  private rows = 0
  private cells = 0
  private chars = 0
  private readonly deadline = Date.now() + UPLOAD_LIMITS.ms
  /** One cell of the answer: its length, then the running total. */
  text(cell: string): string {
    if (cell.length > UPLOAD_LIMITS.cellChars) throw new UploadTooLarge('A cell is too long (at most {n} characters)', { n: UPLOAD_LIMITS.cellChars })
    this.chars += cell.length
    if (this.chars > UPLOAD_LIMITS.chars) throw new UploadTooLarge('The file holds too much text (more than {n} characters)', { n: UPLOAD_LIMITS.chars })
    return cell
  }
  row(cells: number): void {
    this.rows += 1
    this.cells += cells
    if (this.rows > UPLOAD_LIMITS.rows) throw new UploadTooLarge('The file has too many rows (at most {n})', { n: UPLOAD_LIMITS.rows })
    if (this.cells > UPLOAD_LIMITS.cells) throw new UploadTooLarge('The file has too many cells (at most {n})', { n: UPLOAD_LIMITS.cells })
    if (Date.now() > this.deadline) throw new UploadTooLarge('The file took too long to read (more than {n} seconds)', { n: UPLOAD_LIMITS.ms / 1000 })
  }
}

/**
 * The first worksheet, read with ExcelJS's streaming reader (rows are visited, not kept as a workbook). The streaming
 * reader can fail on a worksheet met before the workbook part ("reading 'sheets'", exceljs issue 962, seen once in
 * a full test run); the whole-workbook reader then reads it (the size was checked above).
 */
async function readXlsx(upload: Buffer, budget: Budget): Promise<string[][]> {
  const body = boundedXlsx(upload, UPLOAD_LIMITS.unzipped)
  try {
    return await readXlsxStreaming(body, budget)
  } catch (e) {
    if (!(e instanceof TypeError) || !/'sheets'/.test(e.message)) throw e
    const wb = new ExcelJS.Workbook()
    await wb.xlsx.load(body as unknown as ArrayBuffer)
    const grid: string[][] = []
    wb.worksheets[0]?.eachRow({ includeEmpty: false }, (row) => grid.push(rowCells(row, budget)))
    return grid
  }
}

/** A worksheet row's cells as text (ExcelJS's `values` start at index 1), counted against the budget. */
function rowCells(row: ExcelJS.Row, budget: Budget): string[] {
  const values = Array.isArray(row.values) ? row.values : []
  budget.row(values.length)
  const cells: string[] = []
  for (let i = 1; i < values.length; i++) cells.push(budget.text(restoreFormula(cellText(values[i] as ExcelJS.CellValue).trim())))
  return cells
}

async function readXlsxStreaming(body: Buffer, budget: Budget): Promise<string[][]> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([body]), {
    sharedStrings: 'cache', hyperlinks: 'ignore', styles: 'cache', worksheets: 'emit', entries: 'ignore',
  })
  const grid: string[][] = []
  for await (const ws of reader) {
    for await (const row of ws) grid.push(rowCells(row as ExcelJS.Row, budget))
    break
  }
  return grid
}

function readCsv(body: Buffer, budget: Budget): string[][] {
  const grid: string[][] = []
  let failure: unknown
  let quoteError: string | undefined
  Papa.parse<string[]>(decodeText(body), {
    skipEmptyLines: 'greedy',
    step: (result, parser) => {
      try {
        if (result.errors.some((e) => e.type === 'Quotes')) quoteError ??= result.errors[0]!.message
        budget.row(result.data.length)
        grid.push(result.data.map((c) => budget.text(restoreFormula((c ?? '').trim()))))
      } catch (e) {
        failure = e
        parser.abort()
      }
    },
  })
  if (failure) throw failure
  if (quoteError) throw new Error(quoteError)
  return grid
}

async function readGrid(body: Buffer, contentType: string): Promise<string[][]> {
  const isZip = body[0] === 0x50 && body[1] === 0x4b
  const budget = new Budget()
  if (isZip || /xlsx|spreadsheet|octet-stream/.test(contentType)) return readXlsx(body, budget)
  return readCsv(body, budget)
}

export interface RenderResult { title: [string, string][]; data: Row[] }

/** Parses an uploaded CSV/XLSX into row objects keyed by field name (contract §4.8). */
export async function renderToJson(body: unknown, contentType: string, fields: FieldDef[], ctx: Ctx): Promise<RenderResult> {
  if (!Buffer.isBuffer(body) || body.length === 0) throw new ApiError(400, { error: tr(ctx.lang, 'Request file format may be wrong') })
  let grid: string[][]
  try {
    grid = await readGrid(body, contentType)
  } catch (e) {
    if (e instanceof UploadTooLarge) throw new ApiError(400, { error: tr(ctx.lang, e.text, e.vars), code: 'file_too_large' })
    throw new ApiError(400, { detail: tr(ctx.lang, 'Parse file error: {error}', { error: (e as Error).message }), code: 'parse_error' })
  }
  const rows = grid.filter((r) => r.some((c) => c !== ''))
  const header = rows.shift() ?? []
  const lookup = new Map<string, FieldDef>()
  for (const f of fields) {
    if (f.read_only && f.name !== 'id') continue
    for (const key of [f.name, labelOf(f), tr(ctx.lang, labelOf(f)), tr('zh', labelOf(f)), tr('ja', labelOf(f))]) lookup.set(key.toLowerCase(), f)
  }
  const matched: Array<{ index: number; text: string; field: FieldDef }> = []
  header.forEach((text, index) => {
    const f = lookup.get(text.replace(/^\*+/, '').trim().toLowerCase())
    if (f && !matched.some((m) => m.field === f)) matched.push({ index, text, field: f })
  })
  const data = rows.map((r) => {
    const obj: Row = {}
    for (const m of matched) {
      const cell = r[m.index] ?? ''
      if (cell === '' && m.field.type !== 'boolean') continue
      obj[m.field.name] = fromCell(m.field, cell)
    }
    return obj
  }).filter((o) => Object.keys(o).length > 0)
  if (!matched.length || !data.length) throw new ApiError(400, { error: tr(ctx.lang, 'Request file format may be wrong') })
  return { title: matched.map((m) => [m.text, m.field.name]), data }
}
