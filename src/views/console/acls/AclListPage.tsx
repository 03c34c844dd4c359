/** The command filter and asset login ACL lists (their own module: a first visit to a list loads no form or detail code). */
import { msg } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import { Page } from '../../../ui/common/Page.tsx'
import { ListTable } from '../../../ui/list/ListTable.tsx'
import type { ListConfig } from '../../../ui/list/types.ts'
import { MATCHER_COLUMNS, resourceOf, type Kind } from './resource.ts'

function listConfig(kind: Kind): ListConfig {
  return {
    resource: resourceOf(kind),
    label: kind === 'command' ? msg`Command filters` : msg`Asset login ACLs`,
    columns: {
      min: ['name', 'actions'],
      defaults: ['name', ...MATCHER_COLUMNS, ...(kind === 'command' ? ['command_groups_amount'] : []), 'priority', 'action', 'is_active', 'actions'],
      exclude: ['users', 'assets', 'accounts', 'rules'],
    },
  }
}

function AclListPage({ kind }: { kind: Kind }) {
  const { t } = useLingui()
  return (
    <Page
      title={kind === 'command' ? t`Command filters` : t`Asset login ACLs`}
      help={kind === 'command'
        ? t`Rules that accept, reject, warn about or ask for review of the commands users run on assets. The lower the priority value, the earlier a rule matches; a rule applies when its users, assets, accounts and one of its command groups match.`
        : t`Rules that accept, reject, notify about or ask for review of logins to assets, by user, asset, account, source IP and time. The lower the priority value, the earlier a rule matches.`}
      back={false}
    >
      <ListTable config={listConfig(kind)} />
    </Page>
  )
}

export const CommandAclListPage = () => <AclListPage kind="command" />
export const AssetAclListPage = () => <AclListPage kind="asset" />
