import type { WebSocket } from 'ws'

/** How often a server socket is pinged. */
export const PING_INTERVAL_MS = 30_000

/**
 * Keeps a server socket honest: a ping every interval, and a socket that did not answer the last one is terminated
 * (a peer gone without a close: a dropped network, a sleeping laptop). Returns the function that stops it.
 */
export function keepAlive(socket: WebSocket, intervalMs = PING_INTERVAL_MS): () => void {
  let alive = true
  socket.on('pong', () => (alive = true))
  const timer = setInterval(() => {
    if (!alive) {
      socket.terminate()
      return
    }
    alive = false
    socket.ping()
  }, intervalMs)
  return () => clearInterval(timer)
}
