/**
 * AssetPermissionCreate/Update (the accounts chooser: aliases, specified usernames,
 * templates) and AssetPermissionDetail (basic information; users and groups; assets and nodes; accounts, protocols
 * and actions) with add/remove from the tabs.
 */
import { Checkbox, makeStyles, tokens } from '@fluentui/react-components'
import { msg } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import { patchResource, type Row, type RowId } from '../../../api/resources.ts'
import { isRootOrg } from '../../../ui/common/access.tsx'
import { hasPerm } from '../../../ui/common/perms.ts'
import { RelatedPicker } from '../../../ui/common/RelatedPicker.tsx'
import { GenericDetailPage, type DetailConfig, type DetailContext } from '../../../ui/detail/DetailPage.tsx'
import { detailItems, InfoCard } from '../../../ui/detail/InfoCard.tsx'
import { RelationCard } from '../../../ui/detail/RelationCard.tsx'
import { GenericFormPage, type FormPageConfig } from '../../../ui/form/FormPage.tsx'
import { ListInput } from '../../../ui/form/ListInput.tsx'
import type { WidgetProps } from '../../../ui/form/types.ts'
import { manifestItem } from '../../entries.ts'

const resource = () => manifestItem('asset-permissions').resource
const USERS_URL = '/api/v1/users/users/'
const GROUPS_URL = '/api/v1/users/groups/'
const ASSETS_URL = '/api/v1/assets/assets/'
const NODES_URL = '/api/v1/assets/nodes/'
const TEMPLATES_URL = '/api/v1/accounts/account-templates/'

const personLabel = (r: Row) => (r.username ? `${String(r.name)}(${String(r.username)})` : String(r.name ?? r.id))
const assetLabel = (r: Row) => (r.address ? `${String(r.name)}(${String(r.address)})` : String(r.name ?? r.id))
const nodeLabel = (r: Row) => String(r.full_value ?? r.name ?? r.value ?? r.id)

const useStyles = makeStyles({
  pair: { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(min(320px, 100%), 1fr))', gap: tokens.spacingHorizontalL, alignItems: 'start' },
  accounts: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS, width: '100%' },
  nested: { paddingLeft: tokens.spacingHorizontalXXL },
})

const ALIASES = ['@ALL', '@INPUT', '@USER', '@ANON'] as const

/** The accounts chooser (lina's AccountSelect): aliases, specified usernames and templates (`%<id>`). */
function AccountsWidget({ value, onChange, onBlur, disabled }: WidgetProps) {
  const { t } = useLingui()
  const styles = useStyles()
  const list = Array.isArray(value) ? value.map(String) : []
  const usernames = list.filter((a) => !a.startsWith('@') && !a.startsWith('%'))
  const templates = list.filter((a) => a.startsWith('%')).map((a) => a.slice(1))
  const specified = list.includes('@SPEC') || usernames.length > 0
  const labels: Record<(typeof ALIASES)[number], string> = {
    '@ALL': t`All accounts`, '@INPUT': t`Manual input`, '@USER': t`Same account as the user`, '@ANON': t`Anonymous account`,
  }
  const set = (next: string[]) => onChange([...new Set(next)])
  const toggle = (alias: string, on: boolean) => set(on ? [...list, alias] : list.filter((a) => a !== alias))
  return (
    <div className={styles.accounts} onBlur={onBlur}>
      <Checkbox label={labels['@ALL']} checked={list.includes('@ALL')} disabled={disabled} onChange={(_, d) => toggle('@ALL', !!d.checked)} />
      <Checkbox
        label={t`Specified accounts`}
        checked={specified}
        disabled={disabled}
        onChange={(_, d) => set(d.checked ? [...list, '@SPEC'] : list.filter((a) => (a.startsWith('@') && a !== '@SPEC') || a.startsWith('%')))}
      />
      {specified && (
        <div className={styles.nested}>
          <ListInput aria-label={t`Usernames`} value={usernames} disabled={disabled} onChange={(names) => set([...list.filter((a) => a.startsWith('@') || a.startsWith('%')), ...names])} />
        </div>
      )}
      {ALIASES.slice(1).map((alias) => (
        <Checkbox key={alias} label={labels[alias]} checked={list.includes(alias)} disabled={disabled} onChange={(_, d) => toggle(alias, !!d.checked)} />
      ))}
      <RelatedPicker
        source={{ url: TEMPLATES_URL, label: (r: Row) => `${String(r.name)}(${String(r.username)})` }}
        multiple
        value={templates}
        disabled={disabled}
        placeholder={t`Create and push accounts from templates`}
        onChange={(ids) => set([...list.filter((a) => !a.startsWith('%')), ...(Array.isArray(ids) ? ids : []).map((id) => `%${String(id)}`)])}
      />
    </div>
  )
}

