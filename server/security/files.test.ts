/**
 * Uploads and exports (issue 16 points 3 and 9): the import permission is checked before the body is read;
 * uploads are read with bounded decompressed size, rows, cells and time; a bad file is a translated 400;
 * exports neutralise formulas and the import round trip stays exact.
 */
import { crc32, deflateRawSync } from 'node:zlib'
import ExcelJS from 'exceljs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { neutralizeFormula, restoreFormula, UPLOAD_LIMITS } from '../engine/files.ts'
import { createTestServer, dbKind, type TestClient, type TestServer } from '../testing.ts'
import { makeWorld, USERS, type World } from './fixtures.ts'

const RENDER = `${USERS}render-to-json/`

/** A zip archive of stored/deflated entries, written by hand so a test can make any shape (a bomb). */
function zip(entries: { name: string; data: Buffer }[]): Buffer {
  const locals: Buffer[] = []
  const centrals: Buffer[] = []
  let offset = 0
  for (const e of entries) {
    const body = deflateRawSync(e.data, { level: 9 })
    const name = Buffer.from(e.name)
    const head = Buffer.alloc(30)
    head.writeUInt32LE(0x04034b50, 0); head.writeUInt16LE(20, 4); head.writeUInt16LE(8, 8)
    head.writeUInt32LE(crc32(e.data), 14); head.writeUInt32LE(body.length, 18); head.writeUInt32LE(e.data.length, 22)
    head.writeUInt16LE(name.length, 26)
    const cen = Buffer.alloc(46)
    cen.writeUInt32LE(0x02014b50, 0); cen.writeUInt16LE(20, 4); cen.writeUInt16LE(20, 6); cen.writeUInt16LE(8, 10)
    cen.writeUInt32LE(crc32(e.data), 16); cen.writeUInt32LE(body.length, 20); cen.writeUInt32LE(e.data.length, 24)
    cen.writeUInt16LE(name.length, 28); cen.writeUInt32LE(offset, 42)
    locals.push(head, name, body)
    centrals.push(cen, name)
    offset += head.length + name.length + body.length
  }
  const dir = Buffer.concat(centrals)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0); end.writeUInt16LE(entries.length, 8); end.writeUInt16LE(entries.length, 10)
  end.writeUInt32LE(dir.length, 12); end.writeUInt32LE(offset, 16)
  return Buffer.concat([...locals, dir, end])
}

