/** Shared set-up of the UI model specs: sessions through the real login page, users through the real API. */
import type { Browser, BrowserContext, Page } from '@playwright/test'
import { test } from '../fixtures.ts'
import { login } from '../shell-helpers.ts'
import { runPath, uiPaths, unmapped, type Path, type UiModel } from './ui-model.ts'

export const LIST = '/ui/console/users/users'

export interface Session {
  context: BrowserContext
  page: Page
  downloads: number
}

/**
 * A fresh browser session logged in through the login page (each has its own server session). `clock`: the page
 * runs on Playwright's clock (installed before the first load; time flows until a test pauses it).
 */
export async function newSession(browser: Browser, baseURL: string, username: string, password: string, opts: { clock?: boolean } = {}): Promise<Session> {
  const context = await browser.newContext({ baseURL, acceptDownloads: true })
  if (opts.clock) await context.clock.install()
  const page = await context.newPage()
  const session: Session = { context, page, downloads: 0 }
  page.on('download', () => {
    session.downloads += 1
  })
  await login(page, username, password, LIST)
  return session
}

/**
 * One test per machine: the mapping check first (no browser), then every path in order. A failing path fails
 * the test with the path and the step in the message.
 */
export async function runModel<C>(model: UiModel<C>, ctx: C, paths: Path[] = uiPaths(model)): Promise<number> {
  const missing = unmapped(model, paths)
  if (missing.length > 0) throw new Error(`the UI model of ${model.machine.id} does not know: ${missing.join(', ')}`)
  for (const path of paths) {
    await test.step(pathTitle(path), () => runPath(model, ctx, path))
  }
  return paths.length
}

const pathTitle = (path: Path) =>
  path.steps.slice(1).map((step) => step.event.type.replace(/^xstate\.(done|error)\.actor\./, '$1 ')).join(' → ') || '(initial)'
