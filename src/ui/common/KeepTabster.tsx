/**
 * Holds one reference to Fluent's focus manager (tabster) for the life of the app.
 *
 * Every Fluent part that manages focus takes a reference and drops it on unmount; when a page change drops the
 * last one, tabster disposes itself, and a modal dialog closed just before (its "un-hide the page" update waits
 * 250 ms) leaves `aria-hidden="true"` on the app's root for good: a screen reader, and any query by role, then
 * sees an empty page (microsoft/tabster#530, microsoft/fluentui#35139). Holding one reference from the providers
 * keeps tabster alive, so that update always runs.
 */
import { useFocusFinders } from '@fluentui/react-components'

export function KeepTabster(): null {
  useFocusFinders()
  return null
}
