/**
 * Renders a resource form from its metadata: groups with headers, one Fluent Field per field (label,
 * required mark, help text, error), top-level errors above; after a failed submit the first error is
 * scrolled to and focused.
 */
import { Field, MessageBar, MessageBarBody, makeStyles, tokens } from '@fluentui/react-components'
import { useLingui } from '@lingui/react/macro'
import { useEffect, useRef } from 'react'
import { FieldWidget } from './FieldWidget.tsx'
import type { ResourceForm } from './useResourceForm.ts'

const useStyles = makeStyles({
  form: { display: 'grid', gap: tokens.spacingVerticalL, maxWidth: '880px' },
  group: { display: 'grid', gap: tokens.spacingVerticalM, border: 'none', margin: 0, padding: 0, minWidth: 0 },
  legend: {
    fontSize: tokens.fontSizeBase400, fontWeight: tokens.fontWeightSemibold, paddingBottom: tokens.spacingVerticalS, width: '100%',
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`, marginBottom: tokens.spacingVerticalS,
  },
  field: { maxWidth: '720px' },
})

/** Scrolls to the first field with an error (in form order) and focuses its first control. */
export function useFocusFirstError(form: Pick<ResourceForm, 'errors' | 'errorTick' | 'order'>, root: React.RefObject<HTMLElement | null>) {
  useEffect(() => {
    if (form.errorTick === 0 || !root.current) return
    const first = form.order.find((name) => form.errors[name] || Object.keys(form.errors).some((k) => k.startsWith(`${name}.`)))
    const target = first ? root.current.querySelector<HTMLElement>(`[data-field="${CSS.escape(first)}"]`) : root.current.querySelector<HTMLElement>('[data-form-errors]')
    if (!target) return
    target.scrollIntoView?.({ block: 'center' })
    const control = target.querySelector<HTMLElement>('input:not([type=hidden]), textarea, button, [tabindex]:not([tabindex="-1"])')
    ;(control ?? target).focus?.({ preventScroll: true })
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [form.errorTick])
}

/** The messages of a nested field's sub-fields (`name.sub` → sub). */
function subErrorsOf(errors: Record<string, string>, name: string): Record<string, string> | undefined {
  const prefix = `${name}.`
  const keys = Object.keys(errors).filter((k) => k.startsWith(prefix))
  return keys.length ? Object.fromEntries(keys.map((k) => [k.slice(prefix.length), errors[k]!])) : undefined
}

export function AutoForm({ form, disabled = false }: { form: ResourceForm; disabled?: boolean }) {
  const { overrides } = form
  const { i18n } = useLingui()
  const styles = useStyles()
  const root = useRef<HTMLDivElement>(null)
  useFocusFirstError(form, root)
  return (
    <div className={styles.form} ref={root}>
      {form.topErrors.length > 0 && (
        <MessageBar intent="error" data-form-errors tabIndex={-1}>
          <MessageBarBody>{form.topErrors.map((m, i) => <div key={i}>{m}</div>)}</MessageBarBody>
        </MessageBar>
      )}
      {form.groups.map((group, gi) => {
        const names = group.names.filter((n) => form.visible(n))
        if (names.length === 0) return null
        const body = names.map((name) => {
          const field = form.field(name)!
          const o = overrides[name] ?? {}
          const widget = form.widgetOf(field)
          const isDisabled = disabled || form.saving || (typeof o.disabled === 'function' ? o.disabled(form.values) : o.disabled === true)
          return (
            <div key={name} data-field={name} className={styles.field}>
              <Field
                label={o.label ? i18n._(o.label) : field.label}
                required={field.required && widget !== 'readonly' && !disabled}
                hint={o.helpText ? i18n._(o.helpText) : field.helpText}
                validationMessage={form.errors[name]}
                validationState={form.errors[name] ? 'error' : 'none'}
              >
                <FieldWidget
                  field={field}
                  widget={widget}
                  override={o}
                  value={form.values[name]}
                  values={form.values}
                  onChange={(v) => form.setValue(name, v)}
                  onBlur={() => form.blur(name)}
                  disabled={isDisabled}
                  knownLabels={form.labels[name]}
                  subErrors={subErrorsOf(form.errors, name)}
                />
              </Field>
            </div>
          )
        })
        return group.title ? (
          <fieldset key={gi} className={styles.group}>
            <legend className={styles.legend}>{i18n._(group.title)}</legend>
            {body}
          </fieldset>
        ) : (
          <div key={gi} className={styles.group}>{body}</div>
        )
      })}
    </div>
  )
}
