/**
 * Manifest entries of Settings → Terminal (data only: part of the first chunk; the pages are in pages.ts). As in the
 * reference console, their lists are tabs of the Terminal settings page (TerminalSettingsPage.tsx) and their
 * create/update pages keep the reference's names (CreateReplayStorage, …), declared in src/router/routes/settings.ts.
 */
import { msg } from '@lingui/core/macro'
import { defineEntries } from '../../../router/resources.ts'

const HOST = { name: 'TerminalSetting', path: '/settings/terminal' }

export const TERMINAL_ENTRIES = defineEntries([
  {
    key: 'terminals',
    model: 'terminal.terminal',
    url: '/api/v1/terminal/terminals/',
    path: '/settings/terminal',
    listTab: { ...HOST, tab: 'terminals' },
    routeName: 'Terminal',
    typeLabel: msg`Terminal`,
    titles: { list: msg`Terminals`, update: msg`Update terminal`, detail: msg`Terminal details` },
    offers: { create: false, import: false },
    defaultOrder: 'name',
  },
  {
    key: 'replay-storages',
    model: 'terminal.replaystorage',
    url: '/api/v1/terminal/replay-storages/',
    path: '/settings/terminal/replay-storage',
    listTab: { ...HOST, tab: 'replay-storage' },
    routeName: 'ReplayStorage',
    routeNames: { create: 'CreateReplayStorage', update: 'UpdateReplayStorage' },
    typeLabel: msg`Replay storage`,
    titles: { list: msg`Replay storage`, create: msg`Create replay storage`, update: msg`Update replay storage` },
    offers: { detail: false, import: false },
    defaultOrder: 'name',
  },
  {
    key: 'command-storages',
    model: 'terminal.commandstorage',
    url: '/api/v1/terminal/command-storages/',
    path: '/settings/terminal/command-storage',
    listTab: { ...HOST, tab: 'command-storage' },
    routeName: 'CommandStorage',
    routeNames: { create: 'CreateCommandStorage', update: 'UpdateCommandStorage' },
    typeLabel: msg`Command storage`,
    titles: { list: msg`Command storage`, create: msg`Create command storage`, update: msg`Update command storage` },
    offers: { detail: false, import: false },
    defaultOrder: 'name',
  },
  {
    key: 'endpoints',
    model: 'terminal.endpoint',
    url: '/api/v1/terminal/endpoints/',
    path: '/settings/terminal/endpoint',
    listTab: { ...HOST, tab: 'endpoint' },
    routeName: 'Endpoint',
    routeNames: { create: 'CreateEndpoint', update: 'UpdateEndpoint' },
    typeLabel: msg`Endpoint`,
    titles: { list: msg`Endpoints`, create: msg`Create endpoint`, update: msg`Update endpoint` },
    offers: { detail: false },
    defaultOrder: 'name',
  },
  {
    key: 'endpoint-rules',
    model: 'terminal.endpointrule',
    url: '/api/v1/terminal/endpoint-rules/',
    path: '/settings/terminal/endpoint-rule',
    listTab: { ...HOST, tab: 'endpoint-rule' },
    routeName: 'EndpointRule',
    routeNames: { create: 'CreateEndpointRule', update: 'UpdateEndpointRule' },
    typeLabel: msg`Endpoint rule`,
    titles: { list: msg`Endpoint rules`, create: msg`Create endpoint rule`, update: msg`Update endpoint rule` },
    offers: { detail: false },
    defaultOrder: 'priority',
    related: { endpoint: 'terminal.endpoint' },
  },
])
