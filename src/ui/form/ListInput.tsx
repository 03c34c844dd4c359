/** A list of short strings (ListField): typed values become removable tags (Enter or comma adds). */
import { Input, Tag, TagGroup, makeStyles, tokens } from '@fluentui/react-components'
import { useLingui } from '@lingui/react/macro'
import { useState } from 'react'

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS, width: '100%' },
})

export function ListInput({ value, onChange, onBlur, disabled, ...aria }: { value: readonly string[]; onChange: (v: string[]) => void; onBlur?: () => void; disabled?: boolean; id?: string; 'aria-labelledby'?: string; 'aria-describedby'?: string; 'aria-invalid'?: boolean }) {
  const { t } = useLingui()
  const styles = useStyles()
  const [text, setText] = useState('')
  const add = () => {
    const items = text.split(/[,\n]/).map((s) => s.trim()).filter(Boolean)
    if (items.length) onChange([...value, ...items.filter((i) => !value.includes(i))])
    setText('')
  }
  return (
    <div className={styles.root}>
      {value.length > 0 && (
        <TagGroup size="small" aria-label={t`Values`} onDismiss={(_, d) => !disabled && onChange(value.filter((v) => v !== d.value))}>
          {value.map((v) => <Tag key={v} value={v} shape="rounded" dismissible={!disabled} dismissIcon={{ 'aria-label': t`Remove` }}>{v}</Tag>)}
        </TagGroup>
      )}
      <Input
        {...aria}
        value={text}
        disabled={disabled}
        placeholder={t`Type a value and press Enter`}
        onChange={(_, d) => setText(d.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' || e.key === ',') {
            e.preventDefault()
            add()
          }
        }}
        onBlur={() => {
          add()
          onBlur?.()
        }}
      />
    </div>
  )
}
