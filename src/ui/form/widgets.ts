/**
 * Which widget renders a field (console-behaviour §1.6, spec §5): by override, then by name (email,
 * password, comment), then by metadata type. Choice fields with more than 4 options become a filterable
 * select; strings without max_length a 3-row textarea; write-only strings a password input. Pure.
 */
import type { FieldMeta } from '../../api/metadata.ts'
import type { FieldOverride, WidgetKind } from './types.ts'
import { email, json, lengthRule, rangeRule, required, type Validator } from './validators.ts'

export const MAX_RADIO_CHOICES = 4

export function chooseWidget(field: FieldMeta, override: FieldOverride = {}): WidgetKind {
  if (override.widget) return override.widget
  if (field.readOnly) return 'readonly'
  if (override.related) return field.type === 'm2m_related_field' || field.type === 'list' ? 'relatedMulti' : 'related'
  if (field.name === 'email') return 'email'
  if (field.name === 'password') return 'password'
  if (field.name === 'comment') return 'textarea'
  // ACL rules' weekly periods (login ACLs, login asset ACLs): a days × hours grid wherever they appear
  if (field.name === 'time_period' && (field.type === 'list' || field.type === 'field')) return 'timePeriod'
  const choices = override.options ?? field.choices
  switch (field.type) {
    case 'choice':
    case 'labeled_choice':
      return (choices?.length ?? 0) > MAX_RADIO_CHOICES ? 'select' : 'radio'
    case 'multiple choice':
      return 'checkboxGroup'
    case 'tree':
      return 'tree'
    case 'datetime':
      return 'datetime'
    case 'date':
      return 'date'
    case 'json':
      return 'json'
    case 'image upload':
      return 'image'
    case 'field':
      if (field.child?.type === 'nested object') return 'nestedList'
      return choices && choices.length > 0 ? 'select' : 'text'
    case 'string':
    case 'slug':
    case 'regex':
      if (field.writeOnly) return 'password'
      return field.maxLength === undefined ? 'textarea' : 'text'
    case 'email':
      return 'email'
    case 'boolean':
      return 'switch'
    case 'list':
      if (field.child?.choices && field.child.choices.length > 0) return 'checkboxGroup'
      if (field.child?.type === 'nested object') return 'nestedList'
      return 'list'
    case 'object_related_field':
      return 'related'
    case 'm2m_related_field':
      return 'relatedMulti'
    case 'nested object':
      return field.children && field.children.length > 0 ? 'nested' : 'json'
    case 'integer':
    case 'float':
    case 'decimal':
      return 'number'
    default:
      return 'text'
  }
}

/** Rules from the metadata (required, length, range, format) plus the override's own. */
export function rulesFor(field: FieldMeta, widget: WidgetKind, override: FieldOverride = {}): Validator[] {
  const rules: Validator[] = []
  if (field.required && widget !== 'readonly' && widget !== 'switch') rules.push(required)
  if (field.maxLength !== undefined || field.minLength !== undefined) rules.push(lengthRule(field.minLength, field.maxLength))
  if (widget === 'number') rules.push(rangeRule(field.minValue, field.maxValue))
  if (widget === 'email') rules.push(email)
  if (widget === 'json') rules.push(json)
  rules.push(...(override.rules ?? []))
  return rules
}

/** Text inputs validate on blur, the other widgets on change (spec §5). */
export function validatesOnBlur(widget: WidgetKind): boolean {
  return widget === 'text' || widget === 'textarea' || widget === 'password' || widget === 'email' || widget === 'number'
}
