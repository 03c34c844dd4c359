/**
 * Lazy stand-ins of Fluent parts that the first screen shows only sometimes (parts.lazy.tsx): the same props and
 * types; render them under a `<Suspense>` (they appear once their chunk has arrived, one small request the first
 * time any of them is needed). Keeps the first screen's JavaScript small (issue 17).
 */
import type * as Fluent from '@fluentui/react-components'
import { lazy } from 'react'

const parts = () => import('./parts.lazy.tsx')

export const MessageBar = lazy(() => parts().then((m) => ({ default: m.MessageBar }))) as unknown as typeof Fluent.MessageBar
export const MessageBarBody = lazy(() => parts().then((m) => ({ default: m.MessageBarBody }))) as unknown as typeof Fluent.MessageBarBody
export const MessageBarActions = lazy(() => parts().then((m) => ({ default: m.MessageBarActions }))) as unknown as typeof Fluent.MessageBarActions
export const MessageBarTitle = lazy(() => parts().then((m) => ({ default: m.MessageBarTitle }))) as unknown as typeof Fluent.MessageBarTitle
export const CounterBadge = lazy(() => parts().then((m) => ({ default: m.CounterBadge }))) as unknown as typeof Fluent.CounterBadge
export const TagGroup = lazy(() => parts().then((m) => ({ default: m.TagGroup }))) as unknown as typeof Fluent.TagGroup
export const Tag = lazy(() => parts().then((m) => ({ default: m.Tag }))) as unknown as typeof Fluent.Tag