let formConfig: FormPageConfig | undefined
const permissionFormConfig = (): FormPageConfig => (formConfig ??= {
  resource: resource(),
  title: { create: msg`Create asset permission`, update: msg`Update asset permission` },
  layout: [
    [msg`Basic`, ['name']],
    [msg`User`, ['users', 'user_groups']],
    [msg`Asset`, ['assets', 'nodes']],
    [msg`Account`, ['accounts']],
    [msg`Protocol`, ['protocols']],
    [msg`Action`, ['actions']],
    [msg`Other`, ['is_active', 'date_start', 'date_expired', 'comment']],
  ],
  overrides: {
    users: { related: { url: USERS_URL, label: personLabel } },
    assets: { related: { url: ASSETS_URL, label: assetLabel } },
    nodes: { related: { url: NODES_URL, label: nodeLabel } },
    accounts: { render: (props) => <AccountsWidget {...props} /> },
  },
  // "@SPEC" only marks the chooser's state; the server wants the usernames themselves.
  transform: (payload) => (Array.isArray(payload.accounts) ? { ...payload, accounts: (payload.accounts as string[]).filter((a) => a !== '@SPEC') } : payload),
})

export function AssetPermissionFormPage() {
  return <GenericFormPage config={permissionFormConfig()} />
}

function Info({ object, fields }: DetailContext) {
  const { t } = useLingui()
  return (
    <InfoCard
      title={t`Basic information`}
      items={detailItems(object, fields, ['name', 'is_active', 'is_valid', 'is_expired', 'date_start', 'date_expired', 'from_ticket', 'created_by', 'date_created', 'comment'])}
    />
  )
}

interface MemberSpec { field: string; title: string; url: string; label: (r: Row) => string }

function Members({ ctx, specs }: { ctx: DetailContext; specs: readonly MemberSpec[] }) {
  const styles = useStyles()
  const canEdit = hasPerm(ctx.access.perms, resource().perms.change) && !isRootOrg(ctx.access)
  return (
    <div className={styles.pair}>
      {specs.map((s) => {
        const items = (Array.isArray(ctx.object[s.field]) ? ctx.object[s.field] : []) as Row[]
        return (
          <RelationCard
            key={s.field}
            title={s.title}
            source={{ url: s.url, label: s.label }}
            items={items.map((m) => ({ id: m.id as RowId, label: s.label(m) }))}
            canEdit={canEdit}
            onSave={async (ids) => {
              await patchResource(resource().url, ctx.object.id, { [s.field]: ids })
              ctx.reload()
            }}
          />
        )
      })}
    </div>
  )
}

function UsersTab(ctx: DetailContext) {
  const { t } = useLingui()
  return <Members ctx={ctx} specs={[{ field: 'users', title: t`Users`, url: USERS_URL, label: personLabel }, { field: 'user_groups', title: t`User groups`, url: GROUPS_URL, label: (r) => String(r.name ?? r.id) }]} />
}

function AssetsTab(ctx: DetailContext) {
  const { t } = useLingui()
  return <Members ctx={ctx} specs={[{ field: 'assets', title: t`Assets`, url: ASSETS_URL, label: assetLabel }, { field: 'nodes', title: t`Nodes`, url: NODES_URL, label: nodeLabel }]} />
}

function AccountsTab({ object, fields }: DetailContext) {
  const { t } = useLingui()
  return <InfoCard title={t`Accounts and actions`} items={detailItems(object, fields, ['accounts', 'protocols', 'actions'])} />
}

let detailConfig: DetailConfig | undefined
const permissionDetailConfig = (): DetailConfig => (detailConfig ??= {
  resource: resource(),
  tabs: [
    { id: 'Info', label: msg`Basic information`, render: (ctx) => <Info {...ctx} /> },
    { id: 'Users', label: msg`Users and user groups`, render: (ctx) => <UsersTab {...ctx} /> },
    { id: 'Assets', label: msg`Assets and nodes`, render: (ctx) => <AssetsTab {...ctx} /> },
    { id: 'Accounts', label: msg`Accounts`, render: (ctx) => <AccountsTab {...ctx} /> },
  ],
})

export function AssetPermissionDetailPage() {
  return <GenericDetailPage config={permissionDetailConfig()} />
}
