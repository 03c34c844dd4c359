/**
 * ACLs in the console (docs/acls.md): a command group and a command filter ACL created in the forms, the
 * decision endpoint's answer for them; an asset login ACL whose time periods are set with the keyboard on the
 * grid; a login ACL saved from the standalone list with its user chosen in the form.
 */
import { expect, expectNoAxeViolations, test } from './fixtures.ts'
import { api, login, results, unique } from './generic-support.ts'

test('command groups, command filters, asset login ACLs with the time grid, standalone login ACLs', async ({ page, request }) => {
  test.slow() // one journey over four forms, three of them checked with axe
  const a = await api(request)
  const username = unique('acl-e2e')
  const userId = (await a.post('/api/v1/users/users/', { name: username, username, email: `${username}@example.com` })).id
  const host = await a.post('/api/v1/assets/hosts/', { name: unique('acl-host'), address: '10.20.30.40', platform: 1 })
  const subject = { user_id: userId, asset_id: host.id, account_username: 'root' }

  // A command group
  const groupName = unique('danger')
  await login(page, '/console/perms/cmd-groups/create')
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(groupName)
  await page.getByRole('textbox', { name: 'Content' }).fill('rm -rf\nreboot')
  await page.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(page).toHaveURL(/cmd-groups\?.*order=-date_updated/)

  // A command filter for this user with that group
  const aclName = unique('no-rm')
  await page.goto('/ui/console/perms/cmd-acls/create')
  await page.locator('[data-field="name"]').getByRole('textbox').fill(aclName)
  const users = page.locator('[data-field="users"]').getByRole('textbox')
  await users.fill(username)
  await users.press('Enter')
  await page.locator('[data-field="users"]').getByRole('button', { name: 'Remove' }).first().click() // the default "*"
  const groups = page.locator('[data-field="command_groups"]').getByRole('combobox')
  await groups.fill(groupName)
  await page.getByRole('option', { name: new RegExp(groupName) }).click()
  await expect(page.locator('[data-field="reviewers"]')).toHaveCount(0)
  await expectNoAxeViolations(page, 'command filter form')
  await page.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(page).toHaveURL(/cmd-acls\?.*order=-date_updated/)
  await expect(page.getByRole('row', { name: new RegExp(aclName) })).toContainText(username)
  await expectNoAxeViolations(page, 'command filter list')

  const rm = await a.post('/api/v1/acls/command-filter-acls/decide/', { ...subject, command: 'sudo rm  -rf /' })
  expect(rm).toMatchObject({ action: { value: 'reject' }, acl: { name: aclName }, command_group: { name: groupName }, matched: 'rm  -rf' })
  expect((await a.post('/api/v1/acls/command-filter-acls/decide/', { ...subject, command: 'ls' })).acl).toBeNull()

  // An asset login ACL: every hour but Monday 09:00–10:00, set on the grid with the keyboard
  const hostAcl = unique('office')
  await page.goto('/ui/console/perms/host-acls/create')
  await page.locator('[data-field="name"]').getByRole('textbox').fill(hostAcl)
  const grid = page.getByRole('grid', { name: 'Time Period' })
  await expect(grid.getByRole('gridcell', { selected: true })).toHaveCount(7 * 24)
  await grid.getByRole('gridcell').first().focus()
  for (let i = 0; i < 9; i++) await page.keyboard.press('ArrowRight')
  await page.keyboard.press('Space')
  await expect(grid.getByRole('gridcell', { selected: false })).toHaveCount(1)
  await expect(page.locator(':focus')).toHaveAttribute('aria-selected', 'false')
  await expect(page.getByText('167 hours a week selected')).toBeVisible()
  await page.getByRole('radio', { name: 'Notice' }).check()
  await expectNoAxeViolations(page, 'asset login ACL form')
  await page.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(page).toHaveURL(/host-acls\?.*order=-date_updated/)
  const saved = results(await a.get(`/api/v1/acls/login-asset-acls/?name=${hostAcl}`))[0]
  expect(saved.rules.time_period.find((p: { id: number }) => p.id === 1)).toEqual({ id: 1, value: '00:00~09:00、10:00~00:00' })
  const decide = (time: string) => a.post('/api/v1/acls/login-asset-acls/decide/', { ...subject, remote_addr: '192.0.2.1', time })
  expect((await decide('2024-06-03T09:30:00+08:00')).acl).toBeNull()
  expect(await decide('2024-06-03T10:30:00+08:00')).toMatchObject({ action: { value: 'notice' }, acl: { name: hostAcl } })
  await page.getByRole('link', { name: hostAcl }).click()
  await expect(page.getByText('Monday 00:00~09:00、10:00~00:00; Tuesday all day')).toBeVisible()

  // The standalone login ACL list: the form asks for the user and saves
  const loginAcl = unique('standalone')
  await page.goto('/ui/console/users/users/user-acl/create')
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(loginAcl)
  const picker = page.locator('[data-field="user"]').getByRole('combobox')
  await picker.fill(username)
  await page.getByRole('option', { name: new RegExp(username) }).click()
  await page.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(page.getByText(`Created “${loginAcl}”`)).toBeVisible()
  const standalone = results(await a.get(`/api/v1/acls/login-acls/?user=${userId}`))
  expect(standalone.map((x: { name: string; rules: { time_period: unknown[] } }) => [x.name, x.rules.time_period])).toEqual([[loginAcl, []]])
})
