/**
 * One terminal tab: xterm (DOM renderer, so the screen's text is in `.xterm-rows`) fitted to its box, the
 * websocket link (src/api/terminalSocket.ts) and the terminal machine (machines/terminal) that drives it. Output
 * bytes go from the link to the screen; the machine only knows the connection's life, shown in the status line.
 * Copy and paste follow the permission's actions (session-info): refused ones are stopped before xterm sees them.
 */
import { Button, makeStyles, mergeClasses, MessageBar, MessageBarActions, MessageBarBody, Spinner, tokens } from '@fluentui/react-components'
import { DismissRegular } from '@fluentui/react-icons'
import { useLingui } from '@lingui/react/macro'
import { FitAddon, Terminal, type ITheme } from '../ui/terminal/xterm.ts'
import { forwardRef, useEffect, useImperativeHandle, useRef, useState } from 'react'
import { createActor, fromCallback, type SnapshotFrom } from 'xstate'
import { terminalMachine } from '../../machines/terminal/terminal.machine.ts'
import type { TerminalSocketCommand, TerminalSocketEvent } from '../../machines/terminal/terminal.types.ts'
import type { SessionParticipant } from '../api/terminal.ts'
import { TerminalLink } from '../api/terminalSocket.ts'
import { inspectActors } from '../ui/inspector/registry.ts'
import { useProblemText } from './messages.ts'

export type TerminalSnapshot = SnapshotFrom<typeof terminalMachine>
export type TerminalPhase = 'connecting' | 'waiting' | 'open' | 'reconnecting' | 'closed' | 'failed'

export function phaseOf(snapshot: TerminalSnapshot): TerminalPhase {
  if (snapshot.matches({ starting: 'waitingApproval' })) return 'waiting'
  if (snapshot.matches('starting')) return 'connecting'
  if (snapshot.matches('open')) return 'open'
  if (snapshot.matches('reconnecting')) return 'reconnecting'
  return snapshot.matches('closed') ? 'closed' : 'failed'
}

const LIGHT: ITheme = { background: '#ffffff', foreground: '#242424', cursor: '#242424', selectionBackground: '#b4d7ff' }
const DARK: ITheme = { background: '#1b1b1b', foreground: '#e6e6e6', cursor: '#e6e6e6', selectionBackground: '#264f78' }

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', height: '100%', minHeight: 0 },
  hidden: { display: 'none' },
  status: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, padding: `${tokens.spacingVerticalXS} ${tokens.spacingHorizontalM}`, minHeight: '28px' },
  screen: { flexGrow: 1, minHeight: 0, padding: tokens.spacingHorizontalXS },
})

export interface TerminalTabHandle {
  copy: () => Promise<boolean>
  paste: () => Promise<boolean>
  focus: () => void
  /** ends the session (a `close` frame) */
  close: () => void
}

export interface TerminalTabProps {
  token: string
  active: boolean
  fontSize: number
  scheme: 'light' | 'dark'
  /** the tab's connection changed (phase, asset and account names, actions) */
  onChange: (snapshot: TerminalSnapshot) => void
  /** who is in the session through a share link (the server's `share-participants` frame) */
  onParticipants?: (list: SessionParticipant[]) => void
}

