// @vitest-environment node

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createActor, fromCallback } from 'xstate'
import { MODEL_TEST_TIMEOUT, walkShortestPaths } from '../testing/model-walk.ts'
import { RESUME_WINDOW_MS, retryDelay, terminalMachine } from './terminal.machine.ts'
import type { TerminalSessionInfo, TerminalSocketCommand, TerminalSocketEvent } from './terminal.types.ts'

const SESSION: TerminalSessionInfo = {
  id: 's1',
  asset: { id: 'a1', name: 'web-1', address: '127.0.0.1' },
  account: { id: 'c1', name: 'root', username: 'root' },
  user: 'Alice(alice)',
  protocol: 'ssh',
  resume: 'r1',
  actions: { copy: true, paste: false, upload: false, download: false, share: false },
  idle_timeout: 1800,
  max_duration: 86400,
}
const SESSION_2 = { ...SESSION, resume: 'r2' }

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

/** A real actor whose socket records the commands and lets the test send frames back. */
function start() {
  const commands: TerminalSocketCommand[] = []
  let sendBack: ((event: TerminalSocketEvent) => void) | undefined
  const disposed = vi.fn()
  const machine = terminalMachine.provide({
    actors: {
      socket: fromCallback<TerminalSocketCommand, void, TerminalSocketEvent>(({ sendBack: back, receive }) => {
        sendBack = back
        receive((command) => commands.push(command))
        return disposed
      }),
    },
  })
  const actor = createActor(machine, { input: { token: 't1' } })
  const errors: unknown[] = []
  actor.subscribe({ error: (error) => errors.push(error) })
  actor.start()
  return { actor, commands, disposed, errors, frame: (event: TerminalSocketEvent) => sendBack!(event) }
}

describe('terminal machine — model', { timeout: MODEL_TEST_TIMEOUT }, () => {
  it('walks every shortest path', async () => {
    const result = await walkShortestPaths({
      machine: terminalMachine,
      inputs: [{ token: 't1' }],
      callbackActors: ['socket'],
      sentBy: {
        SESSION_INFO: 'socket', WAIT: 'socket', WAIT_END: 'socket', SERVER_ERROR: 'socket', SERVER_CLOSE: 'socket', DROPPED: 'socket',
      },
      events: [
        { type: 'SESSION_INFO', session: SESSION },
        { type: 'WAIT', wait: { reason: 'approval', ticket: 'k1', reviewers: ['admin'] } },
        { type: 'WAIT_END' },
        { type: 'SERVER_ERROR', problem: { code: 'command_rejected', message: 'Command rejected: rm' } },
        { type: 'SERVER_CLOSE', problem: { code: 'exit', message: 'The session ended' } },
        { type: 'DROPPED', code: 1006 },
        { type: 'CLOSE' },
        { type: 'RETRY_NOW' },
        { type: 'DISMISS_NOTICE' },
      ],
      // One drop and one failed attempt are enough for every state and transition; more only repeat them.
      filter: (snapshot, event) => snapshot.context.attempts < 2 && snapshot.context.restores < 2 &&
        !(event.type === 'SESSION_INFO' && snapshot.context.session !== null && snapshot.matches('open')),
      invariant: (snapshot) => {
        if (snapshot.matches('open')) expect(snapshot.context.session).not.toBeNull()
        if (snapshot.matches('reconnecting')) expect(snapshot.context.session?.resume).toBeTruthy()
        if (snapshot.matches('failed')) expect(snapshot.context.error).not.toBeNull()
        if (snapshot.matches('closed')) expect(snapshot.context.closed).not.toBeNull()
      },
    })
    expect(result.reached).toEqual(expect.arrayContaining([
      'terminal.starting.connecting', 'terminal.starting.waitingApproval', 'terminal.open',
      'terminal.reconnecting.pausing', 'terminal.reconnecting.attaching', 'terminal.closed', 'terminal.failed',
    ]))
  })
})

