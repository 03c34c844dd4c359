/** Per-resource form configuration (the reference's `fields` and `fieldsMeta`). */
import type { MessageDescriptor } from '@lingui/core'
import type { ReactNode } from 'react'
import type { Choice, FieldMeta } from '../../api/metadata.ts'
import type { Row, RowId } from '../../api/resources.ts'
import type { FormValues, Validator } from './validators.ts'

export type WidgetKind =
  | 'text' | 'textarea' | 'password' | 'email' | 'number' | 'switch' | 'radio' | 'select' | 'checkboxGroup'
  | 'tree' | 'datetime' | 'date' | 'json' | 'related' | 'relatedMulti' | 'list' | 'nested' | 'nestedList' | 'readonly' | 'image' | 'timePeriod'

/** Where a related picker takes its options (a list URL paged 10 at a time with `search`). */
export interface RelatedSource {
  url: string
  /** Accept a typed value that is not a UUID as a new entry (when the server creates it). */
  allowCreate?: boolean
  label?: (row: Row) => string
  value?: (row: Row) => RowId
}

export interface WidgetProps {
  field: FieldMeta
  value: unknown
  onChange: (value: unknown) => void
  onBlur: () => void
  disabled: boolean
  values: FormValues
}

export interface FieldOverride {
  widget?: WidgetKind
  /** hidden fields are neither shown, validated nor sent */
  hidden?: (values: FormValues) => boolean
  disabled?: boolean | ((values: FormValues) => boolean)
  label?: MessageDescriptor
  helpText?: MessageDescriptor
  placeholder?: MessageDescriptor
  /** extra rules (required, length, range, email, json are added from the metadata) */
  rules?: readonly Validator[]
  /** choices instead of the metadata's */
  options?: readonly Choice[]
  related?: RelatedSource
  /** nested object / list of nested objects: overrides of the children */
  fields?: Readonly<Record<string, FieldOverride>>
  /** list of nested objects: more "add" buttons beside Add, each adding a row that starts with these values
   * (keys the metadata does not name mark the row for the children's `hidden` rules and are never sent), shown
   * when the user holds `perms` */
  adds?: ReadonlyArray<{ label: MessageDescriptor; values: FormValues; perms?: readonly string[] }>
  /** a custom widget */
  render?: (props: WidgetProps) => ReactNode
}

/** `'__all__'`, or names and `[group title, names]` tuples, in display order. */
export type FieldLayout = '__all__' | readonly (string | readonly [MessageDescriptor, readonly string[]])[]

export type FieldOverrides = Readonly<Record<string, FieldOverride>>
