/**
 * Fluent parts the first screen draws only when something is to be shown (a warning, a notice, a list error, a
 * badge count, filter chips): loaded on their first use through src/ui/common/lazyParts.ts. `*.lazy.tsx` files stay
 * out of the first screen's chunks (scripts/vite-plugins.ts).
 */
export { CounterBadge, MessageBar, MessageBarActions, MessageBarBody, MessageBarTitle, Tag, TagGroup } from '@fluentui/react-components'
