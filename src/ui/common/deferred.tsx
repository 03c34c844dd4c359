/**
 * Code that is not needed until something happens (a drawer opened, a dialog asked for): `deferred(load)` makes a
 * component that renders nothing and loads nothing until its `when` prop is first true, then loads its module and
 * stays mounted (so it can animate closed and open again without another load). Keeps what the first screen does
 * not show out of its code (issue 17, docs/architecture.md "First visit").
 */
import { Suspense, useState, type ComponentType, type JSX } from 'react'
import { lazyRetry } from './retryImport.ts'

export function deferred<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P & { when: boolean }> {
  const Lazy = lazyRetry(async () => ({ default: await load() }))
  function Deferred({ when, ...props }: P & { when: boolean }) {
    const [wanted, setWanted] = useState(when)
    if (when && !wanted) setWanted(true)
    if (!wanted) return null
    return (
      <Suspense fallback={null}>
        <Lazy {...(props as P & JSX.IntrinsicAttributes)} />
      </Suspense>
    )
  }
  return Deferred
}
