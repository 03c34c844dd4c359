/**
 * The web file manager (issue 31), in real Chromium against the real server and a real OpenSSH server on loopback
 * (server/testing/sshd.ts, whose host is this machine: the test reads the host's files directly). A user granted a
 * host opens its files from My assets, uploads a real file (the bytes on the host are checked), downloads it (the
 * bytes the browser saved are checked), makes, renames and deletes with the keyboard; every operation is in the FTP
 * logs. A user without `download` sees no download and the server refuses the URL (logged). axe at 1440 and 360 px.
 */
import { randomBytes } from 'node:crypto'
import { chownSync, existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, expectNoAxeViolations, test } from './fixtures.ts'
import { api, results, unique } from './generic-support.ts'
import { login, PASSWORD } from './shell-helpers.ts'
import { useLoopbackHost } from './support/loopback-host.ts'

const host = useLoopbackHost()

/** A folder on the host, owned by the host's account. */
function hostDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'e2e-fm-'))
  const uid = Number(readFileSync('/etc/passwd', 'utf8').split('\n').find((l) => l.startsWith(`${host.account.username}:`))!.split(':')[2])
  chownSync(dir, uid, uid)
  return dir
}

test('My assets → Files: upload, download (same bytes), new folder, rename, delete; all in the FTP logs; axe at 1440 and 360 px', async ({ page, request }) => {
  const a = await api(request)
  const tag = unique('fm')
  const { hostName, username } = await host.granted(a, request, tag, ['connect', 'upload', 'download', 'delete'])
  const dir = hostDir()
  await page.setViewportSize({ width: 1440, height: 900 })
  await login(page, username, PASSWORD, '/ui/workbench/assets')
  await page.getByRole('button', { name: `Files of ${hostName}` }).click()
  await expect(page).toHaveURL(/\/ui\/workbench\/file-manager\?path=/)
  await page.getByRole('button', { name: host.account.username, exact: true }).click()
  await expect(page.getByRole('toolbar', { name: 'File actions' }).getByRole('button', { name: 'Upload' })).toBeEnabled()
  // straight to the host's folder, as a link would
  await page.goto(`/ui/workbench/file-manager?path=${encodeURIComponent(`/DEFAULT/${hostName}/${host.account.username}${dir}`)}`)
  await expect(page.getByRole('cell', { name: 'This folder is empty.' })).toBeVisible()
  await expectNoAxeViolations(page, 'file manager, empty folder')

  const bytes = randomBytes(1_500_000)
  await page.getByLabel('File to upload').setInputFiles({ name: 'payload.bin', mimeType: 'application/octet-stream', buffer: bytes })
  await expect(page.getByRole('link', { name: 'payload.bin', exact: true })).toBeVisible({ timeout: 30_000 })
  expect(readFileSync(join(dir, 'payload.bin')).equals(bytes)).toBe(true)

  const download = page.waitForEvent('download')
  await page.getByRole('link', { name: 'payload.bin', exact: true }).click()
  const saved = await (await download).path()
  expect(readFileSync(saved).equals(bytes)).toBe(true)

  // new folder, with the keyboard
  await page.getByRole('button', { name: 'New folder' }).click()
  await page.keyboard.type('made-here')
  await page.keyboard.press('Enter')
  await expect(page.getByRole('button', { name: 'made-here', exact: true })).toBeVisible()
  expect(existsSync(join(dir, 'made-here'))).toBe(true)
  // rename the file
  await page.getByRole('button', { name: 'Rename payload.bin' }).click()
  const name = page.getByRole('dialog').getByRole('textbox')
  await name.fill('renamed.bin')
  await page.keyboard.press('Enter')
  await expect(page.getByRole('link', { name: 'renamed.bin', exact: true })).toBeVisible()
  expect(existsSync(join(dir, 'renamed.bin'))).toBe(true)
  // delete the folder
  await page.getByRole('button', { name: 'Delete made-here' }).click()
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete', exact: true }).click()
  await expect(page.getByRole('alertdialog')).toBeHidden()
  await expect(page.getByText('Deleted made-here.')).toBeVisible()
  await expect(page.getByRole('button', { name: 'made-here', exact: true })).toHaveCount(0)
  expect(existsSync(join(dir, 'made-here'))).toBe(false)
  await expectNoAxeViolations(page, 'file manager with files')
  if (process.env.E2E_SCREENSHOTS) await page.screenshot({ path: 'test-results/file-manager-1440.png', fullPage: true })
  await page.setViewportSize({ width: 360, height: 800 })
  await expect(page.getByRole('link', { name: 'renamed.bin', exact: true })).toBeVisible()
  await expectNoAxeViolations(page, 'file manager at 360 px')
  if (process.env.E2E_SCREENSHOTS) await page.screenshot({ path: 'test-results/file-manager-360.png', fullPage: true })

  const logs = results(await a.get(`/api/v1/audits/ftp-logs/?user=${encodeURIComponent(`${username}(${username})`)}&order=date_start`))
  expect(logs.map((l: { operate: { value: string } | string; is_success: boolean }) => [typeof l.operate === 'string' ? l.operate : l.operate.value, l.is_success])).toEqual([
    ['upload', true], ['download', true], ['mkdir', true], ['rename', true], ['rmdir', true],
  ])
})

test('without download: no download offered, the URL is refused with 403 and the refusal is logged', async ({ page, request }) => {
  const a = await api(request)
  const tag = unique('fmro')
  const { hostName, username } = await host.granted(a, request, tag, ['connect', 'upload'])
  const dir = hostDir()
  const folder = `/DEFAULT/${hostName}/${host.account.username}${dir}`
  await login(page, username, PASSWORD, `/ui/workbench/file-manager?path=${encodeURIComponent(folder)}`)
  await page.getByLabel('File to upload').setInputFiles({ name: 'mine.txt', mimeType: 'text/plain', buffer: Buffer.from('my own bytes') })
  await expect(page.getByRole('cell', { name: 'mine.txt', exact: true })).toBeVisible({ timeout: 30_000 })
  await expect(page.getByRole('link', { name: 'mine.txt', exact: true })).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Delete mine.txt' })).toBeDisabled()
  const r = await page.request.get(`/api/v1/terminal/file-manager/download/?path=${encodeURIComponent(`${folder}/mine.txt`)}`)
  expect(r.status()).toBe(403)
  expect(await r.text()).not.toContain('my own bytes')
  const logs = results(await a.get(`/api/v1/audits/ftp-logs/?user=${encodeURIComponent(`${username}(${username})`)}&order=date_start`))
  expect(logs.map((l: { operate: { value: string } | string; is_success: boolean; filename: string }) => [typeof l.operate === 'string' ? l.operate : l.operate.value, l.is_success, l.filename]))
    .toEqual([['upload', true, `${dir}/mine.txt`], ['download', false, `${dir}/mine.txt`]])
  await expectNoAxeViolations(page, 'file manager without download')
})
