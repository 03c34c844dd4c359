/**
 * Typed sub-forms of issue 35 in real Chromium against the real server: the host create form's Accounts section
 * (one account typed in — an SSH key, in a text area that keeps its lines — one from an account template; a bad row
 * answered at its field with everything typed kept;
 * both accounts then on the asset's Accounts tab, no secret in any answer) and a platform protocol's setting edited
 * as typed inputs (SSH's "SFTP enabled" switched off, saved, still off when reopened), both in Chinese with the
 * server's and the console's labels. Axe on each form; with
 * E2E_SHOTS_DIR set, screenshots at 1440 and 360 px.
 */
import { generateKeyPairSync } from 'node:crypto'
import { expect, expectNoAxeViolations, test } from './fixtures.ts'
import { api, login, results, shots, unique, type Api } from './generic-support.ts'


test.describe('typed sub-forms (issue 35)', () => {
  let a: Api
  test.beforeEach(async ({ request }) => {
    a = await api(request)
  })

  test('a host is created with one typed account and one from a template; a bad row is answered at its field', async ({ page }) => {
    const tplUser = unique('tpl').slice(0, 24)
    const tpl = await a.post('/api/v1/accounts/account-templates/', { name: `${tplUser}-t`, username: tplUser, secret_type: 'password', secret: 'Tpl-Secret-35' })
    const hostName = unique('acc-host')
    const answers: string[] = []
    page.on('response', async (r) => { if (r.url().includes('/api/v1/') && r.request().method() !== 'GET') answers.push(await r.text().catch(() => '')) })
    await login(page, '/console/assets/hosts/create?platform=1', undefined, { reuse: true })
    await page.locator('[data-field="name"]').getByRole('textbox').fill(hostName)
    await page.locator('[data-field="address"]').getByRole('textbox').fill('10.35.1.1')
    const accounts = page.locator('[data-field="accounts"]')
    // typed in: first as an SSH key that is not one (the server answers at that row's secret)
    await accounts.getByRole('button', { name: 'Add', exact: true }).click()
    const typed = accounts.locator('[data-row="0"]')
    await typed.getByRole('textbox', { name: 'Username' }).fill('deploy')
    await typed.getByRole('combobox', { name: 'Secret type' }).click()
    await page.getByRole('option', { name: 'SSH key' }).click()
    // a key is several lines: a text area, not a password input (which drops line breaks)
    await expect(typed.locator('textarea')).toHaveCount(1)
    await typed.getByLabel('Secret', { exact: true }).fill('not\na key')
    await expect(typed.getByLabel('Passphrase')).toBeVisible()
    // from a template: only the template picker
    await accounts.getByRole('button', { name: 'Add from template' }).click()
    const fromTpl = accounts.locator('[data-row="1"]')
    await expect(fromTpl.getByRole('textbox', { name: 'Username' })).toHaveCount(0)
    const picker = fromTpl.getByRole('combobox', { name: 'Template' })
    await picker.fill(tplUser)
    await page.getByRole('option', { name: new RegExp(tplUser) }).click()
    await expectNoAxeViolations(page, 'host form with accounts')
    await shots(page, 'host-form-accounts')
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await expect(typed.getByText('This is not a private key (PEM or OpenSSH), or the passphrase does not open it.')).toBeVisible()
    // nothing written, everything typed kept
    expect(results(await a.get(`/api/v1/assets/hosts/?name=${hostName}`))).toEqual([])
    await expect(typed.getByRole('textbox', { name: 'Username' })).toHaveValue('deploy')
    await expect(page.locator('[data-field="name"]').getByRole('textbox')).toHaveValue(hostName)
    await expect(fromTpl.getByRole('combobox', { name: 'Template' })).toHaveValue(new RegExp(tplUser))
    await expectNoAxeViolations(page, 'host form with a row error')
    // a real key (its line breaks kept): saved
    const key = generateKeyPairSync('rsa', { modulusLength: 1024, privateKeyEncoding: { type: 'pkcs1', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } }).privateKey
    await typed.getByLabel('Secret', { exact: true }).fill(key)
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await expect.poll(async () => results(await a.get(`/api/v1/assets/hosts/?name=${hostName}`)).length).toBe(1)
    const host = results(await a.get(`/api/v1/assets/hosts/?name=${hostName}`))[0]!
    const made = results(await a.get(`/api/v1/accounts/accounts/?asset=${host.id}`))
    expect(made.map((x) => [x.username, x.has_secret, x.source.value, x.secret_type.value]).sort()).toEqual([['deploy', true, 'local', 'ssh_key'], [tplUser, true, 'template', 'password']])
    expect(tpl.id).toBeTruthy()
    // the asset's Accounts tab lists both
    await page.goto(`/ui/console/assets/assets/${host.id}?activeTab=Accounts`)
    const panel = page.getByRole('tabpanel')
    await expect(panel.getByText('deploy', { exact: true }).first()).toBeVisible()
    await expect(panel.getByText(tplUser, { exact: true }).first()).toBeVisible()
    await expectNoAxeViolations(page, 'asset accounts tab')
    // no answer carried a secret
    expect(answers.join('\n')).not.toMatch(/Tpl-Secret-35|PRIVATE KEY/)
  })

  test('the account and template forms keep an SSH key\'s lines, and ask a passphrase only for keys', async ({ page }) => {
    const host = await a.post('/api/v1/assets/hosts/', { name: unique('key-host'), address: '10.35.1.2', platform: 1 })
    const key = generateKeyPairSync('rsa', { modulusLength: 1024, privateKeyEncoding: { type: 'pkcs1', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } }).privateKey
    for (const [path, list] of [[`/console/accounts/accounts/create?asset=${host.id}`, '/api/v1/accounts/accounts/'], ['/console/accounts/account-template/create', '/api/v1/accounts/account-templates/']] as const) {
      const username = unique('keyed').slice(0, 24)
      await login(page, path, undefined, { reuse: true })
      await page.getByRole('textbox', { name: 'Name', exact: true }).fill(username)
      await page.getByRole('textbox', { name: 'Username', exact: true }).fill(username)
      await expect(page.getByLabel('Passphrase')).toHaveCount(0)
      await page.locator('[data-field="secret_type"]').getByRole('combobox').click()
      await page.getByRole('option', { name: 'SSH key' }).click()
      await expect(page.getByLabel('Passphrase')).toBeVisible()
      // a text area: a password input would drop the key's line breaks and the server would refuse it
      await page.locator('[data-field="secret"] textarea').fill(key)
      await expectNoAxeViolations(page, `${list} form with a key`)
      await page.getByRole('button', { name: 'Save', exact: true }).click()
      await expect.poll(async () => results(await a.get(`${list}?username=${username}`)).map((x) => [x.secret_type.value, x.has_secret ?? true])).toEqual([['ssh_key', true]])
    }
  })

  test('the sub-forms speak the console’s language (zh)', async ({ page, baseURL }) => {
    const platform = await a.post('/api/v1/assets/platforms/', { name: unique('zh-linux'), category: 'host', type: 'linux' })
    await page.context().addCookies([{ name: 'django_language', value: 'zh-hans', url: baseURL! }])
    await login(page, `/console/assets/platforms/${platform.id}/update`, undefined, { reuse: true })
    await expect(page.locator('[data-field="protocols"] [data-row="0"]').getByRole('switch', { name: '启用 SFTP' })).toBeChecked()
    await page.goto('/ui/console/assets/hosts/create?platform=1')
    const accounts = page.locator('[data-field="accounts"]')
    await accounts.getByRole('button', { name: '从模板添加' }).click()
    await expect(accounts.locator('[data-row="0"]').getByRole('combobox', { name: '模板' })).toBeVisible()
    await expectNoAxeViolations(page, 'host form accounts in zh')
  })

  test('a platform protocol setting is edited as typed inputs and kept', async ({ page }) => {
    const platform = await a.post('/api/v1/assets/platforms/', { name: unique('typed-linux'), category: 'host', type: 'linux' })
    await login(page, `/console/assets/platforms/${platform.id}/update`, undefined, { reuse: true })
    const protocols = page.locator('[data-field="protocols"]')
    const ssh = protocols.locator('[data-row="0"]')
    await expect(ssh.getByRole('textbox', { name: 'Name' })).toHaveValue('ssh')
    const sftp = ssh.getByRole('switch', { name: 'SFTP enabled' })
    await expect(sftp).toBeChecked()
    await expect(ssh.getByRole('textbox', { name: 'SFTP home' })).toHaveValue('/tmp')
    await expect(protocols.locator('textarea')).toHaveCount(0)
    // a bad value is answered at its input
    await ssh.getByRole('textbox', { name: 'SFTP home' }).fill('relative')
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await expect(ssh.getByText('Enter an absolute path (starting with /).')).toBeVisible()
    await ssh.getByRole('textbox', { name: 'SFTP home' }).fill('/srv')
    await sftp.click()
    await expect(sftp).not.toBeChecked()
    await expectNoAxeViolations(page, 'platform form with typed protocol settings')
    await shots(page, 'platform-protocol-setting')
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await expect.poll(async () => (await a.get(`/api/v1/assets/platforms/${platform.id}/`)).protocols.find((p: { name: string }) => p.name === 'ssh').setting)
      .toEqual({ sftp_enabled: false, sftp_home: '/srv' })
    await page.goto(`/ui/console/assets/platforms/${platform.id}/update`)
    const again = page.locator('[data-field="protocols"] [data-row="0"]')
    await expect(again.getByRole('switch', { name: 'SFTP enabled' })).not.toBeChecked()
    await expect(again.getByRole('textbox', { name: 'SFTP home' })).toHaveValue('/srv')
  })
})
