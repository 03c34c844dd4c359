/**
 * Mounts KeepTabster once the first page is up, from its own chunk: tabster is not in the first chunk (the lazy
 * menus, tooltips and tabs bring it with the page), and the reference only matters once a modal has been used.
 */
import { useEffect, useState } from 'react'
import { deferred } from './deferred.tsx'
import { retryImport } from './retryImport.ts'

// Its chunk failing for good (the server gone longer than the retries) costs only the reference: render nothing.
const Keeper = deferred(() => retryImport(() => import('./KeepTabster.tsx')).then((m) => m.KeepTabster, () => () => null))

export function KeepTabsterSoon() {
  const [when, setWhen] = useState(false)
  useEffect(() => {
    const id = window.setTimeout(() => setWhen(true), 1000)
    return () => window.clearTimeout(id)
  }, [])
  return <Keeper when={when} />
}
