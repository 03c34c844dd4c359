/**
 * The boxes of the shell's chrome — header bar, inline menu, tabs bar — and their empty stand-ins. The chrome's code
 * is a chunk of its own (chrome.lazy.tsx) drawn after a first page that is ready first (Shell.tsx,
 * `useChromeAfterPage`); until then these frames hold its place. The real parts take their box from the same
 * classes, so the page does not move when they arrive.
 */
import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components'

export const useFrameStyles = makeStyles({
  header: {
    height: '48px', flexShrink: 0, paddingInline: tokens.spacingHorizontalS,
    backgroundColor: tokens.colorBrandBackground, color: tokens.colorNeutralForegroundOnBrand,
  },
  sidebar: {
    height: '100%', width: '260px', flexShrink: 0, boxSizing: 'border-box', overflow: 'hidden',
    borderRight: `1px solid ${tokens.colorNeutralStroke2}`, backgroundColor: tokens.colorNeutralBackground4,
  },
  tabs: {
    paddingInline: tokens.spacingHorizontalS, paddingBlock: tokens.spacingVerticalXS, minHeight: '36px',
    borderBottom: `1px solid ${tokens.colorNeutralStroke2}`, backgroundColor: tokens.colorNeutralBackground2,
  },
  // the frames' own content box: what the real parts' children would fill
  row: { display: 'flex', alignItems: 'center' },
})

export function HeaderFrame() {
  const frames = useFrameStyles()
  return <div className={mergeClasses(frames.header, frames.row)} />
}

/** The inline menu's place; narrow screens have none (their menu is an overlay). */
export function SidebarFrame({ open, inline }: { open: boolean; inline: boolean }) {
  const frames = useFrameStyles()
  return inline && open ? <div className={frames.sidebar} /> : null
}

export function TabsBarFrame() {
  const frames = useFrameStyles()
  return <div className={mergeClasses(frames.tabs, frames.row)} />
}
