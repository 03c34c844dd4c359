// @vitest-environment node
/**
 * The terminal link against a real websocket server (ws, on a loopback port) speaking the protocol of
 * docs/terminal.md, driven by the real terminal machine: connect, output, input, a drop and the re-attach.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { WebSocket as WsClient, WebSocketServer, type WebSocket as Ws } from 'ws'
import { createActor, fromCallback, waitFor } from 'xstate'
import { terminalMachine } from '../../machines/terminal/terminal.machine.ts'
import type { TerminalSocketCommand, TerminalSocketEvent } from '../../machines/terminal/terminal.types.ts'
import { parseFrame, TerminalLink, terminalSocketUrl } from './terminalSocket.ts'

const SESSION = {
  id: 's1', asset: { id: 'a1', name: 'web-1', address: '127.0.0.1' }, account: { id: 'c1', name: 'root', username: 'root' },
  user: 'alice', protocol: 'ssh', resume: 'r1', actions: { copy: true, paste: true, upload: false, download: false, share: false },
  idle_timeout: 1800, max_duration: 3600,
}

let server: WebSocketServer | undefined
afterEach(async () => {
  for (const c of server?.clients ?? []) c.terminate()
  await new Promise((r) => server ? server.close(r) : r(undefined))
  server = undefined
})

interface Received { socket: Ws; frames: Record<string, unknown>[] }

async function listen(onFirst: (first: Record<string, unknown>, socket: Ws, got: Received) => void) {
  server = new WebSocketServer({ port: 0, host: '127.0.0.1' })
  await new Promise((r) => server!.once('listening', r))
  const sockets: Received[] = []
  server.on('connection', (socket) => {
    const got: Received = { socket, frames: [] }
    sockets.push(got)
    socket.on('message', (data) => {
      const frame = JSON.parse(String(data)) as Record<string, unknown>
      got.frames.push(frame)
      if (got.frames.length === 1) onFirst(frame, socket, got)
      if (frame.type === 'ping') socket.send(JSON.stringify({ type: 'pong' }))
    })
  })
  const { port } = server.address() as { port: number }
  return { url: `ws://127.0.0.1:${port}/ws/terminal/`, sockets }
}

function run(url: string) {
  const output: string[] = []
  let restores = 0
  const decoder = new TextDecoder()
  const link = new TerminalLink({
    url, size: () => ({ cols: 100, rows: 30 }),
    onOutput: (bytes) => output.push(decoder.decode(bytes, { stream: true })),
    onRestore: () => { restores++; output.length = 0 },
    WebSocketImpl: WsClient as unknown as typeof WebSocket,
  })
  const actor = createActor(terminalMachine.provide({
    actors: {
      socket: fromCallback<TerminalSocketCommand, void, TerminalSocketEvent>(({ sendBack, receive }) => {
        link.bind(sendBack)
        receive((command) => link.command(command))
        return () => link.dispose()
      }),
    },
  }), { input: { token: 'tok-1' } })
  actor.start()
  return { actor, link, output, restores: () => restores }
}

const until = async (check: () => boolean) => {
  while (!check()) await new Promise((r) => setTimeout(r, 5))
}

describe('terminal link', () => {
  it('builds the socket URL from the page', () => {
    expect(terminalSocketUrl({ protocol: 'https:', host: 'bastion.example:8443' })).toBe('wss://bastion.example:8443/ws/terminal/')
    expect(terminalSocketUrl({ protocol: 'http:', host: '127.0.0.1:8080' })).toBe('ws://127.0.0.1:8080/ws/terminal/')
  })

  it('parses the server frames, and ignores what it does not know', () => {
    expect(parseFrame('{"type":"pong"}')).toBe('pong')
    expect(parseFrame('{"type":"error","code":"command_rejected","message":"no"}')).toEqual({ type: 'SERVER_ERROR', problem: { code: 'command_rejected', message: 'no' } })
    expect(parseFrame('{"type":"close","reason":"idle_timeout","message":"idle"}')).toEqual({ type: 'SERVER_CLOSE', problem: { code: 'idle_timeout', message: 'idle' } })
    expect(parseFrame('{"type":"wait","reason":"approval","ticket":"k","reviewers":["admin"]}')).toEqual({ type: 'WAIT', wait: { reason: 'approval', ticket: 'k', reviewers: ['admin'] } })
    expect(parseFrame('{"type":"wait-end"}')).toEqual({ type: 'WAIT_END' })
    expect(parseFrame('{"type":"session-info","session":{}}')).toBeUndefined()
    expect(parseFrame('not json')).toBeUndefined()
    expect(parseFrame('[1]')).toBeUndefined()
    expect(parseFrame('{"type":"later"}')).toBeUndefined()
  })

  it('connects on the token, writes the output bytes, sends input and resize, and closes with a close frame', async () => {
    const { url, sockets } = await listen((first, socket) => {
      if (first.type !== 'connect') return
      socket.send(JSON.stringify({ type: 'session-info', session: SESSION }))
      // a UTF-8 character split across two binary frames
      const bytes = Buffer.from('hé\r\n$ ')
      socket.send(bytes.subarray(0, 2))
      socket.send(bytes.subarray(2))
    })
    const { actor, link, output } = run(url)
    await waitFor(actor, (s) => s.matches('open'))
    await until(() => output.join('') === 'hé\r\n$ ')
    link.input('echo hi\r')
    link.resize({ cols: 80, rows: 24 })
    actor.send({ type: 'CLOSE' })
    await until(() => sockets[0]!.frames.length === 4)
    expect(sockets[0]!.frames).toEqual([
      { type: 'connect', token: 'tok-1', cols: 100, rows: 30 },
      { type: 'data', data: 'echo hi\r' },
      { type: 'resize', cols: 80, rows: 24 },
      { type: 'close' },
    ])
    expect(actor.getSnapshot().value).toBe('closed')
  })

  it('re-attaches with the resume key after the socket drops, and starts the screen again before the restore', async () => {
    const { url, sockets } = await listen((first, socket) => {
      if (first.type === 'connect') {
        socket.send(JSON.stringify({ type: 'session-info', session: SESSION }))
        socket.send(Buffer.from('before'))
      } else if (first.type === 'attach' && first.resume === 'r1') {
        socket.send(JSON.stringify({ type: 'session-info', session: { ...SESSION, resume: 'r2' } }))
        socket.send(Buffer.from('restored screen'))
      }
    })
    const { actor, output, restores } = run(url)
    await until(() => output.join('') === 'before')
    sockets[0]!.socket.terminate()
    await waitFor(actor, (s) => s.matches('reconnecting'))
    actor.send({ type: 'RETRY_NOW' })
    await waitFor(actor, (s) => s.matches('open'))
    await until(() => output.join('') === 'restored screen')
    expect(restores()).toBe(1)
    expect(sockets[1]!.frames[0]).toEqual({ type: 'attach', session: 's1', resume: 'r1', cols: 100, rows: 30 })
    expect(actor.getSnapshot().context.session?.resume).toBe('r2')
    actor.stop()
  })

  it('does not take a close after the close frame for a drop', async () => {
    const { url } = await listen((_first, socket) => {
      socket.send(JSON.stringify({ type: 'session-info', session: SESSION }))
      socket.send(JSON.stringify({ type: 'close', reason: 'exit', message: 'The session ended' }))
      socket.close(1000)
    })
    const { actor } = run(url)
    await waitFor(actor, (s) => s.status === 'done')
    expect(actor.getSnapshot().value).toBe('closed')
    expect(actor.getSnapshot().context.closed).toEqual({ code: 'exit', message: 'The session ended' })
  })

  it('fails on the server error of a refused connection', async () => {
    const { url } = await listen((_first, socket) => {
      socket.send(JSON.stringify({ type: 'error', code: 'permission_denied', message: 'No permission' }))
      socket.close(1000)
    })
    const { actor } = run(url)
    await waitFor(actor, (s) => s.status === 'done')
    expect(actor.getSnapshot().value).toBe('failed')
    expect(actor.getSnapshot().context.error).toEqual({ code: 'permission_denied', message: 'No permission' })
  })
})
