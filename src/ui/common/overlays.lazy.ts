/**
 * Fluent's menus and Tooltip, with the positioning code only they bring: loaded on first use (overlays.tsx).
 */
export {
  Menu, MenuDivider, MenuGroup, MenuGroupHeader, MenuItem, MenuItemLink, MenuItemRadio, MenuList, MenuPopover, MenuTrigger, Tooltip,
} from '@fluentui/react-components'
