/**
 * The built-in terminal component (issue 30): the web terminal's websocket and, started by `npm start`
 * (server/main.ts), the SSH gateway. docs/terminal.md.
 */
import type { FastifyInstance } from 'fastify'
import { TerminalManager } from './session.ts'
import { registerTerminalSocket } from './ws.ts'

const managers = new WeakMap<FastifyInstance, TerminalManager>()

/** The app's terminal manager (its open sessions and the built-in component). */
export function terminalManager(app: FastifyInstance): TerminalManager {
  const m = managers.get(app)
  if (!m) throw new Error('the terminal module is not registered')
  return m
}

export function registerTerminalComponent(app: FastifyInstance): void {
  const manager = new TerminalManager(app)
  managers.set(app, manager)
  registerTerminalSocket(app, manager)
  // The component registers itself (and starts its heartbeats) on first use: a server nobody connects through
  // shows no built-in terminal until the SSH gateway starts or a web terminal opens.
  const ensure = manager.component.ensure.bind(manager.component)
  let started = false
  manager.component.ensure = () => {
    const p = ensure()
    if (!started) {
      started = true
      void p.then(() => manager.start(), () => { started = false })
    }
    return p
  }
  app.addHook('onClose', async () => manager.stop())
}
