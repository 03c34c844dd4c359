/** An account's secret in a form: an SSH key is several lines (a password input drops line breaks), so a text area for keys, a password input else. */
import { Input, Textarea } from '@fluentui/react-components'
import type { WidgetProps } from '../../../ui/form/types.ts'

export function SecretInput({ value, onChange, onBlur, disabled, values }: WidgetProps) {
  const text = typeof value === 'string' ? value : ''
  return values.secret_type === 'ssh_key'
    ? <Textarea rows={4} resize="vertical" spellCheck={false} value={text} disabled={disabled} onChange={(_, d) => onChange(d.value)} onBlur={onBlur} style={{ width: '100%', fontFamily: 'monospace' }} />
    : <Input type="password" autoComplete="new-password" value={text} disabled={disabled} onChange={(_, d) => onChange(d.value)} onBlur={onBlur} style={{ width: '100%' }} />
}
