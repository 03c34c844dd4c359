/**
 * Renders one value from its formatter kind (see formatters.ts): a table cell on one line (`inline`), or a detail
 * row (`block`), where a structured value is a nested list of its labelled entries.
 */
import { Badge, makeStyles, tokens } from '@fluentui/react-components'
import { Trans, useLingui } from '@lingui/react/macro'
import { RouteLink } from '../common/navigation.tsx'
import { displayValue, summary, type Display, type FormatterKind, type StructureMeta } from './formatters.ts'

const useStyles = makeStyles({
  clip: { display: 'block', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', maxWidth: '100%' },
  empty: { color: tokens.colorNeutralForeground3 },
  wrap: { overflowWrap: 'anywhere' },
  fields: { display: 'grid', gridTemplateColumns: 'max-content minmax(0, 1fr)', columnGap: tokens.spacingHorizontalM, rowGap: tokens.spacingVerticalXXS, margin: 0 },
  fieldKey: { color: tokens.colorNeutralForeground3 },
  fieldValue: { margin: 0, minWidth: 0, overflowWrap: 'anywhere' },
})

export interface CellValueProps {
  kind: FormatterKind
  value: unknown
  field?: Partial<StructureMeta>
  /** detailLink: where the name links to (undefined → plain text) */
  to?: string
  search?: Readonly<Record<string, string>>
  /** a table cell on one line (default), or a detail row with room for a structured value's entries */
  layout?: 'inline' | 'block'
}

/** A structured value's entries as a definition list, nested as deep as the value. */
function Fields({ shown }: { shown: Extract<Display, { kind: 'fields' }> }) {
  const styles = useStyles()
  return (
    <dl className={styles.fields}>
      {shown.entries.map((e) => (
        <div key={e.key} style={{ display: 'contents' }}>
          <dt className={styles.fieldKey}>{e.label}</dt>
          <dd className={styles.fieldValue}><Shown shown={e.shown} /></dd>
        </div>
      ))}
    </dl>
  )
}

function Shown({ shown }: { shown: Display }) {
  const styles = useStyles()
  switch (shown.kind) {
    case 'empty': return <span className={styles.empty}>-</span>
    case 'yes': return <Trans>Yes</Trans>
    case 'no': return <Trans>No</Trans>
    case 'secret': return <span>******</span>
    case 'items': return <span>{shown.items.join(', ')}</span>
    case 'text': return <span>{shown.text}</span>
    case 'fields': return <Fields shown={shown} />
  }
}

export function CellValue({ kind, value, field, to, search, layout = 'inline' }: CellValueProps) {
  const styles = useStyles()
  const { t } = useLingui()
  const shown = displayValue(kind, value, field)
  // a detail row has room: its text wraps instead of being cut
  if (layout === 'block' && (shown.kind === 'text' || shown.kind === 'items') && !(kind === 'detailLink' && to)) {
    return <span className={styles.wrap}>{shown.kind === 'text' ? shown.text : shown.items.join(', ')}</span>
  }
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
    case 'fields': {
      if (layout === 'block') return <Fields shown={shown} />
      const text = summary(shown, { yes: t`Yes`, no: t`No` })
      return <span className={styles.clip} title={text}>{text}</span>
    }
  }
}
