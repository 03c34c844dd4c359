/**
 * `/ws/ops/tasks/log/` (JumpServer's TaskLogWebsocket): the client sends `{"task": "<execution id>", "type":
 * "celery"|"ansible"}`; the server sends the log so far and then each new piece as `{"message": "…", "task": id}`
 * (line breaks as `\r\n`, for terminals), and, our addition, `{"message": "", "task": id, "state": …, "end": true}`
 * when the execution has finished and everything was sent. Works across processes: the writer NOTIFYs.
 */
import { keepAlive } from '../realtime/keepalive.ts'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { WebSocket } from 'ws'
import { isUuid, normUuid } from '../engine/parse.ts'
import { CLOSE_UNAUTHENTICATED, sameOrigin } from '../realtime/socket.ts'
import { readLog, type TaskLogHub } from './logs.ts'
import { mayReadExecution } from './access.ts'

export const TASK_LOG_SOCKET_PATH = '/ws/ops/tasks/log/'
/** A reader re-checks the log this often even without notifications (a lost NOTIFY never stalls it). */
const FALLBACK_POLL_MS = 3_000

export function registerTaskLogSocket(app: FastifyInstance, hub: TaskLogHub): void {
  app.get(TASK_LOG_SOCKET_PATH, { websocket: true }, (socket: WebSocket, req: FastifyRequest) => {
    if (!req.ctx?.user || (req.ctx.authBy === 'session' && !sameOrigin(req))) {
      socket.close(CLOSE_UNAUTHENTICATED, 'unauthenticated')
      return
    }
    const db = app.services.database.db
    let stopCurrent: (() => void) | undefined
    const stopPing = keepAlive(socket)
    const send = (msg: unknown) => {
      if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(msg))
    }

    const follow = async (raw: string) => {
      stopCurrent?.()
      if (!isUuid(raw)) return send({ message: '', task: raw, end: true, error: 'not_found' })
      const id = normUuid(raw)
      if (!(await mayReadExecution(req, id))) return send({ message: '', task: id, end: true, error: 'not_found' })
      let mark = 0
      let busy = false
      let again = false
      let done = false
      const pump = async () => {
        if (busy) {
          again = true
          return
        }
        busy = true
        try {
          do {
            again = false
            const slice = await readLog(db, id, mark)
            mark = slice.mark
            if (slice.data) send({ message: slice.data.replace(/\r?\n/g, '\r\n'), task: id, state: slice.state })
            if (slice.end) {
              send({ event: 'end', message: '', task: id, state: slice.state, end: true })
              finish()
              return
            }
            // More than a page waiting: keep reading.
            if (slice.data) again = true
          } while (again && !done)
        } catch (err) {
          req.log.warn({ err }, 'task log read failed')
        } finally {
          busy = false
        }
      }
      const remove = hub.add(id, () => void pump())
      const timer = setInterval(() => void pump(), FALLBACK_POLL_MS)
      const finish = () => {
        done = true
        remove()
        clearInterval(timer)
      }
      stopCurrent = finish
      await pump()
    }

    socket.on('message', (data) => {
      let task: unknown
      try {
        task = (JSON.parse(data.toString()) as { task?: unknown })?.task
      } catch {
        return
      }
      if (typeof task === 'string' && task) void follow(task).catch((err) => req.log.warn({ err }, 'task log follow failed'))
    })
    socket.on('close', () => {
      stopCurrent?.()
      stopPing()
    })
  })
}
