/**
 * A relation card (the reference's RelationCard): the objects related to this one, with a picker to add more
 * and a remove button per object. The caller saves (e.g. a PATCH of the object's m2m field).
 */
import { Button, Card, CardHeader, Text, makeStyles, tokens } from '@fluentui/react-components'
import { AddRegular, DismissRegular } from '@fluentui/react-icons'
import { useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import type { RowId } from '../../api/resources.ts'
import { describeError } from '../common/errors.ts'
import { notify } from '../common/notify.tsx'
import { RelatedPicker } from '../common/RelatedPicker.tsx'
import type { OptionSource } from '../common/useOptions.ts'

const useStyles = makeStyles({
  add: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'flex-start', padding: `0 ${tokens.spacingHorizontalM}` },
  picker: { flexGrow: 1, minWidth: 0 },
  list: { listStyleType: 'none', margin: 0, padding: 0, maxHeight: '420px', overflowY: 'auto' },
  item: { display: 'flex', alignItems: 'center', justifyContent: 'space-between', padding: `${tokens.spacingVerticalXS} ${tokens.spacingHorizontalM}`, borderTop: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke3}` },
  empty: { color: tokens.colorNeutralForeground3, padding: tokens.spacingHorizontalM },
})

export interface RelationItem {
  id: RowId
  label: string
}

export interface RelationCardProps {
  title: string
  source: OptionSource
  items: readonly RelationItem[]
  canEdit: boolean
  onSave: (ids: RowId[]) => Promise<void>
}

export function RelationCard({ title, source, items, canEdit, onSave }: RelationCardProps) {
  const { t } = useLingui()
  const styles = useStyles()
  const [adding, setAdding] = useState<RowId[]>([])
  const [busy, setBusy] = useState(false)
  const save = async (ids: RowId[], done: string) => {
    setBusy(true)
    try {
      await onSave(ids)
      notify('success', done)
      setAdding([])
    } catch (e) {
      notify('error', describeError(e))
    } finally {
      setBusy(false)
    }
  }
  const current = items.map((i) => i.id)
  return (
    <Card>
      <CardHeader header={<Text as="h2" weight="semibold" size={400}>{title}</Text>} description={t`${items.length} in total`} />
      {canEdit && (
        <div className={styles.add} data-relation-add>
          <div className={styles.picker}>
            <RelatedPicker source={source} multiple value={adding} onChange={(v) => setAdding(Array.isArray(v) ? v.filter((id) => !current.includes(id)) : [])} disabled={busy} placeholder={t`Choose objects to add`} />
          </div>
          <Button appearance="primary" icon={<AddRegular />} disabled={busy || adding.length === 0} onClick={() => void save([...current, ...adding], t`Added ${adding.length}`)}>
            {t`Add`}
          </Button>
        </div>
      )}
      <ul className={styles.list} aria-label={title}>
        {items.map((item) => (
          <li key={String(item.id)} className={styles.item}>
            <span>{item.label}</span>
            {canEdit && (
              <Button size="small" appearance="subtle" icon={<DismissRegular />} aria-label={t`Remove ${item.label}`} disabled={busy}
                onClick={() => void save(current.filter((id) => id !== item.id), t`Removed “${item.label}”`)} />
            )}
          </li>
        ))}
        {items.length === 0 && <li className={styles.empty}>{t`None yet`}</li>}
      </ul>
    </Card>
  )
}
