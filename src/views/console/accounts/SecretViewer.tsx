/**
 * Viewing a secret: the user confirmation (machines/confirm through useUserConfirm: MFA, password or re-login as
 * the server asks, within SECURITY_MFA_VERIFY_TTL), then the secret shown once in a dialog with a copy button
 * (SecretDialog.tsx, loaded when a secret is first shown). Closing the dialog drops it; the server logs every read.
 */
import { t } from '@lingui/core/macro'
import { useCallback, useState, type ReactElement } from 'react'
import { readSecret, secretUrl, type ReadableKind, type RevealedSecret } from '../../../api/accounts.ts'
import { deferred } from '../../../ui/common/deferred.tsx'
import { describeError } from '../../../ui/common/errors.ts'
import { notify } from '../../../ui/common/notify.tsx'
import { useUserConfirm } from '../../../ui/confirm/useUserConfirm.tsx'

const SecretDialog = deferred(() => import('./SecretDialog.tsx').then((m) => m.SecretDialog))

export interface SecretViewer {
  view: (id: string, name: string) => Promise<void>
  element: ReactElement
}

export function useSecretViewer(kind: ReadableKind): SecretViewer {
  const { confirm, dialog } = useUserConfirm()
  const [shown, setShown] = useState<(RevealedSecret & { name: string }) | null>(null)
  const view = useCallback(async (id: string, name: string) => {
    const outcome = await confirm(secretUrl(kind, id))
    if (outcome.status !== 'confirmed') {
      if (outcome.status === 'failed') notify('error', t`The confirmation failed`)
      return
    }
    try {
      setShown({ ...(await readSecret(kind, id)), name })
    } catch (e) {
      notify('error', t`Could not read the secret`, describeError(e))
    }
  }, [confirm, kind])
  const element = (
    <>
      {dialog}
      <SecretDialog when={!!shown} shown={shown} onClose={() => setShown(null)} />
    </>
  )
  return { view, element }
}
