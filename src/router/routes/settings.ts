import { msg } from '@lingui/core/macro'
import type { RouteNode } from '../types.ts'
import { resourceSlot } from '../resources.ts'
import { page, perm, view } from './helpers.ts'

const terminal = perm('terminal', 'terminal')
const replay = perm('terminal', 'replaystorage')
const command = perm('terminal', 'commandstorage')
const endpoint = perm('terminal', 'endpoint')
const endpointRule = perm('terminal', 'endpointrule')
const applet = perm('terminal', 'applet')
const appletHost = perm('terminal', 'applethost')

/** System settings view (named SystemSetting, settings.view_setting): console-behaviour §3. */
export const settingsRoutes: RouteNode = view('settings', 'SystemSetting', msg`System settings`, '/settings/basic', [
  page('basic', 'Basic', msg`Basic settings`, ['settings.view_setting'], { icon: 'basic' }),
  page('email', 'Email', msg`Email`, ['settings.change_email'], { icon: 'email' }),
  page('auth', 'Auth', msg`Authentication`, ['settings.change_auth'], {
    icon: 'auth',
    children: [page('ldap', 'LdapSetting', msg`LDAP`, ['settings.change_auth'])],
  }),
  page('message', 'Message', msg`Message subscription`, ['settings.change_systemmsgsubscription'], { icon: 'message' }),
  page('sms', 'SMS', msg`SMS`, ['settings.change_sms'], { icon: 'sms', licenseRequired: true }),
  page('terminal', 'TerminalSetting', msg`Terminals`, ['settings.change_terminal'], {
    icon: 'terminal',
    children: [
      page(':id', 'TerminalDetail', msg`Terminal details`, [terminal.view]),
      page(':id/update', 'TerminalUpdate', msg`Update terminal`, [terminal.change]),
      page('replay-storage/create', 'CreateReplayStorage', msg`Create replay storage`, [replay.add]),
      page('replay-storage/:id/update', 'UpdateReplayStorage', msg`Update replay storage`, [replay.change]),
      page('command-storage/create', 'CreateCommandStorage', msg`Create command storage`, [command.add]),
      page('command-storage/:id/update', 'UpdateCommandStorage', msg`Update command storage`, [command.change]),
      page('endpoint/create', 'CreateEndpoint', msg`Create endpoint`, [endpoint.add]),
      page('endpoint/:id/update', 'UpdateEndpoint', msg`Update endpoint`, [endpoint.change]),
      page('endpoint-rule/create', 'CreateEndpointRule', msg`Create endpoint rule`, [endpointRule.add]),
      page('endpoint-rule/:id/update', 'UpdateEndpointRule', msg`Update endpoint rule`, [endpointRule.change]),
    ],
  }),
  page('applets', 'Applets', msg`Remote apps`, [applet.view], {
    icon: 'applets',
    children: [
      page('applets/:id', 'AppletDetail', msg`Remote app details`, [applet.view]),
      page('hosts/create', 'AppletHostCreate', msg`Create remote app host`, [appletHost.add]),
      page('hosts/:id', 'AppletHostDetail', msg`Remote app host details`, [appletHost.view]),
      page('hosts/:id/update', 'AppletHostUpdate', msg`Update remote app host`, [appletHost.change]),
    ],
  }),
  page('security', 'Security', msg`Security`, ['settings.change_security'], { icon: 'security' }),
  page('clean', 'Clean', msg`Periodic clean-up`, ['settings.change_clean'], { icon: 'clean' }),
  page('interface', 'InterfaceSettings', msg`Interface`, ['settings.change_interface'], { icon: 'interface', licenseRequired: true }),
  resourceSlot('organizations'),
  page('tools', 'Tools', msg`Tools`, ['settings.view_setting'], { icon: 'tools' }),
  page('tasks', 'TaskList', msg`Tasks`, ['ops.view_celerytask'], {
    icon: 'tasks',
    children: [page(':id', 'TaskDetail', msg`Task details`, ['ops.view_celerytask'])],
  }),
  page('other', 'Other', msg`Other`, ['settings.change_other'], { icon: 'other' }),
  page('license', 'License', msg`License`, ['settings.change_license'], { icon: 'license' }),
], { permissions: ['settings.view_setting'], showOrganization: false })