describe('terminal machine — scenarios', () => {
  it('connects on the token, opens on session-info, closes with a close frame when the user closes the tab', () => {
    const { actor, commands, disposed, frame, errors } = start()
    expect(commands).toEqual([{ type: 'CONNECT', token: 't1' }])
    frame({ type: 'SESSION_INFO', session: SESSION })
    expect(actor.getSnapshot().value).toBe('open')
    actor.send({ type: 'CLOSE' })
    expect(commands.at(-1)).toEqual({ type: 'CLOSE' })
    expect(actor.getSnapshot().status).toBe('done')
    expect(actor.getSnapshot().context.closed).toEqual({ code: 'user', message: '' })
    expect(disposed).toHaveBeenCalledTimes(1)
    expect(errors).toEqual([])
  })

  it('waits for approval, then opens', () => {
    const { actor, frame } = start()
    frame({ type: 'WAIT', wait: { reason: 'approval', ticket: 'k1', reviewers: ['admin'] } })
    expect(actor.getSnapshot().value).toEqual({ starting: 'waitingApproval' })
    expect(actor.getSnapshot().context.wait?.ticket).toBe('k1')
    frame({ type: 'WAIT_END' })
    frame({ type: 'SESSION_INFO', session: SESSION })
    expect(actor.getSnapshot().value).toBe('open')
    expect(actor.getSnapshot().context.wait).toBeNull()
  })

  it('fails with the server error before the session opens (no retry: nothing to resume)', () => {
    const { actor, frame, commands } = start()
    frame({ type: 'SERVER_ERROR', problem: { code: 'acl_rejected', message: 'Login refused by an ACL' } })
    expect(actor.getSnapshot().value).toBe('failed')
    expect(actor.getSnapshot().context.error).toEqual({ code: 'acl_rejected', message: 'Login refused by an ACL' })
    expect(commands).toHaveLength(1)
  })

  it('keeps the session open on a refused command', () => {
    const { actor, frame } = start()
    frame({ type: 'SESSION_INFO', session: SESSION })
    frame({ type: 'SERVER_ERROR', problem: { code: 'command_rejected', message: 'Command "rm" rejected' } })
    expect(actor.getSnapshot().value).toBe('open')
    expect(actor.getSnapshot().context.notice?.code).toBe('command_rejected')
    actor.send({ type: 'DISMISS_NOTICE' })
    expect(actor.getSnapshot().context.notice).toBeNull()
  })

  it('re-attaches with the resume key after a drop, backing off, and counts the restore', async () => {
    const { actor, frame, commands } = start()
    frame({ type: 'SESSION_INFO', session: SESSION })
    frame({ type: 'DROPPED', code: 1006 })
    expect(actor.getSnapshot().value).toEqual({ reconnecting: 'pausing' })
    await vi.advanceTimersByTimeAsync(retryDelay(0) - 1)
    expect(commands).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(commands.at(-1)).toEqual({ type: 'ATTACH', session: 's1', resume: 'r1' })
    frame({ type: 'DROPPED', code: 1006 })
    expect(actor.getSnapshot().context.attempts).toBe(1)
    await vi.advanceTimersByTimeAsync(retryDelay(1))
    expect(commands.filter((c) => c.type === 'ATTACH')).toHaveLength(2)
    frame({ type: 'SESSION_INFO', session: SESSION_2 })
    expect(actor.getSnapshot().value).toBe('open')
    expect(actor.getSnapshot().context).toMatchObject({ attempts: 0, restores: 1, session: { resume: 'r2' } })
    // the next drop uses the new key
    frame({ type: 'DROPPED' })
    actor.send({ type: 'RETRY_NOW' })
    expect(commands.at(-1)).toEqual({ type: 'ATTACH', session: 's1', resume: 'r2' })
  })

  it('gives up when the server no longer knows the session', async () => {
    const { actor, frame } = start()
    frame({ type: 'SESSION_INFO', session: SESSION })
    frame({ type: 'DROPPED' })
    actor.send({ type: 'RETRY_NOW' })
    frame({ type: 'SERVER_ERROR', problem: { code: 'session_not_found', message: 'The session is over' } })
    expect(actor.getSnapshot().value).toBe('failed')
    expect(actor.getSnapshot().context.error?.code).toBe('session_not_found')
  })

  it('gives up 60 s after the drop, however many attempts', async () => {
    const { actor, frame, commands } = start()
    frame({ type: 'SESSION_INFO', session: SESSION })
    frame({ type: 'DROPPED' })
    for (let elapsed = 0; elapsed < RESUME_WINDOW_MS - 1000; elapsed += 500) {
      await vi.advanceTimersByTimeAsync(500)
      if (actor.getSnapshot().matches({ reconnecting: 'attaching' })) frame({ type: 'DROPPED' })
    }
    expect(actor.getSnapshot().matches('reconnecting')).toBe(true)
    await vi.advanceTimersByTimeAsync(1000)
    expect(actor.getSnapshot().value).toBe('failed')
    expect(actor.getSnapshot().context.error?.code).toBe('resume_expired')
    // attempts at 1, 3, 7, 15, 23, 31, 39, 47 and 55 s (waits of 1, 2, 4, 8, 8 … s)
    expect(commands.filter((c) => c.type === 'ATTACH').length).toBe(9)
    expect(vi.getTimerCount()).toBe(0)
  })

  it('ends on the server close frame, wherever it comes', () => {
    const { actor, frame } = start()
    frame({ type: 'SERVER_CLOSE', problem: { code: 'permission_expired', message: 'Your permission expired' } })
    expect(actor.getSnapshot().value).toBe('closed')
    expect(actor.getSnapshot().context.closed?.code).toBe('permission_expired')
  })
})
