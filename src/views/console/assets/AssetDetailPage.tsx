/** AssetDetail: basic information, protocols, accounts (src/views/console/accounts), labels, activity. */
import { Button, makeStyles, MessageBar, MessageBarActions, MessageBarBody, Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow, tokens } from '@fluentui/react-components'
import { EditRegular } from '@fluentui/react-icons'
import { msg } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import type { Row } from '../../../api/resources.ts'
import { GenericDetailPage, type DetailConfig, type DetailContext } from '../../../ui/detail/DetailPage.tsx'
import { detailItems, InfoCard } from '../../../ui/detail/InfoCard.tsx'
import type { ListCommand } from '../../../ui/list/types.ts'
import { manifestItem } from '../../entries.ts'
import { AssetAccountsTab } from '../accounts/AccountListPage.tsx'
import { FavoriteStar } from './FavoriteStar.tsx'
import { useGo } from '../../../ui/common/navigation.tsx'
import { usePerms } from '../../../shell/useShell.ts'
import { hasPerm } from '../../../ui/common/perms.ts'
import { assetKindKey } from './resource.ts'
import { assetConnectivityCommands } from '../assets-net/connectivity.ts'
import { clearHostKeyCommand } from './hostKeyCommand.ts'

const useStyles = makeStyles({ cards: { display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: tokens.spacingVerticalL } })

const categoryOf = (row: Row) => {
  const c = row.category as { value?: string } | string | undefined
  return typeof c === 'string' ? c : c?.value ?? 'host'
}

function Basic({ object, fields }: DetailContext) {
  const { t } = useLingui()
  const styles = useStyles()
  const names = ['name', 'address', 'platform', 'category', 'type', 'nodes_display', 'is_active', 'connectivity', 'date_verified', 'created_by', 'date_created', 'comment']
  return (
    <div className={styles.cards}>
      <InfoCard title={t`Basic information`} items={detailItems(object, fields, names)} headerAction={<FavoriteStar assetId={String(object.id)} name={String(object.name)} />} />
      {categoryOf(object) === 'host' ? <Hardware object={object} /> : null}
    </div>
  )
}

/** A host's gathered hardware info ("Refresh hardware info" fills it over SSH). */
function Hardware({ object }: { object: Row }) {
  const { t } = useLingui()
  const go = useGo()
  const canEdit = hasPerm(usePerms(), 'assets.change_asset')
  const edit = canEdit ? <Button size="small" icon={<EditRegular />} onClick={() => go(`/console/assets/assets/detail/${String(object.id)}/update`)}>{t`Edit`}</Button> : null
  const info = (object.gathered_info && typeof object.gathered_info === 'object' ? object.gathered_info : {}) as Record<string, unknown>
  const labels: Record<string, string> = {
    vendor: t`Vendor`, model: t`Model`, sn: t`Serial number`, cpu_model: t`CPU model`, cpu_count: t`CPU count`, cpu_cores: t`CPU cores`,
    cpu_vcpus: t`vCPUs`, memory: t`Memory`, disk_total: t`Disk total`, distribution: t`OS`, distribution_version: t`OS version`, arch: t`Architecture`,
  }
  const known = Object.keys(labels).filter((k) => info[k] !== undefined && info[k] !== '')
  if (!known.length) return <MessageBar><MessageBarBody>{t`No hardware info yet: use "Refresh hardware info".`}</MessageBarBody>{edit && <MessageBarActions>{edit}</MessageBarActions>}</MessageBar>
  return <InfoCard title={t`Hardware`} headerAction={edit} items={known.map((k) => ({ key: k, label: labels[k]!, value: String(info[k]) }))} />
}

function Protocols({ object }: DetailContext) {
  const { t } = useLingui()
  const protocols = (Array.isArray(object.protocols) ? object.protocols : []) as { name: string; port: number }[]
  if (!protocols.length) return <MessageBar><MessageBarBody>{t`No protocols`}</MessageBarBody></MessageBar>
  return (
    <Table aria-label={t`Protocols`} size="small">
      <TableHeader><TableRow><TableHeaderCell>{t`Name`}</TableHeaderCell><TableHeaderCell>{t`Port`}</TableHeaderCell></TableRow></TableHeader>
      <TableBody>{protocols.map((p) => <TableRow key={p.name}><TableCell>{p.name}</TableCell><TableCell>{p.port}</TableCell></TableRow>)}</TableBody>
    </Table>
  )
}

function Labels({ object }: DetailContext) {
  const { t } = useLingui()
  const labels = (Array.isArray(object.labels) ? object.labels : []) as { id: string; name: string; value: string }[]
  if (!labels.length) return <MessageBar><MessageBarBody>{t`No labels`}</MessageBarBody></MessageBar>
  return <ul aria-label={t`Labels`}>{labels.map((l) => <li key={l.id}>{`${l.name}:${l.value}`}</li>)}</ul>
}

const update: Partial<ListCommand> = {
  visible: () => true,
  run: ({ row }, h) => { if (row) h.go(manifestItem(assetKindKey(categoryOf(row))).routes.update!.path.replace(':id', String(row.id))) },
}

export const assetDetailConfig: DetailConfig = {
  resource: manifestItem('assets').resource,
  tabs: [
    { id: 'Basic', label: msg`Basic information`, render: (ctx) => <Basic {...ctx} /> },
    { id: 'Protocols', label: msg`Protocols`, render: (ctx) => <Protocols {...ctx} /> },
    { id: 'Accounts', label: msg`Accounts`, perms: ['accounts.view_account'], render: ({ object }) => <AssetAccountsTab assetId={String(object.id)} /> },
    { id: 'Labels', label: msg`Labels`, render: (ctx) => <Labels {...ctx} /> },
  ],
  commands: {
    overrides: { update },
    extra: [{
      id: 'clone', scope: 'row', label: msg`Clone`, order: 30, perms: ['assets.add_asset'], hiddenInRoot: true,
      run: ({ row }, h) => { if (row) h.go(manifestItem(assetKindKey(categoryOf(row))).routes.create!.path, { clone_from: String(row.id) }) },
    }, ...assetConnectivityCommands.filter((c) => c.scope === 'row'), clearHostKeyCommand],
  },
}

export function AssetDetailPage() {
  return <GenericDetailPage config={assetDetailConfig} />
}