export const TerminalTab = forwardRef<TerminalTabHandle, TerminalTabProps>(function TerminalTab({ token, active, fontSize, scheme, onChange, onParticipants }, ref) {
  const { t } = useLingui()
  const styles = useStyles()
  const problemText = useProblemText()
  const box = useRef<HTMLDivElement>(null)
  const term = useRef<Terminal | undefined>(undefined)
  const fit = useRef<FitAddon | undefined>(undefined)
  const actor = useRef<ReturnType<typeof createActor<typeof terminalMachine>> | undefined>(undefined)
  const [snapshot, setSnapshot] = useState<TerminalSnapshot | undefined>()
  const changed = useRef(onChange)
  changed.current = onChange
  const joined = useRef(onParticipants)
  joined.current = onParticipants
  const actions = snapshot?.context.session?.actions
  const allowed = useRef({ copy: false, paste: false })
  allowed.current = { copy: actions?.copy === true, paste: actions?.paste === true }

  // The screen, the link and the machine live as long as the tab.
  useEffect(() => {
    const element = box.current!
    const terminal = new Terminal({ fontSize, cursorBlink: true, scrollback: 5000, theme: scheme === 'dark' ? DARK : LIGHT, fontFamily: 'Menlo, Consolas, "DejaVu Sans Mono", monospace' })
    const fitter = new FitAddon()
    terminal.loadAddon(fitter)
    terminal.open(element)
    term.current = terminal
    fit.current = fitter
    if (element.clientWidth > 0) fitter.fit()
    const link = new TerminalLink({
      size: () => ({ cols: terminal.cols, rows: terminal.rows }),
      onOutput: (bytes) => terminal.write(bytes),
      onRestore: () => terminal.reset(),
      onFrame: (frame) => {
        if (frame.type === 'share-participants' && Array.isArray(frame.participants)) joined.current?.(frame.participants as SessionParticipant[])
      },
    })
    const machine = terminalMachine.provide({
      actors: {
        socket: fromCallback<TerminalSocketCommand, void, TerminalSocketEvent>(({ sendBack, receive }) => {
          link.bind(sendBack)
          receive((command) => link.command(command))
          return () => link.dispose()
        }),
      },
    })
    const running = createActor(machine, { input: { token }, inspect: inspectActors })
    actor.current = running
    const subscription = running.subscribe((next) => {
      setSnapshot(next)
      changed.current(next)
    })
    const typed = terminal.onData((data) => link.input(data))
    const resized = terminal.onResize((size) => link.resize(size))
    // copy and paste the permission refuses never reach xterm (capture phase, before its own handlers)
    const guard = (kind: 'copy' | 'paste') => (event: Event) => {
      if (allowed.current[kind]) return
      event.preventDefault()
      event.stopPropagation()
    }
    const onCopy = guard('copy')
    const onPaste = guard('paste')
    element.addEventListener('copy', onCopy, true)
    element.addEventListener('paste', onPaste, true)
    const observer = new ResizeObserver(() => {
      if (element.clientWidth > 0 && element.clientHeight > 0) fitter.fit()
    })
    observer.observe(element)
    running.start()
    return () => {
      observer.disconnect()
      element.removeEventListener('copy', onCopy, true)
      element.removeEventListener('paste', onPaste, true)
      typed.dispose()
      resized.dispose()
      subscription.unsubscribe()
      running.stop()
      terminal.dispose()
      term.current = undefined
    }
    // the token is the tab's identity; font size and theme change in place (below)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [token])

  useEffect(() => {
    const terminal = term.current
    if (!terminal) return
    terminal.options.fontSize = fontSize
    terminal.options.theme = scheme === 'dark' ? DARK : LIGHT
    if (active && box.current && box.current.clientWidth > 0) fit.current?.fit()
  }, [fontSize, scheme, active])

  useEffect(() => {
    if (active) term.current?.focus()
  }, [active])

  // The end of the session, on the screen too (tests and users read it there).
  const phase = snapshot ? phaseOf(snapshot) : 'connecting'
  const ending = phase === 'closed' ? snapshot?.context.closed : phase === 'failed' ? snapshot?.context.error : undefined
  const endText = ending ? problemText(phase === 'closed' ? 'close' : 'error', ending) : undefined
  useEffect(() => {
    if (endText) term.current?.write(`\r\n\x1b[1;31m${endText}\x1b[0m\r\n`)
  }, [endText])

  useImperativeHandle(ref, () => ({
    copy: async () => {
      const text = term.current?.getSelection() ?? ''
      if (!allowed.current.copy || !text) return false
      await navigator.clipboard.writeText(text)
      return true
    },
    paste: async () => {
      if (!allowed.current.paste) return false
      const text = await navigator.clipboard.readText()
      if (text) term.current?.paste(text)
      return true
    },
    focus: () => term.current?.focus(),
    close: () => actor.current?.send({ type: 'CLOSE' }),
  }), [])

  const wait = snapshot?.context.wait
  const notice = snapshot?.context.notice
  let status: string
  switch (phase) {
    case 'connecting': status = t`Connecting…`; break
    case 'waiting': status = wait?.reviewers.length
      ? t`Waiting for approval by ${wait.reviewers.join(', ')} (ticket ${wait.ticket})…`
      : t`Waiting for approval…`; break
    case 'open': status = wait ? t`Waiting for approval of the command…` : t`Connected`; break
    case 'reconnecting': status = t`Reconnecting…`; break
    default: status = endText ?? ''
  }
  const busy = phase === 'connecting' || phase === 'waiting' || phase === 'reconnecting'
  return (
    <div className={mergeClasses(styles.root, !active && styles.hidden)} data-terminal-phase={phase}>
      <div className={styles.status}>
        {busy && <Spinner size="extra-tiny" aria-hidden />}
        <span role="status" aria-live="polite" data-terminal-status="">{status}</span>
        {phase === 'reconnecting' && <Button size="small" onClick={() => actor.current?.send({ type: 'RETRY_NOW' })}>{t`Reconnect now`}</Button>}
        {phase === 'waiting' && <Button size="small" onClick={() => actor.current?.send({ type: 'CLOSE' })}>{t`Cancel`}</Button>}
      </div>
      {notice && (
        <MessageBar intent="warning" data-terminal-notice="">
          <MessageBarBody>{problemText('error', notice)}</MessageBarBody>
          <MessageBarActions containerAction={
            <Button appearance="transparent" size="small" icon={<DismissRegular />} aria-label={t`Dismiss`} onClick={() => actor.current?.send({ type: 'DISMISS_NOTICE' })} />
          } />
        </MessageBar>
      )}
      <div ref={box} className={styles.screen} data-terminal-screen="" />
    </div>
  )
})
