/** The rows a list has selected, kept across pages by id (spec §9): the table reports ids, the list keeps rows. */
import { useCallback, useMemo, useState } from 'react'
import type { Row, RowId } from '../../api/resources.ts'

export interface Selection {
  rows: readonly Row[]
  ids: Set<RowId>
  onChange: (ids: Set<RowId>) => void
  clear: () => void
}

export function useSelection(pageRows: readonly Row[]): Selection {
  const [selected, setSelected] = useState<Map<RowId, Row>>(new Map())
  const rows = useMemo(() => [...selected.values()], [selected])
  const ids = useMemo(() => new Set(selected.keys()), [selected])
  const onChange = useCallback((next: Set<RowId>) => {
    setSelected((prev) => {
      const out = new Map<RowId, Row>()
      for (const id of next) {
        const row = prev.get(id) ?? pageRows.find((r) => r.id === id)
        if (row) out.set(id, row)
      }
      return out
    })
  }, [pageRows])
  const clear = useCallback(() => setSelected(new Map()), [])
  return { rows, ids, onChange, clear }
}
