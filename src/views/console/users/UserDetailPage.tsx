/**
 * UserDetail: tabs Info, Groups, Roles, Login ACLs and Activity; actions edit, remove from the organization,
 * delete (system administrators), reset password, reset MFA, unblock.
 */
import { makeStyles, tokens } from '@fluentui/react-components'
import { msg } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import { useMemo } from 'react'
import { patchResource, type RowId } from '../../../api/resources.ts'
import { isRootOrg } from '../../../ui/common/access.tsx'
import { hasPerm } from '../../../ui/common/perms.ts'
import { GenericDetailPage, type DetailConfig, type DetailContext } from '../../../ui/detail/DetailPage.tsx'
import { detailItems, InfoCard } from '../../../ui/detail/InfoCard.tsx'
import { RelationCard, type RelationItem } from '../../../ui/detail/RelationCard.tsx'
import { ListTable } from '../../../ui/list/ListTable.tsx'
import { loginAclListConfig } from '../user-acls/UserLoginAclListPage.tsx'
import { sourceFromRef } from '../../../ui/form/related.ts'
import { USERS_URL, userResource } from './resource.ts'
import { userCommandOverrides, userDetailCommands } from './userCommands.tsx'

const useStyles = makeStyles({
  grid: { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(min(360px, 100%), 1fr))', gap: tokens.spacingHorizontalL, alignItems: 'start' },
})

function items(value: unknown): RelationItem[] {
  return (Array.isArray(value) ? value : []).map((v: { id: RowId; name?: string; display_name?: string }) => ({ id: v.id, label: v.display_name ?? v.name ?? String(v.id) }))
}

/** The pickers' sources are the manifest's (the users entry's related models). */
const source = (field: 'groups' | 'system_roles' | 'org_roles') => sourceFromRef(userResource.related![field]!)

function Info({ object, fields }: DetailContext) {
  const { t } = useLingui()
  const styles = useStyles()
  return (
    <div className={styles.grid}>
      <InfoCard title={t`Basic information`} items={detailItems(object, fields, ['name', 'username', 'email', 'phone', 'wechat', 'source', 'mfa_level', 'is_valid', 'is_active', 'login_blocked', 'is_otp_secret_key_bound', 'comment'])} />
      <InfoCard title={t`Dates`} items={detailItems(object, fields, ['date_joined', 'last_login', 'date_password_last_updated', 'date_expired', 'date_updated', 'created_by'])} />
    </div>
  )
}

function Groups({ object, reload, access }: DetailContext) {
  const { t } = useLingui()
  const canEdit = hasPerm(access.perms, userResource.perms.change) && !isRootOrg(access)
  return (
    <RelationCard
      title={t`User groups`}
      source={source('groups')}
      items={items(object.groups)}
      canEdit={canEdit}
      onSave={async (ids) => {
        await patchResource(USERS_URL, object.id, { groups: ids })
        reload()
      }}
    />
  )
}

function Roles({ object, reload, access }: DetailContext) {
  const { t } = useLingui()
  const styles = useStyles()
  const canChange = hasPerm(access.perms, userResource.perms.change)
  const save = (field: 'system_roles' | 'org_roles') => async (ids: RowId[]) => {
    await patchResource(USERS_URL, object.id, { [field]: ids })
    reload()
  }
  return (
    <div className={styles.grid}>
      <RelationCard title={t`System roles`} source={source('system_roles')} items={items(object.system_roles)}
        canEdit={canChange && hasPerm(access.perms, 'rbac.add_systemrolebinding')} onSave={save('system_roles')} />
      {'org_roles' in object && (
        <RelationCard title={t`Organization roles`} source={source('org_roles')} items={items(object.org_roles)}
          canEdit={canChange && !isRootOrg(access) && hasPerm(access.perms, 'rbac.add_orgrolebinding')} onSave={save('org_roles')} />
      )}
    </div>
  )
}

function LoginAcls({ object }: DetailContext) {
  const config = useMemo(() => loginAclListConfig(String(object.id), 'local'), [object.id])
  return <ListTable config={config} />
}

export const userDetailConfig: DetailConfig = {
  resource: userResource,
  tabs: [
    { id: 'Info', label: msg`Basic information`, render: (ctx) => <Info {...ctx} /> },
    { id: 'Groups', label: msg`User groups`, render: (ctx) => <Groups {...ctx} /> },
    { id: 'Roles', label: msg`Roles`, visible: (row) => 'system_roles' in row, render: (ctx) => <Roles {...ctx} /> },
    { id: 'LoginAcls', label: msg`Login ACLs`, perms: ['acls.view_loginacl'], render: (ctx) => <LoginAcls {...ctx} /> },
  ],
  commands: { overrides: userCommandOverrides, extra: userDetailCommands },
}

export function UserDetailPage() {
  return <GenericDetailPage config={userDetailConfig} />
}
