/**
 * xterm with its fit add-on and stylesheet: what every terminal view of ours draws with (the web terminal's tabs,
 * the live view of a monitor or a joiner). Built as one chunk of its own, `xterm` (scripts/vite-plugins.ts,
 * `xtermGroup`), in the console's build and the web terminal's alike, so both builds write the same file and a
 * browser that has loaded one has the other's; in the console it is only ever loaded lazily.
 */
import '@xterm/xterm/css/xterm.css'

export { FitAddon } from '@xterm/addon-fit'
export { Terminal, type ITerminalOptions, type ITheme } from '@xterm/xterm'
