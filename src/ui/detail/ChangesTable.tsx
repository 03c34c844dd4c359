/**
 * What an operate log changed, field by field (JumpServer's action detail `{diff: [{field, before, after}]}`,
 * read from `GET <operate log>/?type=action_detail`): the Activity tab's dialog and the operate log's own detail.
 */
import { MessageBar, MessageBarBody, Spinner, Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow, makeStyles, tokens } from '@fluentui/react-components'
import { useLingui } from '@lingui/react/macro'
import { diffQuery } from '../../api/queries.ts'
import { describeError } from '../common/errors.ts'
import { useCached } from '../common/useCached.ts'

const useStyles = makeStyles({
  scroll: { overflowX: 'auto', maxWidth: '100%' },
  value: { whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' },
  before: { color: tokens.colorPaletteRedForeground1 },
  after: { color: tokens.colorPaletteGreenForeground1 },
})

export function ChangesTable({ url }: { url: string }) {
  const { t } = useLingui()
  const styles = useStyles()
  const diff = useCached(diffQuery(url))
  if (diff.status === 'error') return <MessageBar intent="error"><MessageBarBody>{describeError(diff.error)}</MessageBarBody></MessageBar>
  if (diff.status !== 'ok') return <Spinner label={t`Loading…`} />
  if (!diff.data?.length) return <p>{t`No field changes recorded`}</p>
  return (
    <div className={styles.scroll}>
      <Table aria-label={t`Changes`} size="small">
        <TableHeader>
          <TableRow>
            <TableHeaderCell>{t`Field`}</TableHeaderCell>
            <TableHeaderCell>{t`Before`}</TableHeaderCell>
            <TableHeaderCell>{t`After`}</TableHeaderCell>
          </TableRow>
        </TableHeader>
        <TableBody>
          {diff.data.map((d, i) => (
            <TableRow key={i}>
              <TableCell>{d.field}</TableCell>
              <TableCell><span className={`${styles.value} ${styles.before}`}>{d.before || '-'}</span></TableCell>
              <TableCell><span className={`${styles.value} ${styles.after}`}>{d.after || '-'}</span></TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  )
}
