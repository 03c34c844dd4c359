/** A read-only secret shown once, with a copy button (API key secrets, temporary passwords). */
import { Button, Field, Input } from '@fluentui/react-components'
import { CopyRegular } from '@fluentui/react-icons'
import { useLingui } from '@lingui/react/macro'
import { notify } from '../../ui/common/notify.tsx'

export function CopyField({ label, value }: { label: string; value: string }) {
  const { t } = useLingui()
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value)
      notify('success', t`Copied`)
    } catch {
      notify('error', t`Could not copy: select the text and copy it yourself`)
    }
  }
  return (
    <Field label={label}>
      <Input readOnly value={value} style={{ fontFamily: 'monospace' }}
        contentAfter={<Button appearance="transparent" size="small" icon={<CopyRegular />} aria-label={t`Copy ${label}`} onClick={() => void copy()} />} />
    </Field>
  )
}
