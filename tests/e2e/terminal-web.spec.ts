/**
 * The web terminal (issue 30), in real Chromium against the real server and a real OpenSSH server on loopback
 * (server/testing/sshd.ts): a user granted a host on the sshd logs in, My assets → Connect → "Open in the web
 * terminal" opens `/luna/connect?token=…` in a new tab, `echo` answers on the screen (xterm's DOM rows), a command
 * a command filter ACL blocks is refused on screen and never reaches the host, and an administrator finds the
 * session, its commands and its replay in the audit view. The `/luna/` page itself: its asset tree opens a second
 * session in a tab, axe passes, and it is looked at 1440 and 360 px wide.
 */
import { spawn } from 'node:child_process'
import type { Page, WebSocketRoute } from '@playwright/test'
import { adminToken, expect, expectNoAxeViolations, test } from './fixtures.ts'
import { api, login as adminLogin, results, row, unique } from './generic-support.ts'
import { login, PASSWORD, profileId } from './shell-helpers.ts'
import { useLoopbackHost } from './support/loopback-host.ts'

const host = useLoopbackHost()

/** The text xterm shows (its DOM renderer's rows). */
const screen = (page: Page) => page.locator('[data-terminal-phase]:visible .xterm-rows')

/** Pastes text into the visible terminal as the browser does (a paste event with the clipboard's text). */
async function paste(page: Page, text: string): Promise<void> {
  await page.locator('[data-terminal-phase]:visible .xterm-helper-textarea').evaluate((el, value) => {
    const data = new DataTransfer()
    data.setData('text/plain', value)
    el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }))
  }, text)
}

/** Types a line into the visible terminal. */
async function typeLine(page: Page, text: string): Promise<void> {
  await page.locator('[data-terminal-phase]:visible .xterm-helper-textarea').focus()
  await page.keyboard.type(text)
  await page.keyboard.press('Enter')
}

/** Runs `ssh <args>` (Debian's OpenSSH through sshpass, on a PTY), types `line` and `exit`; answers the output. */
function sshThrough(args: string[], password: string, line: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('sshpass', ['-p', password, 'ssh', '-tt', '-o', 'StrictHostKeyChecking=no', '-o', 'UserKnownHostsFile=/dev/null',
      '-o', 'LogLevel=ERROR', '-o', 'ConnectTimeout=10', ...args], { stdio: ['pipe', 'pipe', 'pipe'] })
    let output = ''
    let typed = false
    const take = (d: Buffer) => {
      output += d.toString('utf8')
      // the shell's prompt: type the line, then leave
      if (!typed && /\$ $/.test(output)) {
        typed = true
        child.stdin.write(`${line}\rexit\r`)
      }
    }
    child.stdout.on('data', take)
    child.stderr.on('data', take)
    child.on('error', reject)
    child.on('exit', () => resolve(output))
  })
}

