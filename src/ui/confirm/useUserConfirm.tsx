/**
 * `useUserConfirm()`: asks for a confirmation before a sensitive action and resolves with the machine's output.
 *
 *     const { confirm, dialog } = useUserConfirm()
 *     if ((await confirm(protectedUrl)).status === 'confirmed') doIt()
 *     return <>{dialog}…</>
 *
 * A `relogin` outcome leaves the page for `/core/auth/logout/?next=<current path>` (console-behaviour §2.7).
 */
import { Suspense, useCallback, useRef, useState, type ReactElement } from 'react'
import type { ConfirmOutput } from '../../../machines/confirm/confirm.types.ts'
import { lazyRetry } from '../common/retryImport.ts'
import { reloginHref } from './relogin.ts'

/** The dialog's code (the confirm machine, its forms, the password encryption) loads when a confirmation is asked. */
const UserConfirmDialog = lazyRetry(() => import('./UserConfirmDialog.tsx').then((m) => ({ default: m.UserConfirmDialog })))

export interface UseUserConfirm {
  confirm: (url: string) => Promise<ConfirmOutput>
  /** Render it once; null when no confirmation runs. */
  dialog: ReactElement | null
}

interface Run {
  id: number
  url: string
  resolve: (output: ConfirmOutput) => void
}

/** Navigation is injectable for tests; the default leaves the page. */
export function useUserConfirm(navigate: (href: string) => void = (href) => window.location.assign(href)): UseUserConfirm {
  const [run, setRun] = useState<Run | null>(null)
  const counter = useRef(0)
  const confirm = useCallback((url: string) => new Promise<ConfirmOutput>((resolve) => {
    counter.current += 1
    setRun({ id: counter.current, url, resolve })
  }), [])
  const dialog = run ? (
    <Suspense fallback={null}>
      <UserConfirmDialog
        key={run.id}
        url={run.url}
        onResult={(output) => {
          setRun((current) => (current?.id === run.id ? null : current))
          if (output.status === 'relogin') navigate(reloginHref())
          run.resolve(output)
        }}
      />
    </Suspense>
  ) : null
  return { confirm, dialog }
}
