/**
 * An operate log's detail: who did what to which resource, and what changed, field by field, before and after
 * (issue 35; JumpServer's operate log "action detail", which lina shows as a Field / Before / After table).
 */
import { Card, CardHeader, Text, makeStyles, tokens } from '@fluentui/react-components'
import { msg } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import { GenericDetailPage, type DetailConfig, type DetailContext } from '../../../ui/detail/DetailPage.tsx'
import { ChangesTable } from '../../../ui/detail/ChangesTable.tsx'
import { InfoCard, detailItems } from '../../../ui/detail/InfoCard.tsx'
import { manifestItem } from '../../entries.ts'

const useStyles = makeStyles({
  grid: { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 420px), 1fr))', gap: tokens.spacingHorizontalL, alignItems: 'start' },
})

/** `GET <operate log>/?type=action_detail`: the log's field changes. */
export function actionDetailUrl(listUrl: string, id: string): string {
  return `${listUrl}${encodeURIComponent(id)}/?type=action_detail`
}

function Info({ object, fields, url }: DetailContext) {
  const { t } = useLingui()
  const styles = useStyles()
  return (
    <div className={styles.grid}>
      <InfoCard title={t`Basic information`} items={detailItems(object, fields)} />
      <Card>
        <CardHeader header={<Text as="h2" weight="semibold" size={400}>{t`Changes`}</Text>} />
        <ChangesTable url={actionDetailUrl(url, String(object.id))} />
      </Card>
    </div>
  )
}

export function OperateLogDetailPage() {
  const item = manifestItem('operate-logs')
  const config: DetailConfig = {
    resource: item.resource,
    tabs: [{ id: 'Info', label: msg`Basic information`, render: (ctx) => <Info {...ctx} /> }],
    activity: false,
    // titled by what was acted on, not by the log's own id
    rowName: (row) => [row.resource_type, row.resource].filter(Boolean).map(String).join(' ') || String(row.id),
  }
  return <GenericDetailPage config={config} />
}
