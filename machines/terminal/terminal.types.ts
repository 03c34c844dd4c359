/** Types of the terminal machine: one web terminal tab's connection (docs/terminal.md, "Web terminal"). */

/** The permission's actions on this session (`session-info`'s `actions`). */
export interface TerminalActions {
  copy: boolean
  paste: boolean
  upload: boolean
  download: boolean
  share: boolean
}

/** `session-info`'s `session` (protocol of docs/terminal.md). */
export interface TerminalSessionInfo {
  id: string
  asset: { id: string; name: string; address: string }
  account: { id: string; name: string; username: string }
  user: string
  protocol: string
  /** the key that re-attaches to this session after a dropped socket */
  resume: string
  actions: TerminalActions
  idle_timeout: number
  max_duration: number
}

export interface TerminalWait {
  reason: string
  ticket: string
  reviewers: readonly string[]
}

/** `error` and `close` frames: a machine code and the server's translated text. */
export interface TerminalProblem {
  code: string
  message: string
}

export interface TerminalInput {
  /** the connection token's id */
  token: string
}

export interface TerminalContext {
  token: string
  session: TerminalSessionInfo | null
  /** the ticket the connection (or a command) waits on */
  wait: TerminalWait | null
  /** why the connection failed (a server `error`, or a local code: `dropped`, `resume_expired`) */
  error: TerminalProblem | null
  /** why the session ended (a server `close`, or `user` when the tab was closed) */
  closed: TerminalProblem | null
  /** the last non-fatal server error (a refused command: the session goes on) */
  notice: TerminalProblem | null
  /** failed re-attach attempts since the socket dropped */
  attempts: number
  /** successful re-attaches so far */
  restores: number
}

/** What the socket actor sends back (one per server frame or socket event). */
export type TerminalSocketEvent =
  | { type: 'SESSION_INFO'; session: TerminalSessionInfo }
  | { type: 'WAIT'; wait: TerminalWait }
  | { type: 'WAIT_END' }
  | { type: 'SERVER_ERROR'; problem: TerminalProblem }
  | { type: 'SERVER_CLOSE'; problem: TerminalProblem }
  /** the websocket closed without a `close` frame (network blip, sleep, server restart) */
  | { type: 'DROPPED'; code?: number }

/** What the machine asks of the socket actor (it opens a new websocket for CONNECT and ATTACH). */
export type TerminalSocketCommand =
  | { type: 'CONNECT'; token: string }
  | { type: 'ATTACH'; session: string; resume: string }
  | { type: 'CLOSE' }

export type TerminalEvent =
  | TerminalSocketEvent
  /** the user closes the tab: the session ends */
  | { type: 'CLOSE' }
  /** try to re-attach now (the browser came back online, or the user asked) */
  | { type: 'RETRY_NOW' }
  /** the user dismisses the last notice */
  | { type: 'DISMISS_NOTICE' }
