/** A run's status as words and colour, and the per-asset results table: the quick job's and a job execution's. */
import { Badge, makeStyles, Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow, tokens } from '@fluentui/react-components'
import { useLingui } from '@lingui/react/macro'
import type { AssetResult } from '../../../api/jobs.ts'

const useStyles = makeStyles({
  table: { overflowX: 'auto', maxWidth: '100%' },
  mono: { fontFamily: tokens.fontFamilyMonospace, whiteSpace: 'pre-wrap', margin: 0, wordBreak: 'break-all' },
})

export function useStatusText() {
  const { t } = useLingui()
  const label = (s: string) => ({
    ok: t`Success`, failed: t`Failed`, dark: t`Unreachable`, skipped: t`Skipped`, excluded: t`Excluded`, pending: t`Pending`,
    success: t`Success`, canceled: t`Stopped`, running: t`Running`, timeout: t`Timeout`,
  } as Record<string, string>)[s] ?? s
  const color = (s: string) => (s === 'ok' || s === 'success' ? 'success' : s === 'running' || s === 'pending' ? 'informative' : s === 'skipped' || s === 'excluded' || s === 'canceled' ? 'warning' : 'danger')
  return { label, color } as const
}

export function StatusBadge({ status }: { status: string }) {
  const s = useStatusText()
  return <Badge appearance="tint" color={s.color(status)}>{s.label(status)}</Badge>
}

export function ResultsTable({ results }: { results: AssetResult[] }) {
  const { t } = useLingui()
  const styles = useStyles()
  return (
    <div className={styles.table}>
      <Table aria-label={t`Results per asset`} size="small">
        <TableHeader>
          <TableRow>
            <TableHeaderCell>{t`Asset`}</TableHeaderCell>
            <TableHeaderCell>{t`Status`}</TableHeaderCell>
            <TableHeaderCell>{t`Exit code`}</TableHeaderCell>
            <TableHeaderCell>{t`Output`}</TableHeaderCell>
          </TableRow>
        </TableHeader>
        <TableBody>
          {results.map((r) => (
            <TableRow key={r.id}>
              <TableCell>{r.name}</TableCell>
              <TableCell><StatusBadge status={r.status} /></TableCell>
              <TableCell>{r.rc ?? '—'}</TableCell>
              <TableCell><pre className={styles.mono}>{r.tasks[0]?.output ?? ''}</pre></TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  )
}
