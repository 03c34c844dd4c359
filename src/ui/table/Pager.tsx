/** Total, page size (15/30/50/100), previous, five pages, next (spec §9). */
import { Button, Select, Text, makeStyles, tokens } from '@fluentui/react-components'
import { ChevronLeftRegular, ChevronRightRegular } from '@fluentui/react-icons'
import { useLingui } from '@lingui/react/macro'
import { useId } from 'react'
import { pagerWindow } from './pager.ts'
import { PAGE_SIZES } from './tableConfig.ts'

const useStyles = makeStyles({
  root: { display: 'flex', alignItems: 'center', justifyContent: 'flex-end', flexWrap: 'wrap', gap: tokens.spacingHorizontalS, paddingTop: tokens.spacingVerticalM },
  // As wide as its longest option in the current language ("100 件/ページ"), never clipped (issue 17, defect 8).
  size: { width: 'auto' },
  sizeSelect: { width: 'auto', minWidth: '120px' },
  page: { minWidth: '32px' },
})

export interface PagerProps {
  count: number
  page: number
  size: number
  onPage: (page: number) => void
  onSize: (size: number) => void
}

export function Pager({ count, page, size, onPage, onSize }: PagerProps) {
  const { t } = useLingui()
  const styles = useStyles()
  const sizeId = useId()
  const last = Math.max(1, Math.ceil(count / size))
  return (
    <nav className={styles.root} aria-label={t`Pagination`}>
      <Text>{t`Total ${count}`}</Text>
      <Select id={sizeId} className={styles.size} select={{ className: styles.sizeSelect }} aria-label={t`Rows per page`} value={String(size)} onChange={(_, d) => onSize(Number(d.value))}>
        {PAGE_SIZES.map((s) => <option key={s} value={s}>{t`${s} / page`}</option>)}
      </Select>
      <Button appearance="subtle" icon={<ChevronLeftRegular />} aria-label={t`Previous page`} disabled={page <= 1} onClick={() => onPage(page - 1)} />
      {pagerWindow(page, last).map((p) => (
        <Button
          key={p}
          className={styles.page}
          appearance={p === page ? 'primary' : 'subtle'}
          aria-current={p === page ? 'page' : undefined}
          aria-label={t`Page ${p}`}
          onClick={() => p !== page && onPage(p)}
        >
          {p}
        </Button>
      ))}
      <Button appearance="subtle" icon={<ChevronRightRegular />} aria-label={t`Next page`} disabled={page >= last} onClick={() => onPage(page + 1)} />
    </nav>
  )
}
