/** Tests' reader of `/ws/ops/tasks/log/` (server/tasks/socket.ts): follows one execution's log to its end frame. */
import WebSocket from 'ws'
import type { TestClient } from '../testing.ts'

export interface TaskLogFrame { message: string; task: string; event?: string; end?: boolean; state?: string; error?: string }

/**
 * Every frame of the execution's log and their text, once the end frame came. `onText` sees the text so far after
 * each frame (a line may be cut between two frames: look in the text, not in one frame's message).
 */
export async function followTaskLog(url: string, c: TestClient, task: string, onText?: (sofar: string, frame: TaskLogFrame) => void): Promise<{ frames: TaskLogFrame[]; text: string }> {
  const ws = new WebSocket(url, { headers: { cookie: c.cookieHeader() } })
  const frames: TaskLogFrame[] = []
  let text = ''
  const done = new Promise<void>((resolve, reject) => {
    ws.on('message', (data) => {
      const f = JSON.parse(data.toString()) as TaskLogFrame
      frames.push(f)
      text += f.message
      onText?.(text, f)
      if (f.end) {
        ws.close()
        resolve()
      }
    })
    ws.on('error', reject)
  })
  await new Promise<void>((resolve, reject) => { ws.on('open', () => resolve()); ws.on('error', reject) })
  ws.send(JSON.stringify({ task }))
  await done
  return { frames, text }
}
