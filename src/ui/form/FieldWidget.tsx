/** Renders the widget of one field (the kind comes from widgets.ts). Inside a Fluent Field, so it is labelled. */
import {
  Checkbox, Combobox, Input, Option, Radio, RadioGroup, Switch, Text, Textarea, makeStyles, tokens, useFieldControlProps_unstable,
} from '@fluentui/react-components'
import { useLingui } from '@lingui/react/macro'
import type { Choice, FieldMeta } from '../../api/metadata.ts'
import type { RowId } from '../../api/resources.ts'
import { JsonEditor } from '../common/JsonEditor.tsx'
import { RelatedPicker } from '../common/RelatedPicker.tsx'
import { TreeEditor } from '../common/TreeEditor.tsx'
import type { CheckNode } from '../common/tree.ts'
import { CellValue } from '../table/CellValue.tsx'
import { chooseFormatter } from '../table/formatters.ts'
import { ImageInput } from './ImageInput.tsx'
import { ListInput } from './ListInput.tsx'
import { NestedFields, NestedList } from './Nested.tsx'
import { TimePeriodGrid } from './TimePeriodGrid.tsx'
import type { FieldOverride, WidgetKind } from './types.ts'
import type { FormValues } from './validators.ts'
import { useState } from 'react'

const useStyles = makeStyles({
  group: { display: 'flex', flexWrap: 'wrap', columnGap: tokens.spacingHorizontalL },
  full: { width: '100%' },
  missing: { color: tokens.colorPaletteRedForeground1, fontWeight: tokens.fontWeightSemibold },
})

export interface FieldWidgetProps {
  field: FieldMeta
  widget: WidgetKind
  override: FieldOverride
  value: unknown
  values: FormValues
  onChange: (value: unknown) => void
  onBlur: () => void
  disabled: boolean
  knownLabels?: Readonly<Record<string, string>>
  /** nested objects and lists: messages below the field, by path (`sub`, `<row>.<sub>`) */
  subErrors?: Readonly<Record<string, string>>
}

function toTree(nodes: FieldMeta['tree']): CheckNode[] {
  return (nodes ?? []).map((n) => ({ id: n.value, label: n.label, ...(n.children ? { children: toTree(n.children) } : {}) }))
}

function FilterableSelect({ choices, value, onChange, onBlur, disabled, required }: { choices: readonly Choice[]; value: unknown; onChange: (v: unknown) => void; onBlur: () => void; disabled: boolean; required: boolean }) {
  const { t } = useLingui()
  const styles = useStyles()
  const [query, setQuery] = useState<string>()
  const selected = choices.find((c) => c.value === value)
  const shown = query ? choices.filter((c) => c.label.toLowerCase().includes(query.toLowerCase())) : choices
  return (
    <Combobox
      className={styles.full}
      value={query ?? selected?.label ?? ''}
      selectedOptions={selected ? [String(selected.value)] : []}
      onChange={(e) => setQuery(e.target.value)}
      onOptionSelect={(_, d) => {
        const choice = choices.find((c) => String(c.value) === d.optionValue)
        onChange(choice ? choice.value : null)
        setQuery(undefined)
      }}
      onOpenChange={(_, d) => !d.open && setQuery(undefined)}
      onBlur={onBlur}
      disabled={disabled}
      clearable={!required}
      placeholder={t`Select…`}
    >
      {shown.map((c) => <Option key={String(c.value)} value={String(c.value)} text={c.label}>{c.label}</Option>)}
      {shown.length === 0 && <Option value="" text="" disabled>{t`No matching options`}</Option>}
    </Combobox>
  )
}

