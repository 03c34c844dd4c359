/**
 * Settings → Applets → applet hosts (the reference's AppletHostCreateUpdate / AppletHostDetail): the form of the
 * asset with its deploy options and the accounts it starts with; the detail with the host's information, its
 * deployments ("Deploy" opens the live log; each row opens its log) and the applets published on it ("Publish
 * all applets", or one again). The remote app's detail lists the hosts it is published on.
 */
import { CloudArrowUpRegular, DocumentTextRegular, RocketRegular } from '@fluentui/react-icons'
import { msg } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import type { Row } from '../../../api/resources.ts'
import { defineResource } from '../../../ui/common/resource.ts'
import { GenericDetailPage, type DetailConfig, type DetailContext } from '../../../ui/detail/DetailPage.tsx'
import { detailItems, InfoCard } from '../../../ui/detail/InfoCard.tsx'
import { GenericFormPage, type FormPageConfig } from '../../../ui/form/FormPage.tsx'
import { ListTable } from '../../../ui/list/ListTable.tsx'
import type { ListCommand, ListConfig } from '../../../ui/list/types.ts'
import { rowId, taskCommand } from '../../../ui/tasks/taskCommand.ts'
import { taskLogPath } from '../../../router/routes/common.ts'
import { manifestItem } from '../../entries.ts'

export const DEPLOYMENTS_URL = '/api/v1/terminal/applet-host-deployments/'
export const PUBLICATIONS_URL = '/api/v1/terminal/applet-publications/'
const DEPLOY_PERM = 'terminal.add_applethostdeployment'
const HOSTS_PAGE = { name: 'Applets', path: '/settings/applets', search: { tab: 'hosts' } }

const deploymentResource = defineResource({
  url: DEPLOYMENTS_URL,
  routes: { list: HOSTS_PAGE },
  typeLabel: msg`Deployment`,
  perms: { view: 'terminal.view_applethostdeployment', add: DEPLOY_PERM },
})

const publicationResource = defineResource({
  url: PUBLICATIONS_URL,
  routes: { list: HOSTS_PAGE },
  typeLabel: msg`Publication`,
  perms: { view: 'terminal.view_appletpublication' },
})

const hostResource = () => manifestItem('applet-hosts').resource

// ---- form --------------------------------------------------------------------------------------------------------

let formConfig: FormPageConfig | undefined
const appletHostFormConfig = (): FormPageConfig => (formConfig ??= {
  resource: hostResource(),
  title: { create: msg`Create remote app host`, update: msg`Update remote app host` },
  layout: (mode) => [
    [msg`Basic`, ['name', 'address', 'protocols', 'domain', 'is_active']],
    [msg`Deploy options`, ['deploy_options']],
    [msg`Accounts`, mode === 'create' ? ['accounts', 'auto_create_accounts', 'accounts_create_amount', 'using_same_account'] : ['auto_create_accounts', 'accounts_create_amount', 'using_same_account']],
    [msg`Other`, ['comment']],
  ],
  overrides: {
    accounts_create_amount: { hidden: (values) => !values.auto_create_accounts },
  },
  // No protocols given: the server takes the platform's (RDP and SSH).
  transform: (payload) => {
    if (Array.isArray(payload.protocols) && payload.protocols.length === 0) {
      const { protocols: _omit, ...rest } = payload
      return rest
    }
    return payload
  },
})

export function AppletHostFormPage() {
  return <GenericFormPage config={appletHostFormConfig()} />
}

// ---- detail ------------------------------------------------------------------------------------------------------

const NO_EDIT = { create: null, bulkDelete: null, bulkUpdate: null, update: null, delete: null, clone: null } as const

const openLog: ListCommand = {
  id: 'log', scope: 'row', label: msg`Log`, icon: DocumentTextRegular, order: 5,
  enabled: (_env, { row }) => !!row?.task,
  run: ({ row }, h) => {
    if (row?.task) h.openInNewTab(taskLogPath(String(row.task)))
  },
}

const deployCommand = (scope: 'row' | 'header', hostId?: string): ListCommand => taskCommand({
  id: 'deploy', scope, label: msg`Deploy`, icon: RocketRegular, order: 1, perms: [DEPLOY_PERM],
  enabled: () => true,
  request: ({ row }) => ({ url: DEPLOYMENTS_URL, body: { host: hostId ?? rowId(row) } }),
})

const publishAll = (hostId: string): ListCommand => taskCommand({
  id: 'publish-all', scope: 'header', label: msg`Publish all applets`, icon: CloudArrowUpRegular, order: 2, perms: [DEPLOY_PERM],
  enabled: () => true,
  request: () => ({ url: `${DEPLOYMENTS_URL}applets/`, body: { hosts: [hostId] } }),
})

