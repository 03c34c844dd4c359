/**
 * Options of a related picker (spec §4.5, console-behaviour §2.4): pages of 10 from the related list URL with
 * `search`, more pages on demand, and labels of the current values resolved through `spm` when the page did not
 * already know them. A 403 marks the picker forbidden (it is then disabled).
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react'
import { cacheResources, listAll, listResources, type Row, type RowId } from '../../api/resources.ts'
import { ApiError } from '../../api/client.ts'
import { objectLabel } from '../table/formatters.ts'

export const PICKER_PAGE = 10

export interface OptionSource {
  url: string
  label?: (row: Row) => string
  value?: (row: Row) => RowId
}

export interface PickerOption {
  id: RowId
  key: string
  label: string
}

export function toOption(row: Row, source: OptionSource): PickerOption {
  const id = source.value ? source.value(row) : row.id
  return { id, key: String(id), label: source.label ? source.label(row) : objectLabel(row) }
}

export function useOptions(source: OptionSource, values: readonly RowId[], known: Readonly<Record<string, string>> = {}) {
  const [query, setQuery] = useState('')
  const [options, setOptions] = useState<PickerOption[]>([])
  const [hasMore, setHasMore] = useState(false)
  const [loading, setLoading] = useState(false)
  const [forbidden, setForbidden] = useState(false)
  const [labels, setLabels] = useState<Map<string, string>>(() => new Map(Object.entries(known)))
  const [active, setActive] = useState(false)
  const request = useRef(0)
  const sourceRef = useRef(source)
  useLayoutEffect(() => {
    sourceRef.current = source
  })

  const remember = (rows: PickerOption[]) => setLabels((prev) => {
    const next = new Map(prev)
    for (const o of rows) next.set(o.key, o.label)
    return next
  })

  const load = useCallback(async (search: string, offset: number) => {
    const mine = ++request.current
    setLoading(true)
    try {
      const page = await listResources(sourceRef.current.url, { search: search || undefined, limit: PICKER_PAGE, offset })
      if (mine !== request.current) return
      const rows = page.results.map((r) => toOption(r, sourceRef.current))
      remember(rows)
      setOptions((prev) => (offset === 0 ? rows : [...prev, ...rows]))
      setHasMore(page.next !== null && offset + rows.length < page.count)
    } catch (e) {
      if (mine !== request.current) return
      if (e instanceof ApiError && e.status === 403) setForbidden(true)
      setOptions((prev) => (offset === 0 ? [] : prev))
      setHasMore(false)
    } finally {
      if (mine === request.current) setLoading(false)
    }
  }, [])

  // Search as the user types (debounced), once the picker has been opened.
  useEffect(() => {
    if (!active || forbidden) return
    const timer = setTimeout(() => void load(query, 0), query ? 300 : 0)
    return () => clearTimeout(timer)
  }, [active, query, forbidden, load])

  // Labels of current values the page did not know: cache the ids, page through `<url>?spm=`.
  const missing = values.map(String).filter((k) => !labels.has(k))
  const missingKey = missing.join(',')
  useEffect(() => {
    if (!missingKey || forbidden) return
    let cancelled = false
    const ids = values.filter((v) => missingKey.split(',').includes(String(v)))
    void (async () => {
      try {
        const spm = await cacheResources(ids)
        const rows = await listAll(sourceRef.current.url, { spm })
        if (cancelled) return
        const found = rows.map((r) => toOption(r, sourceRef.current))
        setLabels((prev) => {
          const next = new Map(prev)
          for (const o of found) next.set(o.key, o.label)
          // ids the server no longer knows keep showing their id rather than loading forever
          for (const id of ids) if (!next.has(String(id))) next.set(String(id), String(id))
          return next
        })
      } catch (e) {
        if (cancelled) return
        if (e instanceof ApiError && e.status === 403) setForbidden(true)
        setLabels((prev) => {
          const next = new Map(prev)
          for (const id of ids) if (!next.has(String(id))) next.set(String(id), String(id))
          return next
        })
      }
    })()
    return () => {
      cancelled = true
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [missingKey, forbidden])

  const loadMore = useCallback(() => {
    if (hasMore && !loading) void load(query, options.length)
  }, [hasMore, loading, load, query, options.length])

  const labelOf = useCallback((id: RowId) => labels.get(String(id)), [labels])

  return { query, setQuery, options, hasMore, loading, forbidden, loadMore, labelOf, activate: () => setActive(true) }
}
