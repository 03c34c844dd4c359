/**
 * OPTIONS by construction (server/engine/options.ts): every list and settings endpoint the server registers — found
 * in Fastify's route list, not in a hand-kept list or the declared resources only — answers OPTIONS with the
 * fields its GET answers. A list is a GET answering an array or a `{count, results}` page; a settings endpoint is a
 * GET of a settings URL (each category of the settings API, the xpack interface, the preferences).
 */
import { describe, expect, it } from 'vitest'
import { CATEGORIES } from '../settings/declarations.ts'
import { PREFERENCES } from '../profile/preferences.ts'
import { conformanceServer } from './harness.ts'

const { t, admin } = await conformanceServer()

const rowsOf = (body: unknown): Record<string, unknown>[] | undefined => {
  if (Array.isArray(body)) return body.filter((r) => r && typeof r === 'object' && !Array.isArray(r))
  if (body && typeof body === 'object' && Array.isArray((body as { results?: unknown }).results) && 'count' in (body as object)) {
    return (body as { results: Record<string, unknown>[] }).results
  }
  return undefined
}

/** Settings URLs: every category of the settings API and of the preferences, and the xpack interface. */
const SETTINGS_URLS = [
  ...[...CATEGORIES.keys()].map((c) => `/api/v1/settings/setting/?category=${c}`),
  ...Object.keys(PREFERENCES).map((c) => `/api/v1/users/preference/?category=${c}`),
  '/api/v1/xpack/interface/setting/',
]

async function checkOptions(url: string, sample: Record<string, unknown> | undefined) {
  const o = await admin.options(url)
  expect(o.statusCode, `OPTIONS ${url}: ${o.body.slice(0, 200)}`).toBe(200)
  const get = o.json().actions?.GET as Record<string, { type?: string; label?: string }> | undefined
  expect(get && typeof get === 'object', `OPTIONS ${url} has actions.GET`).toBe(true)
  for (const [name, info] of Object.entries(get!)) {
    expect(typeof info.type, `${url} ${name} type`).toBe('string')
    expect(typeof info.label, `${url} ${name} label`).toBe('string')
  }
  // every key the GET answers is described
  for (const key of Object.keys(sample ?? {})) {
    if (key === 'SECRETS_SET') continue
    expect(Object.keys(get!), `OPTIONS ${url} describes "${key}"`).toContain(key)
  }
}

describe('OPTIONS on every list and settings endpoint', () => {
  it('every parameterless API GET that answers a list answers OPTIONS with its fields', async () => {
    const urls = [...new Set(t.app.routeList.filter((r) => r.method === 'GET' && r.url.startsWith('/api/') && !r.url.includes(':') && !r.url.includes('*'))
      .map((r) => (r.url.endsWith('/') ? r.url : `${r.url}/`)))].filter((u) => t.app.routeList.some((r) => r.method === 'GET' && r.url === u))
    let lists = 0
    for (const url of urls) {
      if (process.env.OPTIONS_TRACE) process.stderr.write(`${url}\n`)
      // one row is enough to see the answer's shape (and keeps every list cheap)
      const g = await admin.get(`${url}?limit=1`)
      if (g.statusCode !== 200 || !g.headers['content-type']?.toString().includes('json')) continue
      const rows = rowsOf(g.json())
      if (!rows) continue
      lists++
      await checkOptions(`${url}?limit=1`, rows[0])
    }
    // the count is a floor so that a broken enumeration cannot pass by finding nothing
    expect(lists).toBeGreaterThan(40)
  }, 600_000)

  it('every settings endpoint answers OPTIONS with every key it reads', async () => {
    for (const url of SETTINGS_URLS) {
      const g = await admin.get(url)
      expect(g.statusCode, url).toBe(200)
      await checkOptions(url, g.json())
    }
  })

  it("the reference console's workbench and interface calls have their columns", async () => {
    for (const [url, field] of [['/api/v1/perms/users/self/assets/', 'name'], ['/api/v1/terminal/my-sessions/', 'asset'],
      ['/api/v1/audits/my-login-logs/', 'username'], ['/api/v1/xpack/interface/setting/', 'login_title']] as const) {
      const o = await admin.options(url)
      expect(o.statusCode, url).toBe(200)
      expect(Object.keys(o.json().actions.GET), url).toContain(field)
    }
    const themes = await admin.get('/api/v1/xpack/interface/setting/themes/')
    expect(themes.statusCode).toBe(200)
    expect(themes.json().map((x: { name: string }) => x.name)).toContain('classic_green')
  })

  it('an OPTIONS runs the GET\'s own permission check', async () => {
    const anon = await t.app.inject({ method: 'OPTIONS', url: '/api/v1/terminal/my-sessions/' })
    expect(anon.statusCode).toBe(401)
  })
})
