/**
 * A live view of a terminal session (`/ws/terminal/live/`): an auditor's monitor in the console, a share link's
 * joiner in the web terminal. xterm at the session's own size (what the user sees, cell for cell), redrawn from the
 * server's screen first and then following the stream; keystrokes are sent only when the server says the view is
 * writable. A lazy chunk wherever it is used (xterm is never in a first load).
 */
import { makeStyles, mergeClasses, MessageBar, MessageBarBody, Spinner, tokens } from '@fluentui/react-components'
import { useLingui } from '@lingui/react/macro'
import { Terminal, type ITheme } from './xterm.ts'
import { useEffect, useRef, useState } from 'react'
import { LiveLink, type LiveEvent, type LiveStart } from '../../api/liveSocket.ts'

const LIGHT: ITheme = { background: '#ffffff', foreground: '#242424', cursor: '#242424', selectionBackground: '#b4d7ff' }
const DARK: ITheme = { background: '#1b1b1b', foreground: '#e6e6e6', cursor: '#e6e6e6', selectionBackground: '#264f78' }

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, minHeight: 0, height: '100%' },
  status: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, minHeight: '28px' },
  screen: { overflow: 'auto', minHeight: '200px', flexGrow: 1, backgroundColor: '#1b1b1b', padding: tokens.spacingHorizontalXS, maxWidth: '100%' },
  light: { backgroundColor: '#ffffff', border: `1px solid ${tokens.colorNeutralStroke2}` },
})

export type LivePhase = 'connecting' | 'live' | 'ended' | 'failed'

export interface LiveScreenProps {
  start: LiveStart
  scheme?: 'light' | 'dark'
  fontSize?: number
  /** the server's frames, for the page around it (who is watched, the end) */
  onEvent?: (event: LiveEvent) => void
  /** a label for the screen region */
  label: string
}

export function LiveScreen({ start, scheme = 'dark', fontSize = 14, onEvent, label }: LiveScreenProps) {
  const { t } = useLingui()
  const styles = useStyles()
  const box = useRef<HTMLDivElement>(null)
  const [phase, setPhase] = useState<LivePhase>('connecting')
  const [info, setInfo] = useState<Extract<LiveEvent, { type: 'info' }>>()
  const [ending, setEnding] = useState<string>()
  const heard = useRef(onEvent)
  useEffect(() => {
    heard.current = onEvent
  }, [onEvent])
  const key = JSON.stringify(start)

  useEffect(() => {
    const element = box.current!
    const terminal = new Terminal({ fontSize, scrollback: 2000, disableStdin: true, cursorBlink: false, theme: scheme === 'dark' ? DARK : LIGHT, fontFamily: 'Menlo, Consolas, "DejaVu Sans Mono", monospace' })
    terminal.open(element)
    let writable = false
    // Read-only, xterm leaves the keys to the browser: Tab moves the focus on (a keyboard user is not caught inside).
    terminal.attachCustomKeyEventHandler(() => writable)
    const link = new LiveLink({
      onOutput: (bytes) => terminal.write(bytes),
      onEvent: (event) => {
        heard.current?.(event)
        switch (event.type) {
          case 'info':
            terminal.resize(event.cols, event.rows)
            writable = event.mode === 'writable'
            terminal.options.disableStdin = !writable
            terminal.options.cursorBlink = writable
            if (writable) terminal.focus()
            setInfo(event)
            setPhase('live')
            return
          case 'resize':
            terminal.resize(event.cols, event.rows)
            return
          case 'close':
            setEnding(event.message || t`The session ended.`)
            setPhase('ended')
            return
          case 'error':
            if (event.code === 'rate_limited') return
            setEnding(event.message || t`The connection failed.`)
            setPhase('failed')
            return
          case 'dropped':
            setEnding(t`The connection was lost.`)
            setPhase('failed')
        }
      },
    })
    const typed = terminal.onData((data) => {
      if (writable) link.input(data)
    })
    link.open(JSON.parse(key) as LiveStart)
    return () => {
      typed.dispose()
      link.dispose()
      terminal.dispose()
    }
    // the start frame is the view's identity; theme and font are read when it opens
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key])

  let status: string
  if (phase === 'connecting') status = t`Connecting…`
  else if (phase === 'live' && info) {
    const who = `${info.session.user} → ${info.session.asset}`
    status = info.mode === 'writable' ? t`In the session of ${who}: you can type.` : info.mode === 'readonly' ? t`Watching the session of ${who} (read-only).` : t`Monitoring the session of ${who} (read-only).`
  } else status = ending ?? ''
  return (
    <div className={styles.root} data-live-phase={phase}>
      <div className={styles.status}>
        {phase === 'connecting' && <Spinner size="extra-tiny" />}
        <span role="status" aria-live="polite" data-live-status="">{status}</span>
      </div>
      {(phase === 'ended' || phase === 'failed') && ending && (
        <MessageBar intent={phase === 'failed' ? 'error' : 'info'}><MessageBarBody>{ending}</MessageBarBody></MessageBar>
      )}
      <div ref={box} className={mergeClasses(styles.screen, scheme === 'light' && styles.light)} role="region" aria-label={label} data-live-screen="" />
    </div>
  )
}
