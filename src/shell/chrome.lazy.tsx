/** The shell's chrome, one chunk loaded as the shell first renders (Shell.tsx; its frames are frames.tsx). */
export { Header } from './Header.tsx'
export { Sidebar } from './Sidebar.tsx'
export { TabsBar } from './TabsBar.tsx'
