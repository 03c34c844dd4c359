/**
 * Related-object pickers: a single choice (Combobox) or many (TagPicker), filled 10 at a time from the related
 * list URL with search; more load on scroll or with "Load more". Disabled on 403. When creation is allowed, a
 * typed value that is not a UUID can be added as a new entry (spec §5).
 */
import {
  Combobox, Option, Spinner, Tag, TagPicker, TagPickerControl, TagPickerGroup, TagPickerInput, TagPickerList, TagPickerOption,
  makeStyles, tokens, type ComboboxProps,
} from '@fluentui/react-components'
import { useLingui } from '@lingui/react/macro'
import { useState, type UIEvent } from 'react'
import type { RowId } from '../../api/resources.ts'
import { isUuid } from '../form/formModel.ts'
import { useOptions, type OptionSource } from './useOptions.ts'

const MORE = '__more__'
const NEW = '__new__:'

const useStyles = makeStyles({
  full: { width: '100%', minWidth: '240px' },
  // a long name is cut with an ellipsis inside the field (on a phone a chip would push the page sideways)
  group: { minWidth: 0, maxWidth: '100%' },
  tag: { minWidth: 0, maxWidth: '100%' },
  tagText: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  hint: { color: tokens.colorNeutralForeground3, padding: tokens.spacingHorizontalS },
})

export interface RelatedPickerProps {
  source: OptionSource & { allowCreate?: boolean }
  multiple?: boolean
  value: RowId | null | readonly RowId[]
  onChange: (value: RowId | null | RowId[]) => void
  onBlur?: () => void
  knownLabels?: Readonly<Record<string, string>>
  disabled?: boolean
  required?: boolean
  placeholder?: string
}

function atBottom(e: UIEvent<HTMLElement>): boolean {
  const el = e.currentTarget
  return el.scrollTop + el.clientHeight >= el.scrollHeight - 24
}

export function RelatedPicker(props: RelatedPickerProps) {
  return props.multiple ? <MultiPicker {...props} /> : <SinglePicker {...props} />
}

function SinglePicker({ source, value, onChange, onBlur, knownLabels, disabled, required, placeholder }: RelatedPickerProps) {
  const { t } = useLingui()
  const styles = useStyles()
  const current = value === null || value === undefined || Array.isArray(value) ? null : (value as RowId)
  const o = useOptions(source, current === null ? [] : [current], knownLabels)
  const [open, setOpen] = useState(false)
  const selectedLabel = current === null ? '' : o.labelOf(current) ?? t`Loading…`
  const canCreate = source.allowCreate && o.query.trim() !== '' && !isUuid(o.query.trim())
  const onSelect: ComboboxProps['onOptionSelect'] = (_e, d) => {
    if (d.optionValue === MORE) {
      o.loadMore()
      setOpen(true)
      return
    }
    if (d.optionValue === undefined) onChange(null)
    else if (d.optionValue.startsWith(NEW)) onChange(d.optionValue.slice(NEW.length))
    else onChange(o.options.find((x) => x.key === d.optionValue)?.id ?? d.optionValue)
    o.setQuery('')
  }
  return (
    <Combobox
      className={styles.full}
      open={open}
      onOpenChange={(_, d) => {
        setOpen(d.open)
        if (d.open) o.activate()
        else o.setQuery('')
      }}
      value={open ? o.query : selectedLabel}
      onChange={(e) => {
        o.setQuery(e.target.value)
        o.activate()
        setOpen(true)
      }}
      onBlur={onBlur}
      selectedOptions={current === null ? [] : [String(current)]}
      onOptionSelect={onSelect}
      disabled={disabled || o.forbidden}
      clearable={!required}
      placeholder={o.forbidden ? t`No permission to list these objects` : placeholder ?? t`Search…`}
      listbox={{ onScroll: (e: UIEvent<HTMLElement>) => atBottom(e) && o.loadMore() }}
    >
      {o.options.map((opt) => <Option key={opt.key} value={opt.key} text={opt.label}>{opt.label}</Option>)}
      {canCreate && <Option key="new" value={`${NEW}${o.query.trim()}`} text={o.query.trim()}>{t`Create “${o.query.trim()}”`}</Option>}
      {o.hasMore && <Option key="more" value={MORE} text={t`Load more`}>{t`Load more…`}</Option>}
      {!o.loading && o.options.length === 0 && !canCreate && <div className={styles.hint} role="status">{t`No matching objects`}</div>}
      {o.loading && <div className={styles.hint}><Spinner size="extra-tiny" label={t`Loading…`} /></div>}
    </Combobox>
  )
}

function MultiPicker({ source, value, onChange, onBlur, knownLabels, disabled, placeholder }: RelatedPickerProps) {
  const { t } = useLingui()
  const styles = useStyles()
  const values = Array.isArray(value) ? (value as RowId[]) : []
  const keys = values.map(String)
  const o = useOptions(source, values, knownLabels)
  const [open, setOpen] = useState(false)
  const canCreate = source.allowCreate && o.query.trim() !== '' && !isUuid(o.query.trim()) && !keys.includes(o.query.trim())
  const remaining = o.options.filter((opt) => !keys.includes(opt.key))
  return (
    <TagPicker
      open={open}
      onOpenChange={(_, d) => {
        setOpen(d.open)
        if (d.open) o.activate()
      }}
      selectedOptions={keys}
      disabled={disabled || o.forbidden}
      onOptionSelect={(_e, d) => {
        if (d.value === MORE) {
          o.loadMore()
          setOpen(true)
          return
        }
        const next = d.selectedOptions.filter((k) => k !== MORE).map((k) => {
          if (k.startsWith(NEW)) return k.slice(NEW.length)
          return values.find((v) => String(v) === k) ?? o.options.find((x) => x.key === k)?.id ?? k
        })
        onChange(next)
        o.setQuery('')
      }}
    >
      <TagPickerControl className={styles.full}>
        <TagPickerGroup aria-label={t`Selected`} className={styles.group}>
          {values.map((v) => {
            const label = o.labelOf(v) ?? t`Loading…`
            return <Tag key={String(v)} value={String(v)} shape="rounded" className={styles.tag} title={label} primaryText={{ className: styles.tagText }} dismissIcon={{ 'aria-label': t`Remove` }}>{label}</Tag>
          })}
        </TagPickerGroup>
        <TagPickerInput
          value={o.query}
          onChange={(e) => {
            o.setQuery(e.target.value)
            o.activate()
            setOpen(true)
          }}
          onBlur={onBlur}
          placeholder={o.forbidden ? t`No permission to list these objects` : values.length === 0 ? placeholder ?? t`Search…` : undefined}
        />
      </TagPickerControl>
      <TagPickerList onScroll={(e: UIEvent<HTMLElement>) => atBottom(e) && o.loadMore()}>
        {remaining.map((opt) => <TagPickerOption key={opt.key} value={opt.key} text={opt.label}>{opt.label}</TagPickerOption>)}
        {canCreate ? <TagPickerOption key="new" value={`${NEW}${o.query.trim()}`} text={o.query.trim()}>{t`Create “${o.query.trim()}”`}</TagPickerOption> : null}
        {o.hasMore ? <TagPickerOption key="more" value={MORE} text={t`Load more`}>{t`Load more…`}</TagPickerOption> : null}
        {!o.loading && remaining.length === 0 && !canCreate ? <div className={styles.hint} role="status">{t`No matching objects`}</div> : null}
      </TagPickerList>
    </TagPicker>
  )
}
