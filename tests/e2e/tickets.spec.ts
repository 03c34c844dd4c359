/**
 * Tickets in Chromium against the real server: an ordinary user requests a host, it is approved in two levels
 * (an org admin, then a named user) and the host shows in the user's My assets; a login held by a login ACL with
 * review waits on the login page and goes on when the reviewer approves from the mailed link (a real SMTP server
 * on loopback). Axe on each page.
 */
import type { Browser, Page } from '@playwright/test'
import { startSmtp, type TestSmtp } from '../../server/testing/smtp.ts'
import { expect, expectNoAxeViolations, test } from './fixtures.ts'
import { api, createLoginUser, login, unique, type Api } from './generic-support.ts'

const ORG_ADMIN = '00000000-0000-0000-0000-000000000005'
const ORG_USER = '00000000-0000-0000-0000-000000000007'

async function asUser(browser: Browser, baseURL: string | undefined, user: { username: string; password: string }, path: string): Promise<Page> {
  const ctx = await browser.newContext({ baseURL })
  const page = await ctx.newPage()
  await login(page, path, user)
  return page
}

test.describe('tickets', () => {
  let a: Api
  test.beforeEach(async ({ request }) => {
    a = await api(request)
  })

  test('an asset request approved in two levels shows in My assets', async ({ page, request, browser, baseURL }) => {
    const hostName = unique('tkt-host')
    const root = (await a.get('/api/v1/assets/nodes/?limit=1&order=key')).results[0].id as string
    const host = await a.post('/api/v1/assets/hosts/', { name: hostName, address: '10.77.0.1', platform: 1, nodes: [root], protocols: [{ name: 'ssh', port: 22 }] })
    await a.post('/api/v1/accounts/accounts/', { asset: host.id, username: 'root', secret_type: 'password', secret: 'pw' })
    const requester = await createLoginUser(a, request, [ORG_USER])
    const boss = await createLoginUser(a, request, [ORG_ADMIN])
    const second = await createLoginUser(a, request, [ORG_USER])
    const flow = (await a.get('/api/v1/tickets/flows/?effective=1'))[0]
    await a.patch(`/api/v1/tickets/flows/${flow.id}/`, { approval_level: 2, rules: [{ strategy: 'org_admin' }, { strategy: 'custom_user', assignees: [second.id] }] })

    // the requester asks for the host
    await login(page, '/tickets/my-tickets', requester)
    await expect(page.getByRole('heading', { name: 'My tickets' })).toBeVisible()
    await expectNoAxeViolations(page, 'my tickets')
    await page.getByRole('button', { name: 'Request asset permission' }).click()
    await expect(page.getByRole('heading', { name: 'Request asset permission' })).toBeVisible()
    const title = unique('need host')
    await page.getByRole('textbox', { name: 'Title' }).fill(title)
    const assets = page.getByRole('combobox', { name: 'Assets' })
    await assets.click()
    await assets.fill(hostName)
    await page.getByRole('option', { name: new RegExp(hostName) }).click()
    await page.keyboard.press('Escape')
    await expectNoAxeViolations(page, 'request form')
    await page.getByRole('button', { name: 'Submit' }).click()
    await expect(page.getByRole('heading', { name: title })).toBeVisible()
    await expect(page.getByText('Level 1: Pending')).toBeVisible()
    await expectNoAxeViolations(page, 'request detail')

    // level 1: the org admin, from the assigned tickets
    const p1 = await asUser(browser, baseURL, boss, '/tickets/assigned-tickets')
    await expect(p1.getByRole('heading', { name: 'Assigned tickets' })).toBeVisible()
    await expect(p1.getByRole('link', { name: title })).toBeVisible()
    await expectNoAxeViolations(p1, 'assigned tickets')
    await p1.getByRole('link', { name: title }).click()
    await expect(p1.getByRole('heading', { name: title })).toBeVisible()
    await expectNoAxeViolations(p1, 'assigned detail')
    await p1.getByRole('button', { name: 'Approve' }).click()
    await expect(p1.getByText('Level 1: Approved')).toBeVisible()
    await expect(p1.getByRole('button', { name: 'Approve' })).toHaveCount(0)

    // level 2: the named user
    const p2 = await asUser(browser, baseURL, second, '/tickets/assigned-tickets')
    await p2.getByRole('link', { name: title }).click()
    await p2.getByRole('button', { name: 'Approve' }).click()
    await expect(p2.getByText('Level 2: Approved')).toBeVisible()

    // the requester sees the host at once
    await page.goto('/ui/workbench/assets')
    await expect(page.getByText(hostName).first()).toBeVisible()
    await p1.context().close()
    await p2.context().close()
  })

  test('flows: the list and the editor (an organization edits its copy)', async ({ page }) => {
    await login(page, '/tickets/flow')
    await expect(page.getByRole('heading', { name: 'Ticket flows' })).toBeVisible()
    await expectNoAxeViolations(page, 'flows')
    await page.getByRole('link', { name: 'Apply for asset' }).click()
    await expect(page.getByRole('heading', { name: /Update ticket flow/ })).toBeVisible()
    await page.getByRole('radio', { name: 'One level' }).check()
    await page.getByRole('combobox', { name: 'Approve strategy' }).selectOption('super_org_admin')
    await expectNoAxeViolations(page, 'flow editor')
    await page.getByRole('button', { name: 'Save' }).click()
    await expect(page.getByRole('heading', { name: 'Ticket flows' })).toBeVisible()
    const flow = (await a.get('/api/v1/tickets/flows/?effective=1'))[0]
    expect(flow.org_id).toBe('00000000-0000-0000-0000-000000000002')
    expect(flow.rules.map((r: { strategy: { value: string } }) => r.strategy.value)).toEqual(['super_org_admin'])
  })

  test.describe('login confirm by mail', () => {
    let smtp: TestSmtp
    // an SMTP login of the test's own: the server keeps the one a spec before this may have saved (mail-ldap.spec.ts)
    test.beforeAll(async () => { smtp = await startSmtp({ user: 'ticket-mailer', password: 'ticket-smtp-secret' }) })
    test.afterAll(async ({ request }) => {
      await (await api(request)).patch('/api/v1/settings/setting/?category=email', { EMAIL_HOST: '', EMAIL_PORT: '25' })
      await smtp?.stop()
    })

    test('a login held for review goes on when the reviewer approves from the mailed link', async ({ page, request, browser, baseURL }) => {
      await a.patch('/api/v1/settings/setting/?category=email', {
        EMAIL_HOST: smtp.host, EMAIL_PORT: String(smtp.port), EMAIL_HOST_USER: 'ticket-mailer', EMAIL_HOST_PASSWORD: 'ticket-smtp-secret', EMAIL_USE_SSL: false, EMAIL_USE_TLS: false,
      })
      await a.patch('/api/v1/settings/setting/?category=basic', { SITE_URL: baseURL })
      const waiter = await createLoginUser(a, request, [ORG_USER])
      const reviewer = await createLoginUser(a, request, [ORG_USER])
      await a.post('/api/v1/acls/login-acls/', { name: unique('review'), user: waiter.id, action: 'review', reviewers: [reviewer.id] })

      await page.goto('/core/auth/login/?next=/ui/')
      await page.locator('input[name="username"]').fill(waiter.username)
      await page.locator('input[name="password"]').fill(waiter.password)
      await page.locator('input[name="password"]').press('Enter')
      await expect(page.getByRole('heading', { name: 'Waiting for approval' })).toBeVisible()
      await expect(page.getByText(reviewer.username)).toBeVisible()
      await expectNoAxeViolations(page, 'login waiting')

      // the reviewer's mails: "account created" first, then the ticket's
      let link: string | undefined
      while (!link) link = /https?:\/\/\S+\/tickets\/direct-approve\/[\w-]+\//.exec((await smtp.next(`${reviewer.username}@example.com`)).text)?.[0]
      const ctx = await browser.newContext()
      const approve = await ctx.newPage()
      await approve.goto(link!)
      await expectNoAxeViolations(approve, 'direct approve')
      await approve.getByRole('button', { name: 'Approve' }).click()
      await expect(approve.getByRole('status')).toContainText('approved')
      await ctx.close()

      await page.waitForURL((url) => url.pathname.startsWith('/ui/'))
    })
  })
})