test('My assets → Connect → web terminal: echo answers, a blocked command is refused, the audit shows the session, its commands and its replay', async ({ page, browser, request }) => {
  const a = await api(request)
  const tag = unique('tw')
  const { hostName, username } = await host.granted(a, request, tag, ['connect', 'copy', 'paste'])
  const marker = `/tmp/${tag}-kept`
  const group = await a.post('/api/v1/acls/command-groups/', { name: `${tag}-danger`, content: 'rm -rf' }) as { id: string }
  await a.post('/api/v1/acls/command-filter-acls/', {
    name: `${tag}-no-rm`, users: { username_group: [username] }, assets: { name_group: [hostName] }, accounts: { username_group: ['*'] },
    command_groups: [group.id], action: 'reject',
  })

  const ctx = await browser.newContext()
  const user = await ctx.newPage()
  await login(user, username, PASSWORD, '/ui/workbench/assets')
  await user.getByRole('button', { name: `Connect to ${hostName}` }).click()
  const dialog = user.getByRole('dialog')
  await dialog.getByRole('checkbox', { name: /Reusable/ }).check()
  await dialog.getByRole('button', { name: 'Create connection token' }).click()
  // the real ssh command of the gateway, with its copy button; Debian's ssh runs it with the token as the password
  const command = dialog.locator('[data-ssh-command]')
  await expect(command).toHaveValue(/^ssh JMS-[\w-]+@127\.0\.0\.1 -p \d+$/)
  await expect(dialog.getByRole('button', { name: 'Copy the SSH command' })).toBeEnabled()
  const viaGateway = await sshThrough((await command.inputValue()).split(' ').slice(1), await dialog.locator('[data-token-value]').inputValue(), 'echo via-gateway-$((6*7))')
  expect(viaGateway).toContain('via-gateway-42')
  await expectNoAxeViolations(user, 'connect dialog with the token')
  const opened = ctx.waitForEvent('page')
  await dialog.getByRole('button', { name: 'Open in the web terminal' }).click()
  const term = await opened
  await expect(term).toHaveURL(/\/luna\/connect\?token=[\w-]+$/)
  await expect(term.locator('[data-terminal-phase="open"]')).toBeVisible({ timeout: 30_000 })
  await expect(term.getByRole('tab', { name: new RegExp(hostName) })).toBeVisible()

  // Each command's output differs from its echo (`$((6*7))` prints 42), so what is awaited is the host's answer,
  // and the next command is typed at the prompt.
  await typeLine(term, `echo hello-$((6*7))-${tag}`)
  await expect(screen(term)).toContainText(`hello-42-${tag}`)
  await typeLine(term, `mkdir -p ${marker} && echo made-$((6*7))`)
  await expect(screen(term)).toContainText('made-42')
  // refused on screen, and it never reached the host: the directory is still there
  await typeLine(term, `rm -rf ${marker}`)
  await expect(term.locator('[data-terminal-notice]')).toBeVisible()
  await expect(screen(term)).toContainText(`Command "rm -rf ${marker}" was rejected`)
  if (process.env.E2E_SCREENSHOTS) await term.screenshot({ path: 'test-results/luna-refused.png' })
  await typeLine(term, `test -d ${marker} && echo still-$((6*7))`)
  await expect(screen(term)).toContainText('still-42')
  // paste is granted: pasted text reaches the host
  await expect(term.getByRole('button', { name: 'Paste' })).toBeEnabled()
  await paste(term, 'echo pasted-$((6*7))\r')
  await expect(screen(term)).toContainText('pasted-42')
  await expectNoAxeViolations(term, 'web terminal')

  // the user ends the session; the screen says so
  await term.getByRole('button', { name: 'End session' }).click()
  await expect(term.locator('[data-terminal-phase="closed"]')).toBeVisible()
  await expect(screen(term)).toContainText('You closed the session.')
  await term.getByRole('button', { name: 'Close tab' }).click()
  await expect(term.getByRole('tab')).toHaveCount(0)
  await ctx.close()

  // The audit view: the session (web terminal), its commands, its replay (stored once the session has ended).
  // (two sessions on the host: the ssh command's through the gateway, and the web terminal's)
  const sessionOf = async () => (results(await a.get(`/api/v1/terminal/sessions/?search=${encodeURIComponent(hostName)}`)) as Record<string, any>[])
    .find((x) => x.login_from?.value === 'WT')
  await expect.poll(async () => (await sessionOf())?.has_replay, { timeout: 30_000 }).toBe(true)
  expect(await sessionOf()).toMatchObject({ protocol: 'ssh', login_from: { value: 'WT' }, is_finished: true })
  await adminLogin(page, '/audit/sessions/sessions')
  const webRow = row(page, hostName).filter({ hasText: 'Web Terminal' })
  await expect(webRow).toBeVisible()
  await webRow.getByRole('link').first().click()
  await page.getByRole('tab', { name: 'Commands' }).click()
  await expect(page.getByText(`echo hello-$((6*7))-${tag}`)).toBeVisible()
  await expect(page.getByText(`rm -rf ${marker}`)).toBeVisible()
  await page.getByRole('tab', { name: 'Replay' }).click()
  const player = page.getByTestId('replay-player')
  await expect(player).toContainText(`hello-42-${tag}`, { timeout: 15_000 })
})

