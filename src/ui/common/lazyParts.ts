/**
 * Lazy stand-ins of Fluent parts that the first screen shows only sometimes (parts.lazy.tsx): the same props and
 * types; render them under a `<Suspense>` (they appear once their chunk has arrived, one small request the first
 * time any of them is needed). Keeps the first screen's JavaScript small (issue 17).
 */
import type * as Fluent from '@fluentui/react-components'
import { lazyRetry } from './retryImport.ts'

const parts = () => import('./parts.lazy.tsx')

export const MessageBar = lazyRetry(() => parts().then((m) => ({ default: m.MessageBar }))) as unknown as typeof Fluent.MessageBar
export const MessageBarBody = lazyRetry(() => parts().then((m) => ({ default: m.MessageBarBody }))) as unknown as typeof Fluent.MessageBarBody
export const MessageBarActions = lazyRetry(() => parts().then((m) => ({ default: m.MessageBarActions }))) as unknown as typeof Fluent.MessageBarActions
export const MessageBarTitle = lazyRetry(() => parts().then((m) => ({ default: m.MessageBarTitle }))) as unknown as typeof Fluent.MessageBarTitle
export const CounterBadge = lazyRetry(() => parts().then((m) => ({ default: m.CounterBadge }))) as unknown as typeof Fluent.CounterBadge
export const TagGroup = lazyRetry(() => parts().then((m) => ({ default: m.TagGroup }))) as unknown as typeof Fluent.TagGroup
export const Tag = lazyRetry(() => parts().then((m) => ({ default: m.Tag }))) as unknown as typeof Fluent.Tag
