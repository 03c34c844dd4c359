/** Test-only: the files of a zip archive (read with the password, or without one), for tests that receive archives. */
import { crc32, deflateRawSync } from 'node:zlib'
import { Uint8ArrayReader, Uint8ArrayWriter, ZipReader, type FileEntry } from '@zip.js/zip.js'

export async function openZip(data: Uint8Array, password?: string): Promise<Array<{ name: string; data: Uint8Array }>> {
  const reader = new ZipReader(new Uint8ArrayReader(data), password === undefined ? {} : { password })
  try {
    const files = (await reader.getEntries()).filter((e): e is FileEntry => !e.directory)
    return await Promise.all(files.map(async (e) => ({ name: e.filename, data: await e.getData(new Uint8ArrayWriter()) })))
  } finally {
    await reader.close()
  }
}

/**
 * A zip archive written by hand so a test can make any shape: deflated entries (`stored` for method 0), and
 * `hidden` entries written as local entries but left out of the central directory (a reader that walks local
 * entries, as ExcelJS's streaming reader does, still meets them).
 */
export function buildZip(entries: Array<{ name: string; data: Buffer; hidden?: boolean; stored?: boolean }>): Buffer {
  const locals: Buffer[] = []
  const centrals: Buffer[] = []
  let offset = 0
  let listed = 0
  for (const e of entries) {
    const method = e.stored ? 0 : 8
    const body = e.stored ? e.data : deflateRawSync(e.data, { level: 9 })
    const name = Buffer.from(e.name)
    const head = Buffer.alloc(30)
    head.writeUInt32LE(0x04034b50, 0); head.writeUInt16LE(20, 4); head.writeUInt16LE(method, 8)
    head.writeUInt32LE(crc32(e.data), 14); head.writeUInt32LE(body.length, 18); head.writeUInt32LE(e.data.length, 22)
    head.writeUInt16LE(name.length, 26)
    if (!e.hidden) {
      const cen = Buffer.alloc(46)
      cen.writeUInt32LE(0x02014b50, 0); cen.writeUInt16LE(20, 4); cen.writeUInt16LE(20, 6); cen.writeUInt16LE(method, 10)
      cen.writeUInt32LE(crc32(e.data), 16); cen.writeUInt32LE(body.length, 20); cen.writeUInt32LE(e.data.length, 24)
      cen.writeUInt16LE(name.length, 28); cen.writeUInt32LE(offset, 42)
      centrals.push(cen, name)
      listed++
    }
    locals.push(head, name, body)
    offset += head.length + name.length + body.length
  }
  const dir = Buffer.concat(centrals)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0); end.writeUInt16LE(listed, 8); end.writeUInt16LE(listed, 10)
  end.writeUInt32LE(dir.length, 12); end.writeUInt32LE(offset, 16)
  return Buffer.concat([...locals, dir, end])
}

const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;')

/** The parts of a minimal XLSX workbook with one sheet, for tests that assemble malicious files. */
export const xlsxParts = {
  contentTypes: Buffer.from(`${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>`),
  rels: Buffer.from(`${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`),
  workbookRels: Buffer.from(`${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>`),
  workbook: Buffer.from(`${XML}<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="s" sheetId="1" r:id="rId1"/></sheets></workbook>`),
  sharedStrings: (strings: string[]) => Buffer.from(`${XML}<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${strings.length}" uniqueCount="${strings.length}">${strings.map((s) => `<si><t>${esc(s)}</t></si>`).join('')}</sst>`),
  /** Rows of cells: a number is a shared-string index (`t="s"`), a string an inline string. */
  sheet: (rows: Array<Array<number | string>>) => {
    const col = (i: number) => String.fromCharCode(65 + i)
    const cells = rows.map((r, y) => `<row r="${y + 1}">${r.map((v, x) => (typeof v === 'number'
      ? `<c r="${col(x)}${y + 1}" t="s"><v>${v}</v></c>`
      : `<c r="${col(x)}${y + 1}" t="inlineStr"><is><t>${esc(v)}</t></is></c>`)).join('')}</row>`).join('')
    return Buffer.from(`${XML}<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${cells}</sheetData></worksheet>`)
  },
}
