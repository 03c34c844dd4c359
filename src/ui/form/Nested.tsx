/**
 * Nested objects (NestedField of the reference): the children in a bordered group, and lists of nested
 * objects as rows that can be added and removed. Errors of children are shown, flattened, on the parent.
 */
import { Button, Field, makeStyles, tokens } from '@fluentui/react-components'
import { AddRegular, DeleteRegular } from '@fluentui/react-icons'
import { useLingui } from '@lingui/react/macro'
import type { FieldMeta } from '../../api/metadata.ts'
import { FieldWidget } from './FieldWidget.tsx'
import { initialValues } from './formModel.ts'
import type { FieldOverride } from './types.ts'
import type { FormValues } from './validators.ts'
import { chooseWidget } from './widgets.ts'

const useStyles = makeStyles({
  box: {
    display: 'grid', gap: tokens.spacingVerticalS, padding: tokens.spacingHorizontalM, width: '100%', boxSizing: 'border-box',
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`, borderRadius: tokens.borderRadiusMedium,
  },
  row: { display: 'flex', alignItems: 'flex-end', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  cell: { flexGrow: 1, minWidth: '140px' },
})

interface NestedProps {
  field: FieldMeta
  override: FieldOverride
  value: unknown
  onChange: (value: unknown) => void
  disabled: boolean
  values: FormValues
  /** messages of the children, by name (a single nested object) */
  errors?: Readonly<Record<string, string>>
}

const asObject = (v: unknown): FormValues => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as FormValues) : {})

function Children({ children, override, value, onChange, disabled, inline, errors }: { children: readonly FieldMeta[]; override: FieldOverride; value: FormValues; onChange: (v: FormValues) => void; disabled: boolean; inline?: boolean; errors?: Readonly<Record<string, string>> }) {
  const { i18n } = useLingui()
  const styles = useStyles()
  return (
    <>
      {children.filter((c) => !c.readOnly).map((child) => {
        const o = override.fields?.[child.name] ?? {}
        if (o.hidden?.(value)) return null
        return (
          <Field key={child.name} className={inline ? styles.cell : undefined} label={o.label ? i18n._(o.label) : child.label} required={child.required} hint={o.helpText ? i18n._(o.helpText) : child.helpText}
            validationMessage={errors?.[child.name]} validationState={errors?.[child.name] ? 'error' : 'none'}>
            <FieldWidget
              field={child}
              widget={chooseWidget(child, o)}
              override={o}
              value={value[child.name]}
              values={value}
              onChange={(v) => onChange({ ...value, [child.name]: v })}
              onBlur={() => {}}
              disabled={disabled || o.disabled === true}
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

export function NestedList({ field, override, value, onChange, disabled }: NestedProps) {
  const { t } = useLingui()
  const styles = useStyles()
  const children = (field.child ?? field).children ?? []
  const items = Array.isArray(value) ? value.map(asObject) : []
  const set = (i: number, v: FormValues) => onChange(items.map((item, j) => (j === i ? v : item)))
  return (
    <div className={styles.box} role="group">
      {items.map((item, i) => (
        <div key={i} className={styles.row}>
          <Children children={children} override={override} value={item} onChange={(v) => set(i, v)} disabled={disabled} inline />
          <Button appearance="subtle" icon={<DeleteRegular />} aria-label={t`Remove item ${i + 1}`} disabled={disabled} onClick={() => onChange(items.filter((_, j) => j !== i))} />
        </div>
      ))}
      <div>
        <Button appearance="secondary" size="small" icon={<AddRegular />} disabled={disabled} onClick={() => onChange([...items, initialValues(children, override.fields ?? {})])}>
          {t`Add`}
        </Button>
      </div>
    </div>
  )
}
