/**
 * Settings → Applets over HTTP with real zip packages (built here with zip.js, as an applet author zips a
 * folder): upload, list, detail with the icon, `?update=1`, delete; every refused package (not a zip, a missing
 * file, a bad manifest, an icon that is no PNG, too large, a duplicate) answers 400 with a translated reason and
 * writes nothing; the permission is checked before the upload is read.
 */
import { Uint8ArrayWriter, TextReader, Uint8ArrayReader, ZipWriter, configure } from '@zip.js/zip.js'
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { ROLE_IDS } from '../../rbac/catalog.ts'
import { dbKind } from '../../testing.ts'
import { useTestServer } from '../../use-test-server.ts'
import { APPLET_LIMITS } from './applets.ts'
import { multipart } from './test-support.ts'

configure({ useWebWorkers: false })

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex')
const MANIFEST = `name: notepad
display_name: "{{ 'Notepad App' | trans }}"
version: 0.2
author: Test Team
type: general
protocols:
  - rdp
tags:
  - editor
comment: A text editor
i18n:
  Notepad App:
    en: Notepad App
    zh: 记事本
`

async function zipOf(files: Record<string, string | Buffer>): Promise<Buffer> {
  const zip = new ZipWriter(new Uint8ArrayWriter())
  for (const [name, body] of Object.entries(files)) {
    await zip.add(name, typeof body === 'string' ? new TextReader(body) : new Uint8ArrayReader(new Uint8Array(body)))
  }
  return Buffer.from(await zip.close())
}

const pkg = (over: Record<string, string | Buffer | null> = {}, dir = 'notepad/') => {
  const files: Record<string, string | Buffer | null> = { 'manifest.yml': MANIFEST, 'icon.png': PNG, 'setup.yml': 'type: manual\n', 'README.md': '# Notepad\n', 'main.py': 'print(1)\n', ...over }
  return zipOf(Object.fromEntries(Object.entries(files).filter(([, v]) => v !== null).map(([k, v]) => [dir + k, v!])))
}

describe(`Settings → Applets (${dbKind()})`, () => {
  const s = useTestServer()
  const url = '/api/v1/terminal/applets/'
  const upload = (data: Buffer, query = '', lang = 'en') => {
    const m = multipart('file', 'notepad.zip', data)
    return s.admin.request({ method: 'POST', url: `${url}upload/${query}`, payload: m.payload, headers: { 'content-type': m.contentType, 'accept-language': lang } })
  }
  const count = async () => Number((await sql<{ n: string }>`select count(*) as n from applets`.execute(s.t.database.db)).rows[0]!.n)

  it('refuses bad packages with a translated reason and writes nothing', async () => {
    const cases: [Buffer | Promise<Buffer>, string][] = [
      [Buffer.from('not a zip at all'), 'Invalid zip file'],
      [pkg({ 'icon.png': null }), 'Applet pkg not valid, Missing file icon.png'],
      [pkg({ 'setup.yml': null }), 'Applet pkg not valid, Missing file setup.yml'],
      [pkg({ 'icon.png': 'GIF89a' }), 'icon.png is not a PNG image.'],
      [pkg({ 'manifest.yml': 'name: [unclosed' }), 'manifest.yml is not valid YAML'],
      [pkg({ 'manifest.yml': '- a\n- b\n' }), 'manifest.yml must be a mapping of keys to values.'],
      [pkg({ 'manifest.yml': 'version: 1\n' }), 'Missing name in manifest.yml'],
      [pkg({ 'manifest.yml': 'name: ../evil\n' }), 'The name in manifest.yml may hold only'],
      [pkg({ 'manifest.yml': 'name: x\ntype: desktop\n' }), 'The field type in manifest.yml is not valid'],
      [pkg({ 'icon.png': Buffer.concat([PNG, Buffer.alloc(APPLET_LIMITS.icon)]) }), 'The file icon.png in the package is larger than 256 KB.'],
      [Buffer.alloc(APPLET_LIMITS.upload + 1), 'The file is larger than 5 MB.'],
    ]
    for (const [data, reason] of cases) {
      const r = await upload(await data)
      expect(r.statusCode, reason).toBe(400)
      expect(r.json().error).toContain(reason)
    }
    const zh = await upload(await pkg({ 'icon.png': null }), '', 'zh-hans')
    expect(zh.json()).toEqual({ error: '应用包无效，缺少文件 icon.png' })
    const none = await s.admin.request({ method: 'POST', url: `${url}upload/`, json: {} })
    expect(none.statusCode).toBe(400)
    expect(none.json().error).toBe('Upload a zip file in the field "file".')
    expect(await count()).toBe(0)
    expect((await s.admin.get('/api/v1/audits/operate-logs/?resource_type=Applet')).json()).toHaveLength(0)
  })

  it('uploads, lists, shows, replaces only with ?update, switches off and deletes an applet', async () => {
    const r = await upload(await pkg())
    expect(r.statusCode).toBe(201)
    const applet = r.json()
    expect(applet).toMatchObject({
      name: 'notepad', display_name: 'Notepad App', version: '0.2', author: 'Test Team', is_active: true, builtin: false,
      type: { value: 'general', label: 'General' }, protocols: ['rdp'], tags: ['editor'], comment: 'A text editor', readme: '# Notepad\n',
    })
    expect(applet.icon).toBe(`data:image/png;base64,${PNG.toString('base64')}`)
    const list = (await s.admin.get(`${url}?search=note`)).json()
    expect(list.map((x: { name: string }) => x.name)).toEqual(['notepad'])
    expect((await s.admin.get(`${url}${applet.id}/`)).json()).toMatchObject({ id: applet.id, name: 'notepad' })

    // The same name again: refused unless ?update=1, which replaces the manifest values.
    const again = await upload(await pkg({ 'manifest.yml': MANIFEST.replace('version: 0.2', 'version: "0.3"') }))
    expect(again.statusCode).toBe(400)
    expect(again.json()).toEqual({ error: 'Applet already exists: notepad' })
    const updated = await upload(await pkg({ 'manifest.yml': MANIFEST.replace('version: 0.2', 'version: "0.3"') }, ''), '?update=1')
    expect(updated.statusCode).toBe(201)
    expect(updated.json()).toMatchObject({ id: applet.id, version: '0.3' })
    expect(await count()).toBe(1)

    expect((await s.admin.patch(`${url}${applet.id}/`, { is_active: false })).json()).toMatchObject({ is_active: false })
    expect((await s.admin.post(url, { name: 'x' })).statusCode).toBe(400)
    expect((await s.admin.delete(`${url}${applet.id}/`)).statusCode).toBe(204)
    expect(await count()).toBe(0)
  })

  it('checks the permission before reading the upload', async () => {
    await s.t.createUser({ username: 'applet-auditor', systemRoles: [ROLE_IDS.SystemAuditor], orgRoles: [] })
    const user = await s.t.as('applet-auditor')
    const m = multipart('file', 'notepad.zip', await pkg())
    const r = await user.request({ method: 'POST', url: `${url}upload/`, payload: m.payload, headers: { 'content-type': m.contentType } })
    expect(r.statusCode).toBe(403)
    expect(await count()).toBe(0)
  })
})
