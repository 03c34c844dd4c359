/**
 * Live sessions (issue 31), in real Chromium against the real server and a real sshd: an auditor monitors a user's
 * web-terminal session from Audit → Sessions, inside the console (the screen so far, then live; xterm loaded only
 * then) and in a window of its own, and terminates it — the user's screen says so; a user shares their session with a writable link, the invitee opens it in /luna/, gives the verify code
 * and types into the session, and the owner sees them and removes them. Refusals: a user who is not an auditor has
 * no Monitor, and a wrong code is refused. axe on the new views; keyboard for the share dialog and the join form.
 */
import type { Page } from '@playwright/test'
import { adminToken, expect, expectNoAxeViolations, test } from './fixtures.ts'
import { api, results, row, rowAction, confirmDialog, unique } from './generic-support.ts'
import { createUser, finishFirstLogin, login, PASSWORD, ROLES } from './shell-helpers.ts'
import { useLoopbackHost } from './support/loopback-host.ts'

const host = useLoopbackHost()

async function newUser(request: Parameters<typeof adminToken>[0], username: string, roles: string[]) {
  const id = await createUser(request, await adminToken(request), username, roles)
  await finishFirstLogin(request, username, PASSWORD)
  return id
}

const userScreen = (page: Page) => page.locator('[data-terminal-phase]:visible .xterm-rows')
const liveScreen = (page: Page) => page.locator('[data-live-screen] .xterm-rows')

async function typeLine(page: Page, text: string): Promise<void> {
  await page.locator('[data-terminal-phase]:visible .xterm-helper-textarea').focus()
  await page.keyboard.type(text)
  await page.keyboard.press('Enter')
}

/** The user's web terminal on the host, open at the shell's prompt. */
async function openTerminal(page: Page, username: string, hostName: string) {
  await login(page, username, PASSWORD, '/ui/workbench/assets')
  await page.goto('/luna/')
  await page.getByRole('list', { name: 'Assets' }).getByRole('button', { name: new RegExp(hostName) }).click()
  await expect(page.locator('[data-terminal-phase="open"]:visible')).toBeVisible({ timeout: 30_000 })
  await expect(userScreen(page)).toContainText('$')
}

