/**
 * Settings → Message subscription and Tools in Chromium against the real server: a channel switched on and a
 * receiver chosen in the dialog are what the server keeps (axe on the page and the dialog); a telnet check from
 * the server to its own loopback port shows the connection, a bad port shows on its field.
 */
import { expect, expectNoAxeViolations, test } from './fixtures.ts'
import { api, login } from './generic-support.ts'

const SUB = '/api/v1/notifications/system-msg-subscription/UserLoginFromNewIpMsg/'

test('message subscription and tools', async ({ page, request, baseURL }) => {
  test.setTimeout(120_000)
  const client = await api(request)
  await login(page, '/settings/message')
  await expect(page.getByRole('heading', { name: 'Message subscription', level: 1 })).toBeVisible()
  const row = page.getByTestId('msg-UserLoginFromNewIpMsg')
  const email = row.getByRole('checkbox', { name: 'User login from a new IP: Email' })
  await email.click()
  await expect(email).toBeChecked()
  await expect(page.getByText('Saved').first()).toBeVisible()
  await expectNoAxeViolations(page, 'message subscription')

  await row.getByRole('button', { name: /Edit receivers/ }).click()
  const dialog = page.getByRole('dialog')
  await dialog.getByRole('combobox').first().click()
  await page.getByRole('option', { name: /^Administrator\(admin\)/ }).click()
  await dialog.getByText('Members of the chosen groups receive the message too.').click()
  await expectNoAxeViolations(page, 'receivers dialog')
  await dialog.getByRole('button', { name: 'Save' }).click()
  await expect(dialog).toBeHidden()
  await expect(row.getByText('Administrator(admin)')).toBeVisible()
  const saved = await client.get(SUB)
  expect(saved.receive_backends).toEqual(['site_msg', 'email'])
  expect(saved.receivers.map((r: { name: string }) => r.name)).toEqual(['Administrator(admin)'])

  await page.goto('/ui/settings/tools')
  await expect(page.getByRole('heading', { name: 'Tools', level: 1 })).toBeVisible()
  await page.getByRole('tab', { name: 'Telnet' }).click()
  const port = new URL(baseURL!).port
  await page.getByLabel('Host or IP address').fill('127.0.0.1')
  await page.getByLabel('Port', { exact: true }).fill('99999')
  await page.getByRole('button', { name: 'Run' }).click()
  await expect(page.getByText('Enter a port from 1 to 65535.')).toBeVisible()
  await page.getByLabel('Port', { exact: true }).fill(port)
  await page.getByRole('button', { name: 'Run' }).click()
  await expect(page.getByTestId('tool-output')).toContainText(`Connected to 127.0.0.1 port ${port}`)
  await expectNoAxeViolations(page, 'tools')
})
