/** List state in the URL (list pages) or in React state (lists inside a detail tab); same shape either way. */
import { useNavigate, useSearch } from '@tanstack/react-router'
import { useCallback, useMemo, useState } from 'react'
import { readPageSize } from '../table/tableConfig.ts'
import { decodeListState, defaultRange, encodeListState, validateListSearch, type ListDefaults, type ListSearch, type ListState } from './listState.ts'
import type { ListConfig } from './types.ts'

/** The list's defaults: page size from the table settings, order from the config, else the resource's. */
export function listDefaults(config: Pick<ListConfig, 'defaultOrder' | 'dateRange' | 'resource'>): ListDefaults {
  const defaultOrder = config.defaultOrder !== undefined ? config.defaultOrder : config.resource.defaultOrder
  const d: ListDefaults = { size: readPageSize() }
  const order = defaultOrder === null ? undefined : defaultOrder ?? '-date_updated'
  if (order) d.order = order
  if (config.dateRange ?? config.resource.dateRange) d.dateRange = defaultRange()
  return d
}

export function useListDefaults(config: Pick<ListConfig, 'defaultOrder' | 'dateRange' | 'resource'>): ListDefaults {
  const { defaultOrder, dateRange, resource } = config
  return useMemo(() => listDefaults({ defaultOrder, dateRange, resource }), [defaultOrder, dateRange, resource])
}

export type SetListState = (next: ListState, opts?: { replace?: boolean }) => void

export function useUrlListState(defaults: ListDefaults): [ListState, SetListState] {
  const raw = useSearch({ strict: false }) as Record<string, unknown>
  const search = validateListSearch(raw)
  const key = JSON.stringify(search)
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const state = useMemo(() => decodeListState(search, defaults), [key, defaults])
  const navigate = useNavigate()
  const set = useCallback<SetListState>((next, opts) => {
    const keep = JSON.parse(key) as ListSearch
    void navigate({ to: '.', search: encodeListState(next, defaults, keep), replace: opts?.replace } as never)
  }, [navigate, key, defaults])
  return [state, set]
}

export function useLocalListState(defaults: ListDefaults, initial: ListSearch = {}): [ListState, SetListState] {
  const [state, setState] = useState(() => decodeListState(initial, defaults))
  const set = useCallback<SetListState>((next) => setState(next), [])
  return [state, set]
}