test('an auditor monitors a live web-terminal session, then terminates it: the user\'s screen says so', async ({ browser, request }) => {
  test.slow() // two browser contexts and a live terminal in each
  const a = await api(request)
  const tag = unique('lm')
  const { hostName, username } = await host.granted(a, request, tag, ['connect', 'copy', 'paste'])
  const auditorName = `${tag}-auditor`
  await newUser(request, auditorName, [ROLES.OrgAuditor])

  const userCtx = await browser.newContext({ viewport: { width: 1440, height: 900 } })
  const user = await userCtx.newPage()
  await openTerminal(user, username, hostName)
  await typeLine(user, `echo before-$((6*7))-${tag}`)
  await expect(userScreen(user)).toContainText(`before-42-${tag}`)

  // a user who is not an auditor: no sessions to see, no monitor
  const sessions = results(await a.get(`/api/v1/terminal/sessions/?search=${encodeURIComponent(hostName)}&is_finished=0`)) as Array<{ id: string }>
  expect(sessions).toHaveLength(1)

  const auditorCtx = await browser.newContext({ viewport: { width: 1440, height: 900 } })
  const auditor = await auditorCtx.newPage()
  // xterm is loaded when the monitor opens, not before (the list and the detail's other tabs do without it)
  const xtermLoads: string[] = []
  auditor.on('request', (r) => {
    if (/\/assets\/xterm-[\w-]+\.js$/.test(new URL(r.url()).pathname)) xtermLoads.push(r.url())
  })
  await login(auditor, auditorName, PASSWORD, '/ui/audit/sessions/sessions?tab=online')
  await expect(row(auditor, hostName)).toBeVisible()
  expect(xtermLoads).toEqual([])
  // Monitor opens the live view inside the console: the session detail, on its Monitor tab
  await rowAction(auditor, hostName, 'Monitor')
  await expect(auditor).toHaveURL(new RegExp(`/ui/audit/sessions/sessions/${sessions[0]!.id}\\?.*activeTab=Monitor`))
  await expect(auditor.getByRole('tab', { name: 'Monitor', selected: true })).toBeVisible()
  // the screen so far, then what comes
  await expect(liveScreen(auditor)).toContainText(`before-42-${tag}`, { timeout: 20_000 })
  await expect(auditor.locator('[data-live-status]')).toContainText('Monitoring the session of')
  expect(xtermLoads).toHaveLength(1)
  await typeLine(user, `echo during-$((7*7))-${tag}`)
  await expect(liveScreen(auditor)).toContainText(`during-49-${tag}`)
  // read-only: what the auditor types goes nowhere
  await auditor.locator('[data-live-screen] .xterm-helper-textarea').focus()
  await auditor.keyboard.type('echo auditor-typed\n')
  // the keyboard leaves the read-only screen with Tab
  await auditor.keyboard.press('Tab')
  await expect(auditor.getByRole('link', { name: 'Open in a window of its own' })).toBeFocused()
  await expectNoAxeViolations(auditor, 'session monitor in the console')
  if (process.env.E2E_SCREENSHOTS) {
    await auditor.screenshot({ path: 'test-results/live-monitor-1440.png' })
    await auditor.setViewportSize({ width: 360, height: 740 })
    await expect(liveScreen(auditor)).toContainText(`during-49-${tag}`)
    await auditor.screenshot({ path: 'test-results/live-monitor-360.png' })
    await auditor.setViewportSize({ width: 1440, height: 900 })
  }

  // the same view in a window of its own (the web terminal's /luna/monitor/<id>/, which lina opens)
  const opened = auditorCtx.waitForEvent('page')
  await auditor.getByRole('link', { name: 'Open in a window of its own' }).click()
  const monitor = await opened
  await expect(monitor).toHaveURL(new RegExp(`/luna/monitor/${sessions[0]!.id}/$`))
  await expect(liveScreen(monitor)).toContainText(`during-49-${tag}`, { timeout: 20_000 })
  await expectNoAxeViolations(monitor, 'session monitor window')
  await typeLine(user, `echo after-$((8*8))-${tag}`)
  for (const p of [auditor, monitor]) await expect(liveScreen(p)).toContainText(`after-64-${tag}`)
  await expect(userScreen(user)).not.toContainText('auditor-typed')

  // Terminate, from the session's detail where the auditor watches
  await auditor.getByRole('button', { name: 'Terminate' }).click()
  await confirmDialog(auditor, 'Terminate')
  await expect(auditor.getByText('The session is being terminated')).toBeVisible()
  await expect(user.locator('[data-terminal-phase="closed"]')).toBeVisible({ timeout: 10_000 })
  await expect(userScreen(user)).toContainText('terminated by')
  await expect(user.locator('[data-terminal-status]')).toContainText('terminated by')
  for (const p of [auditor, monitor]) await expect(p.locator('[data-live-status]')).toContainText('The session was terminated.')
  // recorded in the session's detail and in the operate log
  await expect.poll(async () => (await a.get(`/api/v1/terminal/sessions/${sessions[0]!.id}/`) as { comment: string }).comment).toContain(`Terminated by ${auditorName}`)
  const logs = (results(await a.get('/api/v1/audits/operate-logs/?action=terminate&limit=100')) as Array<{ user: string; resource: string }>)
    .filter((l) => l.resource.includes(hostName))
  expect(logs).toEqual([expect.objectContaining({ user: expect.stringContaining(auditorName) })])
  // finished: the list's Replay command opens the detail on its Replay tab (the Monitor tab is gone with the session)
  await auditor.goto('/ui/audit/sessions/sessions?tab=offline')
  await rowAction(auditor, hostName, 'Replay')
  await expect(auditor.getByRole('tab', { name: 'Replay', selected: true })).toBeVisible()
  await expect(auditor.getByRole('tab', { name: 'Monitor' })).toHaveCount(0)
  await userCtx.close()
  await auditorCtx.close()
})

