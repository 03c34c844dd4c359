import { NavDrawer, type NavProps } from '@fluentui/react-components'

/** The left menu on narrow screens: a modal drawer over the page (Sidebar.tsx loads it when first opened). */
export function SidebarOverlay({ open, onClose, ...props }: NavProps & { open: boolean; onClose: () => void }) {
  return (
    <NavDrawer
      {...props}
      open={open}
      type="overlay"
      // A modal dialog holding the navigation; aria-modal is not allowed on role=navigation.
      role="dialog"
      onOpenChange={(_, d) => !d.open && onClose()}
    />
  )
}
