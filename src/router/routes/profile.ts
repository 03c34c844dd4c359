import { msg } from '@lingui/core/macro'
import type { RouteNode } from '../types.ts'
import { page, view } from './helpers.ts'

/** Profile view (any signed-in user): console-behaviour §3. */
export const profileRoutes: RouteNode = view('profile', 'Profile', msg`Profile`, '/profile/info', [
  page('info', 'ProfileInfo', msg`My profile`, [], { icon: 'profile' }),
  page('setting', 'ProfileSetting', msg`Preferences`, [], { icon: 'setting' }),
  page('improvement', 'ProfileImprovement', msg`Complete your profile`, [], { hidden: true }),
  page('key', 'ApiKey', msg`API keys`, ['authentication.view_accesskey'], { icon: 'key' }),
  page('temp-password', 'TempPassword', msg`Temporary password`, ['authentication.view_temptoken'], {
    icon: 'tempPassword',
    available: ({ settings }) => settings.AUTH_TEMP_TOKEN === true,
  }),
  page('connection-token', 'ConnectionToken', msg`Connection tokens`, ['authentication.view_connectiontoken'], { icon: 'connectionToken' }),
], { showOrganization: false })
