/** What a form shows before its fields: a spinner while metadata and object load, the error when that fails. */
import { MessageBar, MessageBarBody, Spinner } from '@fluentui/react-components'
import { useLingui } from '@lingui/react/macro'
import { describeError } from '../common/errors.ts'
import type { ResourceForm } from './useResourceForm.ts'

export function FormLoadState({ form }: { form: Pick<ResourceForm, 'status' | 'loadError'> }) {
  const { t } = useLingui()
  if (form.status === 'loading') return <Spinner label={t`Loading…`} />
  if (form.status === 'error') {
    return (
      <MessageBar intent="error">
        <MessageBarBody>{describeError(form.loadError)}</MessageBarBody>
      </MessageBar>
    )
  }
  return null
}
