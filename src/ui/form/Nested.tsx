/**
 * Nested objects (NestedField of the reference): the children in a bordered group, and lists of nested
 * objects as rows that can be added and removed. A sub-field whose children depend on a sibling's value
 * (`variants`: a protocol's setting by its name) shows that value's children and follows it when it changes.
 * Server errors land on the sub-field they name: `sub` of a nested object, `<row>.<sub>[.<subsub>]` of a list.
 */
import { Button, Field, makeStyles, MessageBar, MessageBarBody, mergeClasses, tokens } from '@fluentui/react-components'
import { AddRegular, DeleteRegular } from '@fluentui/react-icons'
import { useLingui } from '@lingui/react/macro'
import type { FieldMeta } from '../../api/metadata.ts'
import { useAccess } from '../common/access.tsx'
import { hasPerms } from '../common/perms.ts'
import { FieldWidget } from './FieldWidget.tsx'
import { followVariants, initialValues, resolveVariant } from './formModel.ts'
import type { FieldOverride } from './types.ts'
import type { FormValues } from './validators.ts'
import { chooseWidget } from './widgets.ts'

const useStyles = makeStyles({
  box: {
    display: 'grid', gap: tokens.spacingVerticalS, padding: tokens.spacingHorizontalM, width: '100%', boxSizing: 'border-box', minWidth: 0,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`, borderRadius: tokens.borderRadiusMedium,
  },
  row: {
    display: 'flex', alignItems: 'flex-end', gap: tokens.spacingHorizontalS, flexWrap: 'wrap', minWidth: 0,
    paddingBottom: tokens.spacingVerticalS, borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke3}`,
  },
  // controls shrink to their cell (inputs and comboboxes have wider intrinsic sizes than a cell may get)
  cell: { flexGrow: 1, flexBasis: '160px', minWidth: 0, '& .fui-Input, & .fui-Combobox, & .fui-Textarea, & input, & textarea': { minWidth: 0, maxWidth: '100%' } },
  wide: { flexBasis: '100%' },
  // a switch needs no more than its label
  snug: { flexGrow: 0, flexBasis: 'auto' },
  actions: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
})

interface NestedProps {
  field: FieldMeta
  override: FieldOverride
  value: unknown
  onChange: (value: unknown) => void
  disabled: boolean
  values: FormValues
  /** messages below this field, by path relative to it (`sub`, or `<row>.<sub>` in a list) */
  errors?: Readonly<Record<string, string>>
}

const asObject = (v: unknown): FormValues => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as FormValues) : {})

/** The messages under `prefix.` with the prefix taken off. */
export function errorsUnder(errors: Readonly<Record<string, string>> | undefined, prefix: string): Record<string, string> | undefined {
  if (!errors) return undefined
  const p = `${prefix}.`
  const keys = Object.keys(errors).filter((k) => k.startsWith(p))
  return keys.length ? Object.fromEntries(keys.map((k) => [k.slice(p.length), errors[k]!])) : undefined
}

/** The sub-fields a row shows: not read-only, not hidden for this row, and a variant field only with children. */
function shownChildren(children: readonly FieldMeta[], override: FieldOverride, value: FormValues): FieldMeta[] {
  return children.filter((c) => !c.readOnly && !override.fields?.[c.name]?.hidden?.(value))
    .map((c) => resolveVariant(c, value))
    .filter((c) => !c.variants || (c.children?.length ?? 0) > 0)
}

function Children({ children, override, value, onChange, disabled, inline, errors }: { children: readonly FieldMeta[]; override: FieldOverride; value: FormValues; onChange: (v: FormValues) => void; disabled: boolean; inline?: boolean; errors?: Readonly<Record<string, string>> }) {
  const { i18n } = useLingui()
  const styles = useStyles()
  return (
    <>
      {shownChildren(children, override, value).map((child) => {
        const o = override.fields?.[child.name] ?? {}
        const widget = chooseWidget(child, o)
        const wide = widget === 'nested' || widget === 'nestedList' || widget === 'json'
        return (
          <Field key={child.name} className={inline ? mergeClasses(styles.cell, wide && styles.wide, widget === 'switch' && styles.snug) : undefined} label={o.label ? i18n._(o.label) : child.label} required={child.required} hint={o.helpText ? i18n._(o.helpText) : child.helpText}
            validationMessage={errors?.[child.name]} validationState={errors?.[child.name] ? 'error' : 'none'}>
            <FieldWidget
              field={child}
              widget={widget}
              override={o}
              value={value[child.name]}
              values={value}
              // a sibling's children follow this value (a protocol's setting its name)
              onChange={(v) => onChange(followVariants(children, { ...value, [child.name]: v }, override.fields ?? {}))}
              onBlur={() => {}}
              disabled={disabled || (typeof o.disabled === 'function' ? o.disabled(value) : o.disabled === true)}
              subErrors={errorsUnder(errors, child.name)}
            />
          </Field>
        )
      })}
    </>
  )
}

export function NestedFields({ field, override, value, onChange, disabled, errors }: NestedProps) {
  const styles = useStyles()
  return (
    <div className={styles.box} role="group">
      <Children children={field.children ?? []} override={override} value={asObject(value)} onChange={onChange} disabled={disabled} errors={errors} />
    </div>
  )
}

export function NestedList({ field, override, value, onChange, disabled, errors }: NestedProps) {
  const { t, i18n } = useLingui()
  const styles = useStyles()
  const { perms } = useAccess()
  const children = (field.child ?? field).children ?? []
  const items = Array.isArray(value) ? value.map(asObject) : []
  const set = (i: number, v: FormValues) => onChange(items.map((item, j) => (j === i ? v : item)))
  const add = (preset: FormValues = {}) => onChange([...items, followVariants(children, { ...initialValues(children, override.fields ?? {}), ...preset }, override.fields ?? {})])
  return (
    <div className={styles.box} role="group">
      {items.map((item, i) => {
        const rowErrors = errorsUnder(errors, String(i))
        // messages of the row that no shown sub-field carries (the row's own, or a hidden sub-field's)
        const shown = new Set(shownChildren(children, override, item).map((c) => c.name))
        const loose = Object.entries(rowErrors ?? {}).filter(([k]) => !shown.has(k.split('.')[0]!)).map(([k, m]) => (k === 'non_field_errors' ? m : `${k}: ${m}`))
        return (
          <div key={i} className={styles.row} role="group" aria-label={t`Item ${i + 1}`} data-row={i}>
            <Children children={children} override={override} value={item} onChange={(v) => set(i, v)} disabled={disabled} inline errors={rowErrors} />
            <Button appearance="subtle" icon={<DeleteRegular />} aria-label={t`Remove item ${i + 1}`} disabled={disabled} onClick={() => onChange(items.filter((_, j) => j !== i))} />
            {loose.length > 0 && <MessageBar intent="error" className={styles.wide}><MessageBarBody>{loose.join(' ')}</MessageBarBody></MessageBar>}
          </div>
        )
      })}
      <div className={styles.actions}>
        <Button appearance="secondary" size="small" icon={<AddRegular />} disabled={disabled} onClick={() => add()}>
          {t`Add`}
        </Button>
        {override.adds?.filter((a) => hasPerms(perms, a.perms)).map((a, i) => (
          <Button key={i} appearance="secondary" size="small" icon={<AddRegular />} disabled={disabled} onClick={() => add(a.values)}>
            {i18n._(a.label)}
          </Button>
        ))}
      </div>
    </div>
  )
}
