/**
 * The search box with tags: free-text terms (comma-joined into `search`) and exact field filters chosen from
 * the Filter menu — choice fields offer their choices, booleans Yes/No, other fields take typed text.
 */
import { Button, Input, makeStyles, tokens } from '@fluentui/react-components'
import { Menu, MenuItem, MenuList, MenuPopover, MenuTrigger } from '../common/overlays.tsx'
import { Tag, TagGroup } from '../common/lazyParts.ts'
import { DismissRegular, FilterRegular, SearchRegular } from '@fluentui/react-icons'
import { useLingui } from '@lingui/react/macro'
import { Suspense, useState } from 'react'
import { filterTagText, type FilterOption } from './filterOptions.ts'
import { joinTerms, searchTerms } from './listState.ts'

const useStyles = makeStyles({
  root: {
    display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: tokens.spacingHorizontalXS, flexGrow: 1, minWidth: '260px', maxWidth: '720px',
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke1}`, borderRadius: tokens.borderRadiusMedium,
    paddingLeft: tokens.spacingHorizontalXS, paddingRight: tokens.spacingHorizontalXS, backgroundColor: tokens.colorNeutralBackground1,
  },
  input: { flexGrow: 1, minWidth: '140px', border: 'none', '::after': { display: 'none' } },
  pending: { color: tokens.colorBrandForeground1, whiteSpace: 'nowrap' },
})

export interface SearchBarProps {
  options: readonly FilterOption[]
  search: string
  filters: Readonly<Record<string, string>>
  /** filters set by the page, not shown */
  hidden?: readonly string[]
  onChange: (search: string, filters: Record<string, string>) => void
}

export function SearchBar({ options, search, filters, hidden = [], onChange }: SearchBarProps) {
  const { t } = useLingui()
  const styles = useStyles()
  const [text, setText] = useState('')
  const [pending, setPending] = useState<FilterOption>()
  const terms = searchTerms(search)
  const shownFilters = Object.entries(filters).filter(([k]) => !hidden.includes(k))

  const setFilter = (name: string, value: string) => {
    onChange(search, { ...filters, [name]: value })
    setPending(undefined)
  }
  const submit = () => {
    const value = text.trim()
    if (!value) return
    if (pending) setFilter(pending.name, value)
    else onChange(joinTerms([...terms, value]), { ...filters })
    setText('')
  }
  const dismiss = (value: string) => {
    if (value.startsWith('f:')) {
      const next = { ...filters }
      delete next[value.slice(2)]
      onChange(search, next)
    } else {
      onChange(joinTerms(terms.filter((x) => x !== value.slice(2))), { ...filters })
    }
  }
  const clearAll = () => {
    const kept = Object.fromEntries(Object.entries(filters).filter(([k]) => hidden.includes(k)))
    onChange('', kept)
    setText('')
    setPending(undefined)
  }

  return (
    <div className={styles.root} role="search">
      {options.length > 0 && (
        <Menu>
          <MenuTrigger disableButtonEnhancement>
            <Button appearance="transparent" size="small" icon={<FilterRegular />} aria-label={t`Filter by field`} title={t`Filter by field`} />
          </MenuTrigger>
          <MenuPopover>
            <MenuList>
              {options.map((o) => o.values ? (
                <Menu key={o.name}>
                  <MenuTrigger disableButtonEnhancement>
                    <MenuItem>{o.label}</MenuItem>
                  </MenuTrigger>
                  <MenuPopover>
                    <MenuList>
                      {o.values.map((v) => <MenuItem key={v.value} onClick={() => setFilter(o.name, v.value)}>{v.label}</MenuItem>)}
                    </MenuList>
                  </MenuPopover>
                </Menu>
              ) : (
                <MenuItem key={o.name} onClick={() => setPending(o)}>{o.label}</MenuItem>
              ))}
            </MenuList>
          </MenuPopover>
        </Menu>
      )}
      {(terms.length > 0 || shownFilters.length > 0) && (
        <Suspense fallback={null}>
        <TagGroup size="small" onDismiss={(_, d) => dismiss(String(d.value))} aria-label={t`Active filters`}>
          {shownFilters.map(([k, v]) => (
            <Tag key={`f:${k}`} value={`f:${k}`} dismissible dismissIcon={{ 'aria-label': t`Remove` }} shape="rounded">{filterTagText(options, k, v)}</Tag>
          ))}
          {terms.map((term) => (
            <Tag key={`s:${term}`} value={`s:${term}`} dismissible dismissIcon={{ 'aria-label': t`Remove` }} shape="rounded" appearance="outline">{term}</Tag>
          ))}
        </TagGroup>
        </Suspense>
      )}
      {pending && <span className={styles.pending}>{pending.label}:</span>}
      <Input
        className={styles.input}
        appearance="filled-lighter"
        contentBefore={pending ? undefined : <SearchRegular />}
        value={text}
        placeholder={pending ? t`Enter a value and press Enter` : t`Search`}
        aria-label={pending ? t`Value of ${pending.label}` : t`Search`}
        onChange={(_, d) => setText(d.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') submit()
          else if (e.key === 'Escape') setPending(undefined)
          else if (e.key === 'Backspace' && text === '' && pending) setPending(undefined)
        }}
      />
      {(terms.length > 0 || shownFilters.length > 0 || pending) && (
        <Button appearance="transparent" size="small" icon={<DismissRegular />} aria-label={t`Clear search`} title={t`Clear search`} onClick={clearAll} />
      )}
    </div>
  )
}
