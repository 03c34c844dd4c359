/**
 * Viewing a secret: the user confirmation (machines/confirm through useUserConfirm: MFA, password or re-login as
 * the server asks, within SECURITY_MFA_VERIFY_TTL), then the secret shown once in a dialog with a copy button.
 * Closing the dialog drops it; the server logs every read.
 */
import { Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, Field, Input, Textarea } from '@fluentui/react-components'
import { CopyRegular } from '@fluentui/react-icons'
import { t } from '@lingui/core/macro'
import { Trans } from '@lingui/react/macro'
import { useCallback, useState, type ReactElement } from 'react'
import { readSecret, secretUrl, type RevealedSecret, type SecretKind } from '../../../api/accounts.ts'
import { describeError } from '../../../ui/common/errors.ts'
import { notify } from '../../../ui/common/notify.tsx'
import { useUserConfirm } from '../../../ui/confirm/useUserConfirm.tsx'

export interface SecretViewer {
  view: (id: string, name: string) => Promise<void>
  element: ReactElement
}

export function useSecretViewer(kind: SecretKind): SecretViewer {
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
  const copy = async (text: string) => {
    try {
      await navigator.clipboard.writeText(text)
      notify('success', t`Copied`)
    } catch {
      notify('error', t`Could not copy: select the text and copy it yourself`)
    }
  }
  const multiline = !!shown && (shown.secretType === 'ssh_key' || shown.secret.includes('\n'))
  const element = (
    <>
      {dialog}
      {shown && (
        <Dialog open modalType="modal" onOpenChange={(_, d) => { if (!d.open) setShown(null) }}>
          <DialogSurface aria-describedby={undefined}>
            <DialogBody>
              <DialogTitle><Trans>Secret of {shown.name}</Trans></DialogTitle>
              <DialogContent>
                <Field label={t`Username`}><Input readOnly value={shown.username} /></Field>
                <Field label={t`Secret`}>
                  {multiline
                    ? <Textarea readOnly value={shown.secret} rows={8} aria-label={t`Secret`} />
                    : <Input readOnly value={shown.secret} aria-label={t`Secret`} contentAfter={<Button appearance="transparent" size="small" icon={<CopyRegular />} aria-label={t`Copy the secret`} onClick={() => void copy(shown.secret)} />} />}
                </Field>
                {shown.passphrase && <Field label={t`Passphrase`}><Input readOnly value={shown.passphrase} /></Field>}
              </DialogContent>
              <DialogActions>
                {multiline && <Button icon={<CopyRegular />} onClick={() => void copy(shown.secret)}><Trans>Copy</Trans></Button>}
                <Button appearance="primary" onClick={() => setShown(null)}><Trans>Close</Trans></Button>
              </DialogActions>
            </DialogBody>
          </DialogSurface>
        </Dialog>
      )}
    </>
  )
  return { view, element }
}
