/**
 * Settings → Terminal in Chromium against the real server: a component registered and reporting through the
 * API shows in the Terminals tab with its load; "Test" on the default replay storage checks the replay directory
 * for real; an S3 storage pointing at a closed port fails its test with the server's reason; an endpoint rule
 * shows its endpoint. The create/edit/delete walk of each list is the console conformance spec's.
 */
import { signRequest } from '../../server/auth/signature.ts'
import { expect, expectNoAxeViolations, test } from './fixtures.ts'
import { api, login, row, rowAction, unique } from './generic-support.ts'

const BOOTSTRAP = process.env.BOOTSTRAP_TOKEN ?? 'e2e-bootstrap-token'

test('Settings → Terminal: terminals with their load, storage tests, endpoint rules', async ({ page, request }) => {
  const a = await api(request)
  const name = unique('koko')
  const reg = await request.post('/api/v1/terminal/terminal-registrations/', { headers: { Authorization: `BootstrapToken ${BOOTSTRAP}` }, data: { name, type: 'koko' } })
  expect(reg.status(), await reg.text()).toBe(201)
  const key = (await reg.json()).service_account.access_key as { id: string; secret: string }
  const beat = '/api/v1/terminal/terminals/status/'
  const res = await request.post(beat, { headers: { ...signRequest(key.id, key.secret, 'POST', beat), 'X-JMS-ORG': 'ROOT' }, data: { cpu_load: 0.2, memory_used: 95, disk_used: 10, session_online: 0 } })
  expect(res.status()).toBe(201)
  const s3 = unique('s3')
  await a.post('/api/v1/terminal/replay-storages/', { name: s3, type: 's3', meta: { BUCKET: 'replays', ENDPOINT: 'http://127.0.0.1:9', SECRET_KEY: 'never-shown' } })
  const endpoint = await a.post('/api/v1/terminal/endpoints/', { name: unique('dmz'), host: 'jump.dmz.example' })
  await a.post('/api/v1/terminal/endpoint-rules/', { name: unique('rule'), ip_group: ['10.1.0.0/16'], priority: 42, endpoint: endpoint.id })

  await login(page, '/settings/terminal')
  await expect(page.getByRole('tab', { name: 'Basic settings' })).toHaveAttribute('aria-selected', 'true')
  await expect(page.locator('form')).toBeVisible()
  await expectNoAxeViolations(page, 'terminal settings form')

  await page.getByRole('tab', { name: 'Terminals' }).click()
  await expect(page).toHaveURL(/tab=terminals/)
  await expect(row(page, name)).toContainText('Critical')
  await expectNoAxeViolations(page, 'terminals tab')

  await page.getByRole('tab', { name: 'Replay storage' }).click()
  await rowAction(page, 'default', 'Test')
  await expect(page.getByText('The replay directory is writable.')).toBeVisible()
  await rowAction(page, s3, 'Test')
  await expect(page.getByText(/The storage endpoint cannot be reached/)).toBeVisible()
  await expect(page.getByText('never-shown')).toHaveCount(0)
  await expectNoAxeViolations(page, 'replay storage tab')

  await page.getByRole('tab', { name: 'Endpoint rules' }).click()
  await expect(row(page, '10.1.0.0/16')).toContainText(endpoint.name)
  await expectNoAxeViolations(page, 'endpoint rules tab')
  // After a reload the tab is still the one in the URL.
  await page.reload()
  await expect(page.getByRole('tab', { name: 'Endpoint rules' })).toHaveAttribute('aria-selected', 'true')
})
