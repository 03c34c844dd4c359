/**
 * Fluent's tabs for the few lists that have tabs (TabbedListPage): loaded with such a page, not with every list
 * (`*.lazy.tsx` stays out of the `list` chunk, scripts/vite-plugins.ts).
 */
export { Tab, TabList } from '@fluentui/react-components'