test('a writable share: the invitee joins from the link with the code and types into the session; the owner removes them', async ({ browser, request }) => {
  test.slow() // three browser contexts, two sessions' worth of screens, axe three times
  const a = await api(request)
  await a.patch('/api/v1/settings/setting/?category=security', { SECURITY_SESSION_SHARE: true })
  const tag = unique('ls')
  const { hostName, username } = await host.granted(a, request, tag, ['connect', 'copy', 'paste', 'share'])
  const joinerName = `${tag}-joiner`
  await newUser(request, joinerName, [ROLES.OrgUser])

  const ownerCtx = await browser.newContext({ viewport: { width: 1440, height: 900 } })
  await ownerCtx.grantPermissions(['clipboard-read', 'clipboard-write'])
  const owner = await ownerCtx.newPage()
  await openTerminal(owner, username, hostName)
  await typeLine(owner, `echo owner-$((5*5))-${tag}`)
  await expect(userScreen(owner)).toContainText(`owner-25-${tag}`)

  // share with the joiner, writable, 10 minutes — with the keyboard
  await owner.getByRole('button', { name: 'Share' }).click()
  const dialog = owner.getByRole('dialog', { name: 'Share the session' })
  await expect(dialog).toBeVisible()
  await dialog.getByRole('radio', { name: 'Writable' }).check()
  const users = dialog.getByRole('combobox', { name: 'Users' })
  await users.click()
  await users.pressSequentially(joinerName)
  await owner.getByRole('menuitemcheckbox', { name: new RegExp(joinerName) }).click()
  await expect(dialog.getByText(`Shared with: ${joinerName}(${joinerName})`)).toBeVisible()
  await users.press('Tab')
  await expectNoAxeViolations(owner, 'share dialog')
  await dialog.getByRole('button', { name: 'Create the link' }).focus()
  await owner.keyboard.press('Enter')
  const link = await dialog.locator('[data-share-link]').inputValue()
  const code = await dialog.locator('[data-share-code]').inputValue()
  expect(link).toMatch(/\/luna\/share\/[0-9a-f-]{36}\/$/)
  expect(code).toMatch(/^[A-Za-z0-9]{4}$/)
  if (process.env.E2E_SCREENSHOTS) await owner.screenshot({ path: 'test-results/live-share-1440.png' })

  // the invitee: a wrong code is refused, the right one joins; what they type runs on the host
  const joinerCtx = await browser.newContext({ viewport: { width: 360, height: 740 } })
  const joiner = await joinerCtx.newPage()
  await login(joiner, joinerName, PASSWORD, '/ui/workbench/assets')
  await joiner.goto(new URL(link).pathname)
  await expect(joiner.getByRole('heading', { name: 'Join a shared session' })).toBeVisible()
  await expectNoAxeViolations(joiner, 'join form')
  const codeInput = joiner.getByRole('textbox', { name: /Verify code/ })
  await codeInput.fill(code === 'aaaa' ? 'bbbb' : 'aaaa')
  await codeInput.press('Enter')
  await expect(joiner.getByText('Invalid verification code')).toBeVisible()
  await codeInput.fill(code)
  await codeInput.press('Enter')
  await expect(liveScreen(joiner)).toContainText(`owner-25-${tag}`, { timeout: 20_000 })
  await expect(joiner.locator('[data-live-status]')).toContainText('you can type')
  if (process.env.E2E_SCREENSHOTS) await joiner.screenshot({ path: 'test-results/live-join-360.png' })
  await joiner.locator('[data-live-screen] .xterm-helper-textarea').focus()
  await joiner.keyboard.type(`echo joined-$((6*7))-${tag}`)
  await joiner.keyboard.press('Enter')
  await expect(userScreen(owner)).toContainText(`joined-42-${tag}`)
  await expect(liveScreen(joiner)).toContainText(`joined-42-${tag}`)
  await expectNoAxeViolations(joiner, 'joined session')

  // the owner sees who joined and removes them
  await expect(dialog.getByText(new RegExp(`${joinerName}\\(${joinerName}\\) · Writable`))).toBeVisible()
  await dialog.getByRole('button', { name: `Remove ${joinerName}(${joinerName})` }).click()
  await expect(joiner.locator('[data-live-status]')).toContainText('The session owner removed you from the session.')
  await expect(dialog.getByText('Nobody has joined.')).toBeVisible()
  // the join is recorded
  const sessions = results(await a.get(`/api/v1/terminal/sessions/?search=${encodeURIComponent(hostName)}&is_finished=0`)) as Array<{ id: string }>
  const records = results(await a.get(`/api/v1/terminal/session-join-records/?session=${sessions[0]!.id}`)) as Array<{ is_success: boolean; is_finished: boolean; reason: string }>
  expect(records.map((r) => [r.is_success, r.is_finished]).sort()).toEqual([[false, false], [true, true]])
  await dialog.getByRole('button', { name: 'Close' }).click()
  await ownerCtx.close()
  await joinerCtx.close()
})
