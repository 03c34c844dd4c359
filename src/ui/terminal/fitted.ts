/**
 * A terminal fitted to its element, for views that load xterm on use (the job output panel): they `import()` this
 * module, not xterm.ts, so the `xterm` chunk is only ever imported statically and stays the same file in the
 * console's build as in the web terminal's (a dynamic import of it would give it a namespace object of its own).
 */
import { FitAddon, Terminal, type ITerminalOptions } from './xterm.ts'

export function openFitted(host: HTMLElement, options: ITerminalOptions): { terminal: Terminal; fit: FitAddon } {
  const terminal = new Terminal(options)
  const fit = new FitAddon()
  terminal.loadAddon(fit)
  terminal.open(host)
  fit.fit()
  return { terminal, fit }
}