describe(`uploads and exports (${dbKind()})`, () => {
  let t: TestServer
  let w: World
  let admin: TestClient

  beforeAll(async () => {
    t = await createTestServer()
    w = await makeWorld(t)
    admin = await w.as('admin')
    admin.headers['x-jms-org'] = w.acme
  })
  afterAll(async () => { await t.close() })

  const post = (c: TestClient, body: Buffer | string, type = 'text/csv') =>
    c.request({ method: 'POST', url: RENDER, payload: body, headers: { 'content-type': type } })

  it('a user without the import permission is refused before the file is read (point 3)', async () => {
    const member = await w.as('member')
    const bomb = zip([{ name: 'xl/worksheets/sheet1.xml', data: Buffer.alloc(50 * 1024 * 1024, 0x20) }])
    for (const [body, type] of [[bomb, 'application/xlsx'], ['not,a\n"broken', 'text/csv']] as const) {
      const r = await post(member, body, type)
      expect(r.statusCode).toBe(403)
    }
  })

  it('a zip bomb is refused after the decompressed limit, with a translated 400 (point 3)', async () => {
    const bomb = zip([{ name: '[Content_Types].xml', data: Buffer.from('<Types/>') }, { name: 'xl/worksheets/sheet1.xml', data: Buffer.alloc(64 * 1024 * 1024, 0x20) }])
    expect(bomb.length).toBeLessThan(1024 * 1024)
    const r = await post(admin, bomb, 'application/xlsx')
    expect(r.statusCode).toBe(400)
    expect(r.json()).toEqual({ error: `The file is too large once decompressed (more than ${UPLOAD_LIMITS.unzipped} bytes)`, code: 'file_too_large' })
    admin.headers['accept-language'] = 'zh'
    expect((await post(admin, bomb, 'application/xlsx')).json().error).toBe(`文件解压后过大（超过 ${UPLOAD_LIMITS.unzipped} 字节）`)
    admin.headers['accept-language'] = 'en'
  })

  it('rows and cells are bounded in CSV and XLSX (point 3)', async () => {
    const rows = 'name\n' + 'a\n'.repeat(UPLOAD_LIMITS.rows + 1)
    expect((await post(admin, rows)).json().error).toBe(`The file has too many rows (at most ${UPLOAD_LIMITS.rows})`)
    const cells = 'name' + ','.repeat(UPLOAD_LIMITS.cells + 1) + '\n'
    expect((await post(admin, cells)).json().error).toBe(`The file has too many cells (at most ${UPLOAD_LIMITS.cells})`)
    const wb = new ExcelJS.Workbook()
    const ws = wb.addWorksheet('s')
    ws.addRow(['Name'])
    for (let i = 0; i <= UPLOAD_LIMITS.rows; i++) ws.addRow(['a'])
    const xlsx = Buffer.from(await wb.xlsx.writeBuffer())
    const r = await post(admin, xlsx, 'application/xlsx')
    expect(r.statusCode).toBe(400)
    expect(r.json().error).toBe(`The file has too many rows (at most ${UPLOAD_LIMITS.rows})`)
  })

  it('a malformed or truncated file is a 400, never a 5xx', async () => {
    const good = zip([{ name: 'a.xml', data: Buffer.from('<x/>') }])
    for (const body of [Buffer.from('PK\u0003\u0004garbage'), good.subarray(0, good.length - 10), Buffer.from([0xff, 0xfe, 0x00, 0x41])]) {
      const r = await post(admin, body, 'application/xlsx')
      expect(r.statusCode).toBe(400)
    }
  })

  it('neutralising formulas reads back exactly', () => {
    for (const v of ['=1+2', '+1', '-', '-5', '-1.5e3', '@SUM(A1)', "'=x", "''+y", 'plain', "'quoted'", '\t=x', '-x', '=', '']) {
      expect(restoreFormula(neutralizeFormula(v)), JSON.stringify(v)).toBe(v)
    }
    expect(neutralizeFormula('=HYPERLINK("http://evil")')).toBe('\'=HYPERLINK("http://evil")')
    expect(neutralizeFormula('-5')).toBe('-5')
  })

  it('CSV and XLSX exports write formula-like cells as text and import them back unchanged (point 9)', async () => {
    const values = { name: '=HYPERLINK("http://evil.example","x")', comment: '@SUM(1+1)*cmd|" /C calc"!A0', wechat: '+1-2' }
    const created = await admin.post(USERS, { ...values, username: 'formula', email: 'formula@example.com' })
    expect(created.statusCode).toBe(201)
    const csv = await admin.get(`${USERS}?format=csv&username=formula`)
    expect(csv.statusCode).toBe(200)
    const line = csv.body.split('\r\n')[1]!
    expect(line).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")"`)
    expect(line).toContain("'@SUM(1+1)")
    expect(line).toContain("'+1-2")
    const xlsx = await admin.request({ method: 'GET', url: `${USERS}?format=xlsx&username=formula` })
    const wb = new ExcelJS.Workbook()
    await wb.xlsx.load(xlsx.rawPayload as unknown as ExcelJS.Buffer)
    const cells = (wb.worksheets[0]!.getRow(2).values as unknown[]).map(String)
    expect(cells).toContain('\'=HYPERLINK("http://evil.example","x")')
    expect(cells.some((c) => c.startsWith('='))).toBe(false)
    for (const [body, type] of [[Buffer.from(csv.body), 'text/csv'], [xlsx.rawPayload, 'application/xlsx']] as const) {
      const r = await post(admin, body, type)
      expect(r.statusCode).toBe(200)
      expect(r.json().data[0]).toMatchObject(values)
    }
  })
})