export function FieldWidget(props: FieldWidgetProps) {
  const { field, widget, override, value, onChange, onBlur, disabled, values } = props
  const { i18n } = useLingui()
  const styles = useStyles()
  const aria = useFieldControlProps_unstable({}, { supportsLabelFor: true, supportsRequired: true }) as Record<string, unknown>
  const placeholder = override.placeholder ? i18n._(override.placeholder) : undefined
  const choices = override.options ?? field.choices ?? field.child?.choices ?? []
  if (override.render) return <>{override.render({ field, value, onChange, onBlur, disabled, values })}</>
  const str = typeof value === 'string' ? value : value === null || value === undefined ? '' : String(value)
  switch (widget) {
    case 'readonly':
      return <Text>{value === undefined ? '-' : <CellValue kind={chooseFormatter(field)} value={value} field={field} />}</Text>
    case 'text':
      return <Input className={styles.full} value={str} disabled={disabled} placeholder={placeholder} onChange={(_, d) => onChange(d.value.trim() === d.value ? d.value : d.value.trimStart())} onBlur={(e) => { if (e.target.value !== e.target.value.trim()) onChange(e.target.value.trim()); onBlur() }} />
    case 'email':
      return <Input className={styles.full} type="email" value={str} disabled={disabled} placeholder={placeholder} onChange={(_, d) => onChange(d.value.trim())} onBlur={onBlur} />
    case 'password':
      return <Input className={styles.full} type="password" autoComplete="new-password" value={str} disabled={disabled} placeholder={placeholder} onChange={(_, d) => onChange(d.value)} onBlur={onBlur} />
    case 'number':
      return <Input className={styles.full} type="number" value={str} disabled={disabled} placeholder={placeholder} min={field.minValue} max={field.maxValue} onChange={(_, d) => onChange(d.value.trim())} onBlur={onBlur} />
    case 'textarea':
      return <Textarea className={styles.full} rows={3} resize="vertical" value={str} disabled={disabled} placeholder={placeholder} onChange={(_, d) => onChange(d.value.trimStart())} onBlur={(e) => { if (e.target.value !== e.target.value.trim()) onChange(e.target.value.trim()); onBlur() }} />
    case 'switch':
      return <Switch checked={value === true} disabled={disabled} onChange={(_, d) => onChange(d.checked)} />
    case 'radio':
      return (
        <RadioGroup layout="horizontal" value={value === null || value === undefined ? '' : String(value)} disabled={disabled} onChange={(_, d) => onChange(choices.find((c) => String(c.value) === d.value)?.value ?? d.value)}>
          {choices.map((c) => <Radio key={String(c.value)} value={String(c.value)} label={c.label} />)}
        </RadioGroup>
      )
    case 'select':
      return <FilterableSelect choices={choices} value={value} onChange={onChange} onBlur={onBlur} disabled={disabled} required={field.required} />
    case 'checkboxGroup': {
      const list = Array.isArray(value) ? value : []
      return (
        <div className={styles.group} role="group" aria-labelledby={aria['aria-labelledby'] as string | undefined}>
          {choices.map((c) => (
            <Checkbox key={String(c.value)} label={c.label} checked={list.includes(c.value)} disabled={disabled}
              onChange={(_, d) => onChange(d.checked ? [...list, c.value] : list.filter((v) => v !== c.value))} />
          ))}
        </div>
      )
    }
    case 'tree': {
      const list = Array.isArray(value) ? value.map(String) : []
      return <TreeEditor nodes={toTree(field.tree)} checked={new Set(list)} disabled={disabled} label={field.label} onChange={(next) => onChange([...next])} />
    }
    case 'datetime':
      return <Input className={styles.full} type="datetime-local" value={str} disabled={disabled} onChange={(_, d) => onChange(d.value)} onBlur={onBlur} />
    case 'date':
      return <Input className={styles.full} type="date" value={str} disabled={disabled} onChange={(_, d) => onChange(d.value)} onBlur={onBlur} />
    case 'json':
      return <JsonEditor className={styles.full} value={str} disabled={disabled} onChange={onChange} onBlur={onBlur} />
    case 'list':
      return <ListInput value={Array.isArray(value) ? value.map(String) : []} disabled={disabled} onChange={onChange} onBlur={onBlur} />
    case 'related':
    case 'relatedMulti': {
      // No picker source (reported by the form; the manifest test fails on it): ids may still be typed, and in
      // development the field says why it is not a picker.
      if (!override.related) {
        return (
          <>
            <Input className={styles.full} value={str} disabled={disabled} onChange={(_, d) => onChange(d.value)} onBlur={onBlur} />
            {import.meta.env.DEV && <Text role="alert" className={styles.missing}>No picker source for the related field "{field.name}": declare its model in src/views/manifest.ts</Text>}
          </>
        )
      }
      return (
        <RelatedPicker
          source={override.related}
          multiple={widget === 'relatedMulti'}
          value={(widget === 'relatedMulti' ? (Array.isArray(value) ? value : []) : (value ?? null)) as RowId | RowId[] | null}
          onChange={onChange}
          onBlur={onBlur}
          knownLabels={props.knownLabels}
          disabled={disabled}
          required={field.required}
          placeholder={placeholder}
        />
      )
    }
    case 'image':
      return <ImageInput value={str} disabled={disabled} onChange={onChange} labelledBy={aria['aria-labelledby'] as string | undefined} />
    case 'timePeriod':
      return <TimePeriodGrid value={value} onChange={onChange} disabled={disabled} aria-labelledby={aria['aria-labelledby'] as string | undefined} />
    case 'nested':
      return <NestedFields field={field} override={override} value={value} onChange={onChange} disabled={disabled} values={values} errors={props.subErrors} />
    case 'nestedList':
      return <NestedList field={field} override={override} value={value} onChange={onChange} disabled={disabled} values={values} errors={props.subErrors} />
  }
}
