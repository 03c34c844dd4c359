/**
 * Short notices (success after save, failures): a module-level store, so a notice raised just before a
 * navigation shows on the next page, rendered by `NotifyHost` as Fluent message bars in a live region.
 */
import { Button, makeStyles, tokens } from '@fluentui/react-components'
import { MessageBar, MessageBarActions, MessageBarBody, MessageBarTitle } from './lazyParts.ts'
import { DismissRegular } from '@fluentui/react-icons'
import { useLingui } from '@lingui/react/macro'
import { Suspense, useSyncExternalStore, type ReactNode } from 'react'

export type NoticeIntent = 'success' | 'error' | 'info' | 'warning'

export interface Notice {
  id: number
  intent: NoticeIntent
  title: string
  body?: ReactNode
}

let notices: Notice[] = []
let nextId = 1
const listeners = new Set<() => void>()
const emit = () => listeners.forEach((l) => l())

export function dismiss(id: number): void {
  notices = notices.filter((n) => n.id !== id)
  emit()
}

/** Shows a notice; errors stay 5 s (spec §8), others 4 s. Returns its id. */
export function notify(intent: NoticeIntent, title: string, body?: ReactNode, ms = intent === 'error' ? 5000 : 4000): number {
  const id = nextId++
  notices = [...notices.slice(-4), { id, intent, title, body }]
  emit()
  if (ms > 0) setTimeout(() => dismiss(id), ms)
  return id
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

const useStyles = makeStyles({
  host: {
    position: 'fixed',
    top: tokens.spacingVerticalXXL,
    right: tokens.spacingHorizontalXXL,
    zIndex: 1000000,
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
    width: 'min(420px, calc(100vw - 32px))',
  },
})

export function NotifyHost() {
  const styles = useStyles()
  const { t } = useLingui()
  const list = useSyncExternalStore(subscribe, () => notices, () => notices)
  return (
    <div className={styles.host} role="status" aria-live="polite">
      <Suspense fallback={null}>
      {list.map((n) => (
        <MessageBar key={n.id} intent={n.intent} layout="multiline" shape="rounded">
          <MessageBarBody>
            <MessageBarTitle>{n.title}</MessageBarTitle>
            {n.body}
          </MessageBarBody>
          <MessageBarActions
            containerAction={<Button appearance="transparent" size="small" aria-label={t`Dismiss`} icon={<DismissRegular />} onClick={() => dismiss(n.id)} />}
          />
        </MessageBar>
      ))}
      </Suspense>
    </div>
  )
}
