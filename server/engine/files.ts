/**
 * Files: export and import templates (contract §4.7) and `render-to-json` (contract §4.8).
 */
import ExcelJS from 'exceljs'
import type { FastifyReply, FastifyRequest } from 'fastify'
import Papa from 'papaparse'
import { ApiError } from '../http/errors.ts'
import { tr } from '../i18n.ts'
import { labelOf } from './fields.ts'
import { fromCell, toCell } from './kinds.ts'
import type { Query } from './query.ts'
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

/** Writes the file answer for already serialized objects. */
export async function sendFile(reply: FastifyReply, req: FastifyRequest, def: ResourceDef, columns: FieldDef[], objects: Row[], format: 'csv' | 'xlsx'): Promise<FastifyReply> {
  const ctx = req.ctx
  const header = columns.map((f) => headerOf(f, ctx))
  const rows = objects.map((o) => columns.map((f) => (f.write_only ? '' : toCell(f, o[f.name]))))
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

async function readGrid(body: Buffer, contentType: string): Promise<string[][]> {
  const isZip = body[0] === 0x50 && body[1] === 0x4b
  if (isZip || /xlsx|spreadsheet|octet-stream/.test(contentType)) {
    const wb = new ExcelJS.Workbook()
    await wb.xlsx.load(body as unknown as ExcelJS.Buffer)
    const ws = wb.worksheets[0]
    if (!ws) return []
    const grid: string[][] = []
    ws.eachRow({ includeEmpty: false }, (row) => {
      const cells: string[] = []
      for (let i = 1; i <= row.cellCount; i++) cells.push(cellText(row.getCell(i).value).trim())
      grid.push(cells)
    })
    return grid
  }
  const parsed = Papa.parse<string[]>(decodeText(body), { skipEmptyLines: 'greedy' })
  if (parsed.errors.some((e) => e.type === 'Quotes')) throw new Error(parsed.errors[0]!.message)
  return parsed.data.map((r) => r.map((c) => (c ?? '').trim()))
}

export interface RenderResult { title: [string, string][]; data: Row[] }

/** Parses an uploaded CSV/XLSX into row objects keyed by field name (contract §4.8). */
export async function renderToJson(body: unknown, contentType: string, fields: FieldDef[], ctx: Ctx): Promise<RenderResult> {
  if (!Buffer.isBuffer(body) || body.length === 0) throw new ApiError(400, { error: tr(ctx.lang, 'Request file format may be wrong') })
  let grid: string[][]
  try {
    grid = await readGrid(body, contentType)
  } catch (e) {
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
