/** Fluent's Menu and Tooltip, with the positioning code only they bring: loaded on first use (overlays.tsx). */
export { Menu, Tooltip } from '@fluentui/react-components'
