/** Renders one table cell from its formatter kind (see formatters.ts). */
import { Badge, makeStyles, tokens } from '@fluentui/react-components'
import { Trans } from '@lingui/react/macro'
import type { FieldMeta } from '../../api/metadata.ts'
import { RouteLink } from '../common/navigation.tsx'
import { displayValue, type FormatterKind } from './formatters.ts'

const useStyles = makeStyles({
  clip: { display: 'block', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', maxWidth: '100%' },
  empty: { color: tokens.colorNeutralForeground3 },
})

export interface CellValueProps {
  kind: FormatterKind
  value: unknown
  field?: Pick<FieldMeta, 'choices'>
  /** detailLink: where the name links to (undefined → plain text) */
  to?: string
  search?: Readonly<Record<string, string>>
}

export function CellValue({ kind, value, field, to, search }: CellValueProps) {
  const styles = useStyles()
  const shown = displayValue(kind, value, field)
  switch (shown.kind) {
    case 'empty':
      return <span className={styles.empty}>-</span>
    case 'yes':
      return <Badge appearance="tint" color="success" shape="rounded"><Trans>Yes</Trans></Badge>
    case 'no':
      return <Badge appearance="tint" color="informative" shape="rounded"><Trans>No</Trans></Badge>
    case 'secret':
      return <span>******</span>
    case 'items': {
      const text = shown.items.join(', ')
      return <span className={styles.clip} title={text}>{text}</span>
    }
    case 'text':
      if (kind === 'detailLink' && to) {
        return <span className={styles.clip}><RouteLink to={to} search={search} title={shown.text}>{shown.text}</RouteLink></span>
      }
      return <span className={styles.clip} title={shown.text}>{shown.text}</span>
  }
}
