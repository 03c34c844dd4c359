/** Types of the resourceForm machine (every create/update form and edit dialog of the console). */
import type { FormShape, SaveFailure } from './server-errors.ts'

export type { FormShape, SaveFailure }

export type FormValues = Record<string, unknown>
export type FormMode = 'create' | 'update' | 'view'
/** Related objects' labels by field and id (pickers show names before their options load). */
export type FormLabels = Record<string, Record<string, string>>

export interface ResourceFormInput {
  mode: FormMode
}

/**
 * What `validate` answers for the values: errors by field (`field.sub` for a nested object's sub-field) and above
 * the form; when there are none, the body to save. With the form's shape, which a failed save is mapped onto.
 */
export interface FormCheck {
  errors: Record<string, string>
  topErrors: readonly string[]
  body?: FormValues
  shape: FormShape
}

export interface ResourceFormContext {
  mode: FormMode
  values: FormValues
  labels: FormLabels
  errors: Record<string, string>
  topErrors: readonly string[]
  /** bumps after every refused submit: the view focuses the first error */
  errorTick: number
  /** what `validate` let through, for `save` */
  body: FormValues | null
  shape: FormShape | null
  /** the object the last save returned */
  saved: Readonly<Record<string, unknown>> | null
  loadError: unknown
}

export type ResourceFormEvent =
  /** the form's starting values, once the object and the metadata are in (and again for "Save and continue") */
  | { type: 'START'; values: FormValues; labels: FormLabels }
  /**
   * A value changed. `error`: the field's message now (`null` clears it; absent: left as it is — a text field
   * is checked on blur until it shows an error). `clearUnder`: drop the errors of this field's sub-fields.
   */
  | { type: 'CHANGE'; name: string; value: unknown; error?: string | null; clearUnder?: boolean }
  /** a field was checked (on blur) */
  | { type: 'CHECKED'; name: string; error: string | null }
  /** values the form itself derived (a dependent field's sub-values after its children arrived) */
  | { type: 'SET_VALUES'; values: FormValues }
  | { type: 'SUBMIT' }
