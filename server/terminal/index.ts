/**
 * The built-in terminal component (issue 30): the web terminal's websocket and, started by `npm start`
 * (server/main.ts), the SSH gateway. docs/terminal.md.
 */
import type { FastifyInstance } from 'fastify'
import { setSshGatewayPort } from '../resources/perms/tokens.ts'
import { registerFileManager } from './files-http.ts'
import { startSshGateway } from './gateway.ts'
import { TerminalManager } from './session.ts'
import { registerLive } from './live.ts'
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
  registerFileManager(app, manager)
  registerLive(app, manager)
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

/**
 * Starts the SSH gateway on `port` (default SSH_PORT; 0 = an ephemeral port, for tests) unless SSH_PORT is 0 or
 * the server is a proxy; answers its port (0 when off). Closed with the app.
 */
export async function startGateway(app: FastifyInstance, port = app.services.config.sshPort, host = app.services.config.sshHost): Promise<number> {
  const cfg = app.services.config
  if (cfg.jumpserverUrl || (port === cfg.sshPort && !cfg.sshPort)) {
    setSshGatewayPort(app, 0)
    return 0
  }
  const g = await startSshGateway(app, terminalManager(app), { port, host })
  setSshGatewayPort(app, g.port)
  terminalManager(app).closers.push(() => g.close())
  return g.port
}
