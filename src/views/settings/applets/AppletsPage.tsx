/**
 * Settings → Applets (Applets), as the reference console's tab page: the remote apps (applets) uploaded as zip
 * packages. "Upload" sends the package to the server, which checks it (manifest.yml, icon.png, setup.yml, sizes)
 * and answers why it refuses one; the reason is shown as the reference's upload dialog does.
 */
import { ArrowUploadRegular } from '@fluentui/react-icons'
import { msg, t } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import { ApiError, errorText } from '../../../api/client.ts'
import { uploadApplet } from '../../../api/terminal.ts'
import { notify } from '../../../ui/common/notify.tsx'
import { TabbedListPage, type ListTab } from '../../../ui/list/TabbedListPage.tsx'
import type { ListCommand } from '../../../ui/list/types.ts'
import { manifestItem } from '../../entries.ts'

/** Picks a zip and uploads it; a package of an existing name is offered as an update. */
const uploadCommand: ListCommand = {
  id: 'upload', scope: 'header', label: msg`Upload`, icon: ArrowUploadRegular, order: 10, perms: ['@add'], primary: true,
  run: (_target, h) => {
    const input = document.createElement('input')
    input.type = 'file'
    input.accept = '.zip,application/zip'
    input.onchange = () => {
      const file = input.files?.[0]
      if (!file) return
      void (async () => {
        try {
          await uploadApplet(file)
          notify('success', t`Upload succeeded`)
          h.reload()
        } catch (e) {
          const reason = e instanceof ApiError ? errorText(e.data) || e.message : String(e)
          notify('error', t`Upload failed`, reason)
        }
      })()
    }
    input.click()
  },
}

const APPLET_TABS: readonly ListTab[] = [
  {
    key: 'applets',
    label: msg`Remote apps`,
    perm: manifestItem('applets').perms.view,
    config: () => ({
      resource: manifestItem('applets').resource,
      label: msg`Remote apps`,
      tableName: 'AppletList',
      tools: { import: false, export: true },
      columns: {
        min: ['name', 'actions'],
        defaults: ['display_name', 'name', 'version', 'author', 'type', 'protocols', 'is_active', 'actions'],
        exclude: ['icon', 'readme'],
      },
      commands: { extra: [uploadCommand], overrides: { clone: null } },
    }),
  },
  {
    key: 'hosts',
    label: msg`Remote app hosts`,
    perm: manifestItem('applet-hosts').perms.view,
    config: () => ({
      resource: manifestItem('applet-hosts').resource,
      label: msg`Remote app hosts`,
      tableName: 'AppletHostList',
      tools: { import: false, export: true },
      columns: {
        min: ['name', 'actions'],
        defaults: ['name', 'address', 'load', 'inited', 'date_inited', 'is_active', 'actions'],
        exclude: ['nodes_display', 'auto_config', 'gathered_info', 'protocols', 'deploy_options'],
      },
      commands: { overrides: { clone: null } },
    }),
  },
]

export function AppletsPage() {
  const { i18n } = useLingui()
  return <TabbedListPage title={i18n._(msg`Remote apps`)} tabs={APPLET_TABS} fallback="applets" />
}