test('/luna/: the asset tree opens sessions in tabs; axe; 1440 and 360 px wide', async ({ browser, request }) => {
  const a = await api(request)
  const tag = unique('tl')
  // granted without paste
  const { hostName, username } = await host.granted(a, request, tag, ['connect', 'copy'])
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } })
  const page = await ctx.newPage()
  // Every terminal websocket goes through Playwright (to the real server), so the test can drop one as a network
  // would; while `hold` is set a new one is left unanswered.
  const sockets: WebSocketRoute[] = []
  let hold = false
  await page.routeWebSocket(/\/ws\/terminal\/$/, (ws) => {
    sockets.push(ws)
    if (!hold) ws.connectToServer()
  })
  await login(page, username, PASSWORD, '/ui/workbench/assets')
  await page.goto('/luna/')
  await expect(page.getByRole('heading', { name: 'Web terminal' })).toBeVisible()
  await expect(page.getByRole('tree', { name: 'My asset tree' })).toBeVisible()
  const assets = page.getByRole('list', { name: 'Assets' })
  await expect(assets.getByRole('button', { name: new RegExp(hostName) })).toBeVisible()
  await expectNoAxeViolations(page, 'web terminal, no session')
  if (process.env.E2E_SCREENSHOTS) await page.screenshot({ path: 'test-results/luna-1440-empty.png' })

  // Two sessions on the same host, in two tabs; each answers on its own screen.
  for (const n of [1, 2]) {
    await assets.getByRole('button', { name: new RegExp(hostName) }).click()
    await expect(page.getByRole('tab')).toHaveCount(n)
    await expect(page.locator('[data-terminal-phase="open"]:visible')).toBeVisible({ timeout: 30_000 })
    await typeLine(page, `echo tab$((${n}*7))-${tag}`)
    await expect(screen(page)).toContainText(`tab${n * 7}-${tag}`)
  }
  // paste is not granted: the button is off, and a paste never reaches the host (what is typed does)
  await expect(page.getByRole('button', { name: 'Paste' })).toBeDisabled()
  await expect(page.getByRole('button', { name: 'Copy the selection' })).toBeEnabled()
  await paste(page, 'echo pasted-$((6*7))\r')
  await typeLine(page, 'echo typed-$((6*7))')
  await expect(screen(page)).toContainText('typed-42')
  await expect(screen(page)).not.toContainText('pasted')

  // The second tab's websocket drops: "Reconnecting…" while the re-attach is unanswered, then the same session is
  // back with its screen restored, and answers.
  expect(sockets).toHaveLength(2)
  hold = true
  await sockets[1]!.close({ code: 4000, reason: 'network' })
  await expect(page.locator('[data-terminal-phase="reconnecting"]:visible')).toBeVisible()
  await expect(page.locator('[data-terminal-status]:visible')).toHaveText('Reconnecting…')
  await expect.poll(() => sockets.length).toBe(3)
  hold = false
  await sockets[2]!.close({ code: 4000, reason: 'network' })
  await expect(page.locator('[data-terminal-phase="open"]:visible')).toBeVisible({ timeout: 30_000 })
  expect(sockets).toHaveLength(4)
  await expect(screen(page)).toContainText(`tab14-${tag}`)
  await typeLine(page, `echo back-$((6*7))`)
  await expect(screen(page)).toContainText('back-42')

  await page.getByRole('tab').first().click()
  await expect(screen(page)).toContainText(`tab7-${tag}`)
  await expect(screen(page)).not.toContainText(`tab14-${tag}`)

  // font size and theme
  const size = await page.locator('[data-terminal-phase]:visible .xterm-rows').evaluate((el) => getComputedStyle(el).fontSize)
  await page.getByRole('button', { name: 'Larger font' }).click()
  await expect.poll(() => page.locator('[data-terminal-phase]:visible .xterm-rows').evaluate((el) => getComputedStyle(el).fontSize)).not.toBe(size)
  await expectNoAxeViolations(page, 'web terminal, two sessions')
  if (process.env.E2E_SCREENSHOTS) await page.screenshot({ path: 'test-results/luna-1440.png' })
  await page.getByRole('button', { name: 'Dark theme' }).click()
  await expect(page.getByRole('button', { name: 'Light theme' })).toBeVisible()
  await expectNoAxeViolations(page, 'web terminal, dark')
  if (process.env.E2E_SCREENSHOTS) await page.screenshot({ path: 'test-results/luna-1440-dark.png' })

  // 360 px: the tree covers the terminal while shown; the toolbar's button hides and shows it
  await page.setViewportSize({ width: 360, height: 740 })
  await expect(page.getByRole('tree', { name: 'My asset tree' })).toBeVisible()
  await expectNoAxeViolations(page, 'web terminal at 360 px, tree shown')
  if (process.env.E2E_SCREENSHOTS) await page.screenshot({ path: 'test-results/luna-360-tree.png' })
  await page.getByRole('button', { name: 'Asset tree' }).click()
  await expect(page.getByRole('tree', { name: 'My asset tree' })).toHaveCount(0)
  await expect(screen(page)).toContainText(`tab7-${tag}`)
  await expectNoAxeViolations(page, 'web terminal at 360 px')
  if (process.env.E2E_SCREENSHOTS) await page.screenshot({ path: 'test-results/luna-360.png' })
  await ctx.close()
})

