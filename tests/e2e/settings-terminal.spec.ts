/**
 * Settings → Terminal in Chromium against the real server: a component registered and reporting through the
 * API shows in the Terminals tab with its load; "Test" on the default replay storage checks the replay directory
 * for real; an S3 storage pointing at a closed port fails its test with the server's reason; an Azure storage on a
 * real Azurite passes its test (a blob written, read back and removed); an endpoint rule shows its endpoint. The create/edit/delete walk of each list is the console conformance spec's.
 */
import { signRequest } from '../../server/auth/signature.ts'
import { startAzurite } from '../../server/testing/azurite.ts'
import { startSshd } from '../../server/testing/sshd.ts'
import { adminToken, expect, expectNoAxeViolations, test } from './fixtures.ts'
import { api, login, row, rowAction, unique } from './generic-support.ts'

const BOOTSTRAP = process.env.BOOTSTRAP_TOKEN ?? 'e2e-bootstrap-token'

test('Settings → Terminal: terminals with their load, storage tests, endpoint rules', async ({ page, request }) => {
  const a = await api(request)
  const name = unique('koko')
  const reg = await request.post('/api/v1/terminal/terminal-registrations/', { headers: { Authorization: `BootstrapToken ${BOOTSTRAP}` }, data: { name, type: 'koko' } })
  expect(reg.status(), await reg.text()).toBe(201)
  const key = (await reg.json()).service_account.access_key as { id: string; secret: string }
  const beat = '/api/v1/terminal/terminals/status/'
  const res = await request.post(beat, { headers: { ...signRequest(key.id, key.secret, 'POST', beat), 'X-JMS-ORG': 'ROOT' }, data: { cpu_load: 0.2, memory_used: 96, disk_used: 10, session_online: 0 } })
  expect(res.status()).toBe(201)
  const s3 = unique('s3')
  await a.post('/api/v1/terminal/replay-storages/', { name: s3, type: 's3', meta: { BUCKET: 'replays', ENDPOINT: 'http://127.0.0.1:9', SECRET_KEY: 'never-shown' } })
  const azurite = await startAzurite()
  try {
    const azure = unique('azure')
    await a.post('/api/v1/terminal/replay-storages/', { name: azure, type: 'azure', meta: { CONTAINER_NAME: azurite.container, ACCOUNT_NAME: azurite.account, ACCOUNT_KEY: azurite.key, ENDPOINT_SUFFIX: 'core.windows.net', ENDPOINT: azurite.endpoint } })
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
    await rowAction(page, azure, 'Test')
    await expect(page.getByText(`A test blob was written to container ${azurite.container}, read back and removed.`)).toBeVisible()
    await expect(page.getByText(azurite.key)).toHaveCount(0)
    await expectNoAxeViolations(page, 'replay storage tab')

    await page.getByRole('tab', { name: 'Endpoint rules' }).click()
    await expect(row(page, '10.1.0.0/16')).toContainText(endpoint.name)
    await expectNoAxeViolations(page, 'endpoint rules tab')
    // After a reload the tab is still the one in the URL.
    await page.reload()
    await expect(page.getByRole('tab', { name: 'Endpoint rules' })).toHaveAttribute('aria-selected', 'true')
  } finally {
    await azurite.dispose()
  }
})

test('Settings → Applets: an applet host deployed over SSH from its detail, the live log, the publication listed', async ({ page, request }) => {
  const a = await api(request)
  const sshd = await startSshd()
  try {
    const user = await sshd.addUser()
    const applet = unique('pad').replace(/[^-\w]/g, '_')
    const up = await request.post('/api/v1/terminal/applets/upload/', {
      headers: { Authorization: `Bearer ${await adminToken(request)}` },
      multipart: { file: { name: `${applet}.zip`, mimeType: 'application/zip', buffer: await appletZip(applet, true) } },
    })
    expect(up.status(), await up.text()).toBe(201)
    const name = unique('apphost')
    await a.post('/api/v1/terminal/applet-hosts/', {
      name, address: '127.0.0.1', protocols: [{ name: 'rdp', port: 3389 }, { name: 'ssh', port: sshd.port }],
      accounts: [{ username: user.username, secret: user.password, privileged: true }],
    })

    await login(page, '/settings/applets')
    await page.getByRole('tab', { name: 'Remote app hosts' }).click()
    await expect(row(page, name)).toContainText('Offline')
    await expectNoAxeViolations(page, 'applet hosts tab')
    await row(page, name).getByRole('link', { name }).click()
    await expect(page.getByRole('heading', { name: new RegExp(name) })).toBeVisible()
    await page.getByRole('tab', { name: 'Deployments' }).click()
    await expectNoAxeViolations(page, 'applet host deployments')

    const popupPromise = page.context().waitForEvent('page')
    await page.getByRole('button', { name: 'Deploy', exact: true }).first().click()
    const popup = await popupPromise
    const log = popup.getByRole('log', { name: 'Task log' })
    await expect(log).toContainText('TASK [Write the host configuration]')
    await expect(log).toContainText(`TASK [Publish applet ${applet} 1.0]`)
    await expect(log).toHaveAttribute('data-state', 'SUCCESS')
    await popup.close()

    await page.getByRole('tab', { name: 'Published applets' }).click()
    await expect(row(page, `Editor ${applet}`)).toContainText('Success')
    await expectNoAxeViolations(page, 'applet host publications')
  } finally {
    await sshd.stop()
  }
})

/** A real applet package, zipped as an author zips the applet's folder. */
async function appletZip(name: string, withIcon: boolean): Promise<Buffer> {
  const { Uint8ArrayReader, Uint8ArrayWriter, TextReader, ZipWriter, configure } = await import('@zip.js/zip.js')
  configure({ useWebWorkers: false })
  const zip = new ZipWriter(new Uint8ArrayWriter())
  await zip.add(`${name}/manifest.yml`, new TextReader(`name: ${name}\ndisplay_name: Editor ${name}\nversion: "1.0"\nauthor: E2E\ntype: general\nprotocols: [rdp]\n`))
  await zip.add(`${name}/setup.yml`, new TextReader('type: manual\n'))
  if (withIcon) await zip.add(`${name}/icon.png`, new Uint8ArrayReader(new Uint8Array(Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'))))
  return Buffer.from(await zip.close())
}

test('Settings → Applets: a package without its icon is refused with the reason, a good one is listed and shown', async ({ page, request }) => {
  await api(request)
  const name = unique('notepad').replace(/[^-\w]/g, '_')
  await login(page, '/settings/applets')
  await expect(page.getByRole('heading', { name: 'Remote apps' })).toBeVisible()
  await expectNoAxeViolations(page, 'applets list')

  const choose = async (data: Buffer) => {
    const chooser = page.waitForEvent('filechooser')
    await page.getByRole('button', { name: 'Upload' }).click()
    await (await chooser).setFiles({ name: `${name}.zip`, mimeType: 'application/zip', buffer: data })
  }
  await choose(await appletZip(name, false))
  await expect(page.getByText('Applet pkg not valid, Missing file icon.png')).toBeVisible()
  await expect(row(page, name)).toHaveCount(0)

  await choose(await appletZip(name, true))
  await expect(page.getByText('Upload succeeded')).toBeVisible()
  await expect(row(page, name)).toContainText(`Editor ${name}`)
  await page.getByRole('link', { name: name }).first().click()
  await expect(page.getByRole('heading', { name: `Remote app: ${name}` })).toBeVisible()
  await expect(page.getByText('E2E', { exact: true })).toBeVisible()
  await expectNoAxeViolations(page, 'applet detail')
})
