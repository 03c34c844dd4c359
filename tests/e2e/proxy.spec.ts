/**
 * Proxy mode end to end (JUMPSERVER_URL): a second server of ours, started with JUMPSERVER_URL pointing at this
 * worker's server, stands in front of it as it would in front of a real JumpServer (the upstream is JumpServer-shaped:
 * the same API, login page, cookies and websocket). In Chromium, on the proxy's address only, the console logs in
 * through the upstream's login page, lists and edits users, switches organizations, exports a CSV and receives a
 * site message over the proxied websocket; the CSRF cookie and header and the session cookie pass through.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ADMIN, expect, startServer, stopServer, test, waitHealthy } from './fixtures.ts'
import { createUser, login, profileId, readyAdmin, ROLES, sendSiteMessage } from './shell-helpers.ts'
import { rowAction, search, unique } from './generic-support.ts'

test('the console works through the proxy in front of a JumpServer-shaped upstream', async ({ browser, server, request }) => {
  test.setTimeout(300_000)
  const PROXY = `http://127.0.0.1:${server.sparePort}`
  const dataDir = mkdtempSync(join(tmpdir(), 'bastion-e2e-proxy-'))
  const proxy = startServer(server.sparePort, dataDir, { JUMPSERVER_URL: server.baseURL })
  const context = await browser.newContext({ baseURL: PROXY, locale: 'en-US', acceptDownloads: true })
  try {
    await waitHealthy(PROXY, proxy)
    // Set-up on the upstream directly: a user to edit and a second organization.
    const token = await readyAdmin(request)
    const auth = { Authorization: `Bearer ${token}` }
    const username = unique('proxied')
    await createUser(request, token, username, [ROLES.OrgUser])
    const org = await request.post('/api/v1/orgs/orgs/', { headers: auth, data: { name: 'Proxied org' } })
    expect([201, 400]).toContain(org.status())

    const page = await context.newPage()
    const offProxy: string[] = []
    page.on('request', (r) => {
      if (!r.url().startsWith(PROXY) && /^https?:|^wss?:/.test(r.url())) offProxy.push(r.url())
    })
    const sockets: string[] = []
    page.on('websocket', (ws) => sockets.push(ws.url()))

    // Login through the upstream's login page, served on the proxy's address.
    await login(page, ADMIN.username, ADMIN.password)
    expect(new URL(page.url()).origin).toBe(PROXY)
    const cookies = await context.cookies(PROXY)
    expect(cookies.map((c) => c.name)).toEqual(expect.arrayContaining(['jms_sessionid', 'jms_csrftoken']))

    // Users: listed and edited (a PATCH carrying the CSRF header the upstream checks).
    await page.goto('/ui/console/users/users')
    await search(page, username)
    await rowAction(page, username, 'Edit')
    await expect(page.getByRole('heading', { name: 'Update user' })).toBeVisible()
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill(`${username} edited`)
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await expect(page.getByRole('heading', { name: `User: ${username} edited` })).toBeVisible()
    const list = await (await request.get(`/api/v1/users/users/?search=${username}`, { headers: auth })).json()
    expect((Array.isArray(list) ? list : list.results)[0]?.name).toBe(`${username} edited`)

    // The CSRF rule holds through the proxy: the page's session cookie without the X-CSRFToken header is anonymous
    // to the upstream (401, contract §1.8); with the header read from the jms_csrftoken cookie it is the admin.
    const write = (withToken: boolean) => page.evaluate(async (withToken) => {
      const token = document.cookie.split('; ').find((c) => c.startsWith('jms_csrftoken='))?.split('=')[1] ?? ''
      const headers: Record<string, string> = { 'Content-Type': 'application/json', ...(withToken ? { 'X-CSRFToken': token } : {}) }
      return (await fetch('/api/v1/users/profile/', { method: 'PATCH', headers, body: '{"comment":"through the proxy"}' })).status
    }, withToken)
    expect(await write(false)).toBe(401)
    expect(await write(true)).toBe(200)

    // Organizations: switched, and the choice reaches the upstream (the X-JMS-ORG cookie).
    await page.getByRole('button', { name: /Switch organization, current: DEFAULT/ }).click()
    await page.getByRole('menuitemradio', { name: 'Proxied org' }).click()
    await expect(page.getByRole('button', { name: /Switch organization, current: Proxied org/ })).toBeVisible()
    expect((await context.cookies(PROXY)).find((c) => c.name === 'X-JMS-ORG')?.value).toMatch(/^[0-9a-f-]{36}$/)
    await page.getByRole('button', { name: /Switch organization, current: Proxied org/ }).click()
    await page.getByRole('menuitemradio', { name: 'DEFAULT' }).click()
    await expect(page.getByRole('button', { name: /Switch organization, current: DEFAULT/ })).toBeVisible()

    // A CSV export of the users list.
    await page.goto('/ui/console/users/users')
    await search(page, username)
    await page.locator('[data-command="export"]').click()
    const dialog = page.getByRole('dialog', { name: 'Export' })
    await dialog.getByRole('radio', { name: 'CSV' }).check()
    const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Export' }).click()])
    expect(download.suggestedFilename()).toMatch(/^user_.*\.csv$/)
    expect(readFileSync((await download.path())!, 'utf8')).toContain(`${username} edited`)

    // A site message sent on the upstream arrives over the proxied websocket.
    await expect.poll(() => sockets.some((u) => u.startsWith(PROXY.replace(/^http/, 'ws') + '/ws/'))).toBe(true)
    await sendSiteMessage(request, token, [await profileId(request, token)], 'Through the proxy')
    await expect(page.getByTestId('site-messages-badge')).not.toHaveCount(0)
    await page.getByTestId('site-messages-button').click()
    await expect(page.getByRole('dialog', { name: 'Messages' }).getByRole('heading', { name: 'Through the proxy' })).toBeVisible()

    expect(offProxy, 'every request of the page went to the proxy').toEqual([])
  } finally {
    await context.close()
    await stopServer(proxy)
    rmSync(dataDir, { recursive: true, force: true })
  }
})
