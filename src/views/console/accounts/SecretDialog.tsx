/** A revealed secret, shown once with a copy button (useSecretViewer loads it when a secret is first shown). */
import { Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, Field, Input, Textarea } from '@fluentui/react-components'
import { CopyRegular } from '@fluentui/react-icons'
import { t } from '@lingui/core/macro'
import { Trans } from '@lingui/react/macro'
import type { RevealedSecret } from '../../../api/accounts.ts'
import { notify } from '../../../ui/common/notify.tsx'

export function SecretDialog({ shown, onClose }: { shown: (RevealedSecret & { name: string }) | null; onClose: () => void }) {
  if (!shown) return null
  const copy = async (text: string) => {
    try {
      await navigator.clipboard.writeText(text)
      notify('success', t`Copied`)
    } catch {
      notify('error', t`Could not copy: select the text and copy it yourself`)
    }
  }
  const multiline = shown.secretType === 'ssh_key' || shown.secret.includes('\n')
  return (
    <Dialog open modalType="modal" onOpenChange={(_, d) => { if (!d.open) onClose() }}>
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
            <Button appearance="primary" onClick={onClose}><Trans>Close</Trans></Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  )
}
