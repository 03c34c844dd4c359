/**
 * Audit against the real server, fed as a terminal component feeds it (registration with the bootstrap token,
 * signed requests): an auditor logged in through the login page finds the session, reads its commands, plays
 * its replay and sees the dashboard count it; an administrator terminates an online session and the component
 * gets the task with its heartbeat. Axe on every page.
 */
import { gzipSync } from 'node:zlib'
import type { APIRequestContext } from '@playwright/test'
import { signRequest } from '../../server/auth/signature.ts'
import { expect, expectNoAxeViolations, test } from './fixtures.ts'
import { api, login, row, rowAction, confirmDialog, unique, type Api } from './generic-support.ts'

const BOOTSTRAP = process.env.BOOTSTRAP_TOKEN ?? 'e2e-bootstrap-token'
const DEFAULT_ORG = '00000000-0000-0000-0000-000000000002'

interface Key { id: string; secret: string }

async function register(request: APIRequestContext): Promise<Key> {
  const res = await request.post('/api/v1/terminal/terminal-registrations/', { headers: { Authorization: `BootstrapToken ${BOOTSTRAP}` }, data: { name: unique('koko'), type: 'koko' } })
  expect(res.status(), await res.text()).toBe(201)
  return (await res.json()).service_account.access_key as Key
}

async function signed(request: APIRequestContext, key: Key, method: 'POST' | 'PATCH', url: string, data: unknown, multipart?: Record<string, unknown>) {
  const headers = { ...signRequest(key.id, key.secret, method, url), 'X-JMS-ORG': 'ROOT' }
  const res = await request.fetch(url, { method, headers, ...(multipart ? { multipart: multipart as never } : { data }) })
  expect(res.status(), `${method} ${url}: ${await res.text()}`).toBeLessThan(300)
  return res.json()
}

async function createAuditor(a: Api, request: APIRequestContext) {
  const username = unique('auditor')
  const password = 'Auditor-Passw0rd!'
  await a.post('/api/v1/users/users/', {
    name: username, username, email: `${username}@example.com`, password_strategy: 'custom', password,
    system_roles: ['00000000-0000-0000-0000-000000000002'], need_update_password: false,
  })
  const auth = await request.post('/api/v1/authentication/auth/', { data: { username, password } })
  const { token } = (await auth.json()) as { token: string }
  await request.patch('/api/v1/users/profile/', { headers: { Authorization: `Bearer ${token}` }, data: { is_first_login: false } })
  return { username, password }
}

test.describe('audit', () => {
  test('an auditor finds a session, reads its commands, plays the replay, sees the dashboard move', async ({ page, request }) => {
    const a = await api(request)
    const key = await register(request)
    const asset = unique('web')
    const session = crypto.randomUUID()
    await signed(request, key, 'POST', '/api/v1/terminal/sessions/', {
      id: session, user: 'Alice(alice)', asset, account: 'root(root)', user_id: 'u-alice', asset_id: `a-${asset}`, protocol: 'ssh', login_from: 'ST',
      remote_addr: '10.1.1.1', org_id: DEFAULT_ORG,
    })
    const ts = Math.floor(Date.now() / 1000)
    await signed(request, key, 'POST', '/api/v1/terminal/commands/', [
      { user: 'Alice(alice)', asset, account: 'root(root)', input: 'uname -a', output: 'Linux', session, risk_level: 0, timestamp: ts, org_id: DEFAULT_ORG },
      { user: 'Alice(alice)', asset, account: 'root(root)', input: 'rm -rf /srv/data', output: '', session, risk_level: 5, timestamp: ts + 1, org_id: DEFAULT_ORG },
    ])
    const cast = gzipSync(Buffer.from([JSON.stringify({ version: 2, width: 80, height: 24 }), '[0.2, "o", "$ uname -a\\r\\n"]', '[0.6, "o", "Linux replay-host\\r\\n"]'].join('\n') + '\n'))
    await signed(request, key, 'POST', `/api/v1/terminal/sessions/${session}/replay/`, undefined, { file: { name: `${session}.cast.gz`, mimeType: 'application/gzip', buffer: cast } })
    await signed(request, key, 'PATCH', `/api/v1/terminal/sessions/${session}/`, { is_finished: true })
    const auditor = await createAuditor(a, request)

    await login(page, '/audit/dashboard', auditor)
    await expect(page.getByLabel('Dangerous commands')).toHaveText(/^[1-9]/)
    await expect(page.getByText('Logins and sessions per day').first()).toBeVisible()
    await expectNoAxeViolations(page, 'audit dashboard')
    if (process.env.E2E_SCREENSHOTS) await page.screenshot({ path: 'test-results/audit-dashboard.png', fullPage: true })

    await page.goto('/ui/audit/sessions/sessions')
    await expect(row(page, asset)).toBeVisible()
    await expectNoAxeViolations(page, 'offline sessions')
    await row(page, asset).getByRole('link').first().click()
    await page.getByRole('tab', { name: 'Commands' }).click()
    await expect(page.getByText('rm -rf /srv/data')).toBeVisible()
    await expect(page.getByText('Dangerous')).toBeVisible()
    await expectNoAxeViolations(page, 'session commands')
    await page.getByRole('tab', { name: 'Replay' }).click()
    const player = page.getByTestId('replay-player')
    await expect(player.locator('.ap-player')).toBeVisible()
    await expect(player).toContainText('Linux replay-host', { timeout: 15_000 })
    const download = page.waitForEvent('download')
    await page.getByRole('button', { name: 'Download' }).click()
    expect((await download).suggestedFilename()).toBe(`${session}.cast.gz`)
    await expectNoAxeViolations(page, 'session replay')
    if (process.env.E2E_SCREENSHOTS) await page.screenshot({ path: 'test-results/audit-replay.png' })

    await page.goto('/ui/audit/sessions/command')
    await expect(row(page, 'rm -rf /srv/data')).toBeVisible()
    await expectNoAxeViolations(page, 'commands')
    // Read-only: no create, no delete for an auditor.
    await expect(page.getByRole('button', { name: /^Create/ })).toHaveCount(0)
  })

  test('terminate an online session: the component gets the task with its heartbeat', async ({ page, request }) => {
    await api(request)
    const key = await register(request)
    const asset = unique('db')
    const session = crypto.randomUUID()
    await signed(request, key, 'POST', '/api/v1/terminal/sessions/', { id: session, user: 'Bob(bob)', asset, org_id: DEFAULT_ORG })
    await login(page, '/audit/sessions/sessions?tab=online')
    await expect(row(page, asset)).toBeVisible()
    await expectNoAxeViolations(page, 'online sessions')
    await rowAction(page, asset, 'Terminate')
    await confirmDialog(page, 'Terminate')
    await expect(page.getByText('The session is being terminated')).toBeVisible()
    const tasks = await signed(request, key, 'POST', '/api/v1/terminal/terminals/status/', { sessions: [session] })
    expect(tasks).toEqual([expect.objectContaining({ name: 'kill_session', args: session })])
  })
})