const publishAgain: ListCommand = taskCommand({
  id: 'publish', scope: 'row', label: msg`Publish again`, icon: CloudArrowUpRegular, order: 6, perms: [DEPLOY_PERM],
  request: ({ row }) => {
    const host = row?.host as Row | undefined
    const applet = row?.applet as Row | undefined
    return host && applet ? { url: `${DEPLOYMENTS_URL}applets/`, body: { hosts: [host.id], applet_id: applet.id } } : undefined
  },
})

const related = (key: string) => (row: Row) => {
  const v = row[key] as Row | undefined
  return v ? String(v.display_name ?? v.name ?? v.id) : '-'
}

function Info({ object, fields }: DetailContext) {
  const { t } = useLingui()
  return (
    <InfoCard
      title={t`Basic information`}
      items={detailItems(object, fields, ['name', 'address', 'platform', 'protocols', 'load', 'inited', 'date_inited', 'auto_create_accounts', 'accounts_create_amount', 'is_active', 'created_by', 'date_created', 'comment'])}
    />
  )
}

function Deployments({ object }: DetailContext) {
  const hostId = String(object.id)
  const config: ListConfig = {
    resource: deploymentResource,
    url: `${DEPLOYMENTS_URL}?host=${encodeURIComponent(hostId)}`,
    tableName: 'AppletHostDeploymentList',
    label: msg`Deployments`,
    stateIn: 'local',
    defaultOrder: '-date_created',
    hiddenFilters: ['host'],
    columns: {
      min: ['status', 'actions'],
      defaults: ['status', 'initial', 'date_start', 'date_finished', 'comment', 'created_by', 'actions'],
      exclude: ['id', 'host', 'task', 'install_applets'],
    },
    commands: { extra: [deployCommand('header', hostId), openLog], overrides: NO_EDIT },
    tools: { import: false, export: false },
    rowName: (row) => String(row.id),
  }
  return <ListTable config={config} />
}

export function publicationsConfig(by: 'host' | 'applet', id: string): ListConfig {
  return {
    resource: publicationResource,
    url: `${PUBLICATIONS_URL}?${by}=${encodeURIComponent(id)}`,
    tableName: by === 'host' ? 'AppletHostPublicationList' : 'AppletPublicationList',
    label: by === 'host' ? msg`Published applets` : msg`Published on`,
    stateIn: 'local',
    defaultOrder: '-date_updated',
    hiddenFilters: [by],
    columns: {
      min: [by === 'host' ? 'applet' : 'host', 'actions'],
      defaults: [by === 'host' ? 'applet' : 'host', 'status', 'date_updated', 'comment', 'actions'],
      exclude: ['id', by],
      overrides: { applet: { render: related('applet') }, host: { render: related('host') } },
    },
    commands: { extra: by === 'host' ? [publishAll(id), publishAgain] : [publishAgain], overrides: NO_EDIT },
    tools: { import: false, export: false },
    rowName: (row) => `${related('applet')(row)} @ ${related('host')(row)}`,
  }
}

function Publications({ object }: DetailContext) {
  return <ListTable config={publicationsConfig('host', String(object.id))} />
}

let detailConfig: DetailConfig | undefined
const appletHostDetailConfig = (): DetailConfig => (detailConfig ??= {
  resource: hostResource(),
  tabs: [
    { id: 'Info', label: msg`Basic information`, render: (ctx) => <Info {...ctx} /> },
    { id: 'Deployments', label: msg`Deployments`, perms: ['terminal.view_applethostdeployment'], render: (ctx) => <Deployments {...ctx} /> },
    { id: 'Publications', label: msg`Published applets`, perms: ['terminal.view_appletpublication'], render: (ctx) => <Publications {...ctx} /> },
  ],
  commands: { extra: [deployCommand('row')] },
})

export function AppletHostDetailPage() {
  return <GenericDetailPage config={appletHostDetailConfig()} />
}

// ---- the remote app's detail: where it is published ---------------------------------------------------------------

function AppletInfo({ object, fields }: DetailContext) {
  const { t } = useLingui()
  return <InfoCard title={t`Basic information`} items={detailItems(object, fields)} />
}

let appletConfig: DetailConfig | undefined
const appletDetailConfig = (): DetailConfig => (appletConfig ??= {
  resource: manifestItem('applets').resource,
  tabs: [
    { id: 'Info', label: msg`Basic information`, render: (ctx) => <AppletInfo {...ctx} /> },
    { id: 'Publications', label: msg`Published on`, perms: ['terminal.view_appletpublication'], render: (ctx) => <ListTable config={publicationsConfig('applet', String(ctx.object.id))} /> },
  ],
})

export function AppletDetailPage() {
  return <GenericDetailPage config={appletDetailConfig()} />
}
