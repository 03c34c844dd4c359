/**
 * The UI model tests must fail when a machine changes and the UI does not follow. A copy of the confirm machine
 * has one transition redirected (a refused password now "confirms"); its paths, performed against the real
 * console (which runs the real machine), fail at the step where the page does not show what the changed
 * machine says. A transition to a state the UI model does not know fails even before the browser opens.
 */
import { createMachine, type AnyStateMachine } from 'xstate'
import { confirmMachine } from '../../../machines/confirm/confirm.machine.ts'
import { ADMIN, expect, test } from '../fixtures.ts'
import { readyAdmin } from '../shell-helpers.ts'
import { confirmUiModel, type ConfirmCtx } from './confirm.ui.ts'
import { newSession } from './support.ts'
import { runPath, uiPaths, unmapped } from './ui-model.ts'

/** The machine with the transition at `path` (inside the config) sent to `target` instead. */
function redirect(machine: AnyStateMachine, path: readonly string[], target: string): AnyStateMachine {
  const patch = (node: Record<string, unknown>, rest: readonly string[]): Record<string, unknown> =>
    rest.length === 0 ? { ...node, target } : { ...node, [rest[0]!]: patch(node[rest[0]!] as Record<string, unknown>, rest.slice(1)) }
  const config = patch(machine.config as unknown as Record<string, unknown>, path)
  return createMachine(config as never, machine.implementations as never) as unknown as AnyStateMachine
}

const SUBMIT_REFUSED = ['states', 'verifying', 'states', 'form', 'states', 'submitting', 'invoke', 'onError']

test.describe('a machine the UI does not follow', () => {
  test.describe.configure({ timeout: 120_000 })

  test('a redirected transition fails the UI model test at the step the page contradicts', async ({ browser, request, baseURL }) => {
    const model = { ...confirmUiModel(), machine: redirect(confirmMachine, SUBMIT_REFUSED, '#confirm.done') }
    const paths = uiPaths(model).filter((path) => path.steps.some((step) => step.event.type === 'xstate.error.actor.submitConfirm'))
    expect(paths.length).toBeGreaterThan(0)
    expect(unmapped(model, paths)).toEqual([])
    await readyAdmin(request)
    const ctx: ConfirmCtx = { open: () => newSession(browser, baseURL!, ADMIN.username, ADMIN.password), session: null, confirmed: false }
    try {
      await expect(runPath(model, ctx, paths[0]!)).rejects.toThrow(/the page does not show state "done" after step \d+ \(error submitConfirm/)
      // the unchanged machine passes the same path
      const intact = confirmUiModel()
      const same = uiPaths(intact).find((path) => path.steps.some((step) => step.event.type === 'xstate.error.actor.submitConfirm'))!
      await runPath(intact, ctx, same)
    } finally {
      await ctx.session?.context.close()
    }
  })

  test('a transition to a state the UI model does not know fails before any browser work', () => {
    const model = { ...confirmUiModel(), machine: redirect(confirmMachine, SUBMIT_REFUSED, '#confirm.failed') }
    expect(unmapped(model, uiPaths(model))).toContain('state failed')
  })
})