test('the built-in inspector in /luna/: the tab\'s terminal machine, live, for an administrator; none for a user', async ({ page, browser, request }) => {
  const a = await api(request)
  const tag = unique('ti')
  const { hostName, username } = await host.granted(a, request, tag, ['connect'])
  await a.post('/api/v1/perms/asset-permissions/', { name: `${tag}-admin`, users: [await profileId(request, await adminToken(request))], assets: [(await a.get(`/api/v1/assets/hosts/?name=${hostName}`) as { id: string }[])[0]!.id], accounts: ['@ALL'], actions: ['connect'] })

  await adminLogin(page, '/')
  await page.goto('/luna/?inspect')
  const inspector = page.getByRole('complementary', { name: 'State inspector' })
  await expect(inspector).toBeVisible()
  await page.getByRole('list', { name: 'Assets' }).getByRole('button', { name: new RegExp(hostName) }).click()
  await expect(page.locator('[data-terminal-phase="open"]')).toBeVisible({ timeout: 30_000 })
  await inspector.locator('[data-actor="terminal"]').click()
  await expect(inspector.locator('[data-current-state]')).toHaveText('open')

  // a user without the inspector's permission gets none
  const ctx = await browser.newContext()
  const user = await ctx.newPage()
  await login(user, username, PASSWORD, '/ui/workbench/assets')
  await user.goto('/luna/?inspect')
  await expect(user.getByRole('tree', { name: 'My asset tree' })).toBeVisible()
  await expect(user.getByRole('complementary', { name: 'State inspector' })).toHaveCount(0)
  await ctx.close()
})

test('/luna/ under a login review: the tab waits naming the reviewer, opens once approved, says who rejected, and Cancel closes the ticket', async ({ browser, request }) => {
  const a = await api(request)
  const tag = unique('tr')
  const { hostName, username } = await host.granted(a, request, tag, ['connect'])
  const token = await adminToken(request)
  const adminId = await profileId(request, token)
  const adminName = (await a.get('/api/v1/users/profile/') as { name: string }).name
  await a.post('/api/v1/acls/login-asset-acls/', {
    name: `${tag}-review`, priority: 1, action: 'review', reviewers: [adminId],
    users: { username_group: [username] }, assets: { name_group: [hostName], address_group: ['*'] }, accounts: { username_group: ['*'] },
  })
  const decide = async (ticket: string, action: 'approve' | 'reject') => {
    const r = await request.put(`/api/v1/tickets/apply-login-asset-tickets/${ticket}/${action}/`, { headers: { Authorization: `Bearer ${token}` } })
    expect(r.status(), await r.text()).toBe(200)
  }
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } })
  const page = await ctx.newPage()
  await login(page, username, PASSWORD, '/ui/workbench/assets')
  await page.goto('/luna/')
  const assets = page.getByRole('list', { name: 'Assets' })
  const status = page.locator('[data-terminal-phase]:visible [data-terminal-status]')
  /** Opens a tab on the host and answers the ticket it waits on. */
  const waitingTab = async (n: number) => {
    await assets.getByRole('button', { name: new RegExp(hostName) }).click()
    await expect(page.getByRole('tab')).toHaveCount(n)
    await expect(page.locator('[data-terminal-phase="waiting"]:visible')).toBeVisible({ timeout: 30_000 })
    await expect(status).toContainText(`Waiting for approval by ${adminName}`)
    const ticket = /ticket ([0-9a-f-]{36})/.exec(await status.innerText())![1]!
    return ticket
  }

  // approved through the API: the same tab goes on to the host
  const first = await waitingTab(1)
  await expect(page.getByRole('button', { name: 'Cancel' })).toBeVisible()
  await expectNoAxeViolations(page, 'web terminal waiting for approval')
  if (process.env.E2E_SCREENSHOTS) await page.screenshot({ path: 'test-results/luna-1440-waiting.png' })
  await decide(first, 'approve')
  await expect(page.locator('[data-terminal-phase="open"]:visible')).toBeVisible({ timeout: 30_000 })
  await typeLine(page, `echo reviewed-$((4*4))-${tag}`)
  await expect(screen(page)).toContainText(`reviewed-16-${tag}`)

  // rejected: the tab fails and says who rejected
  const second = await waitingTab(2)
  await decide(second, 'reject')
  await expect(page.locator('[data-terminal-phase="failed"]:visible')).toBeVisible({ timeout: 30_000 })
  await expect(status).toContainText(`The login was rejected by ${adminName}.`)

  // cancelled by the user: the tab ends and the ticket is closed
  const third = await waitingTab(3)
  await page.getByRole('button', { name: 'Cancel' }).click()
  await expect(page.locator('[data-terminal-phase="closed"]:visible')).toBeVisible()
  await expect.poll(async () => (await a.get(`/api/v1/tickets/apply-login-asset-tickets/${third}/`) as { status: { value: string } }).status.value).toBe('closed')
  await ctx.close()
})
