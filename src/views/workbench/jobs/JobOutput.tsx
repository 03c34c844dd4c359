/**
 * The live output of a job run in a terminal-like panel: xterm (its own lazy chunk, loaded when the panel first
 * shows) reading only — the run's log pieces are written into it as they arrive.
 */
import { makeStyles, tokens } from '@fluentui/react-components'
import { forwardRef, useEffect, useImperativeHandle, useRef } from 'react'

export interface JobOutputHandle {
  write(text: string): void
  clear(): void
}

const useStyles = makeStyles({
  panel: {
    height: '360px', backgroundColor: '#1e1e1e', borderRadius: tokens.borderRadiusMedium, padding: tokens.spacingHorizontalS, overflow: 'hidden',
  },
})

type Term = { write(s: string): void; reset(): void; dispose(): void; open(el: HTMLElement): void; loadAddon(a: unknown): void }

export const JobOutput = forwardRef<JobOutputHandle, { label: string }>(function JobOutput({ label }, ref) {
  const styles = useStyles()
  const host = useRef<HTMLDivElement>(null)
  const term = useRef<Term | undefined>(undefined)
  /** What arrived before xterm was loaded. */
  const pending = useRef<string[]>([])

  useImperativeHandle(ref, () => ({
    write: (text) => {
      const s = text.replace(/\r?\n/g, '\r\n')
      if (term.current) term.current.write(s)
      else pending.current.push(s)
    },
    clear: () => {
      pending.current = []
      term.current?.reset()
    },
  }), [])

  useEffect(() => {
    let disposed = false
    let fit: { fit(): void } | undefined
    // The panel's own size (a window resize, the menu folding, a narrow screen) refits the terminal's columns.
    const observer = new ResizeObserver(() => fit?.fit())
    void import('../../../ui/terminal/fitted.ts').then(({ openFitted }) => {
      if (disposed || !host.current) return
      const opened = openFitted(host.current, { convertEol: false, disableStdin: true, fontSize: 13, scrollback: 5000, cursorBlink: false, theme: { background: '#1e1e1e' } })
      const t = opened.terminal as unknown as Term
      fit = opened.fit
      for (const s of pending.current) t.write(s)
      pending.current = []
      term.current = t
      if (host.current) observer.observe(host.current)
    })
    return () => {
      disposed = true
      observer.disconnect()
      term.current?.dispose()
      term.current = undefined
    }
  }, [])

  return <div className={styles.panel} role="region" aria-label={label} ref={host} data-testid="job-output" />
})
