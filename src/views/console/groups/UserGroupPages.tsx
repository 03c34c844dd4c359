/** UserGroupCreate/Update and UserGroupDetail (with its members); the list is UserGroupListPage.tsx. */
import { msg } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import { patchResource, type Row, type RowId } from '../../../api/resources.ts'
import { isRootOrg } from '../../../ui/common/access.tsx'
import { hasPerm } from '../../../ui/common/perms.ts'
import { GenericDetailPage, type DetailConfig, type DetailContext } from '../../../ui/detail/DetailPage.tsx'
import { detailItems, InfoCard } from '../../../ui/detail/InfoCard.tsx'
import { RelationCard } from '../../../ui/detail/RelationCard.tsx'
import { GenericFormPage, type FormPageConfig } from '../../../ui/form/FormPage.tsx'
import { noEmoji } from '../../../ui/form/validators.ts'
import { USERS_URL } from '../users/resource.ts'
import { userGroupResource } from './resource.ts'

/** "Name(username)", or the name alone when the answer has no username (members of a group). */
const personLabel = (r: Row) => (r.username ? `${String(r.name)}(${String(r.username)})` : String(r.name ?? r.id))

export const userGroupFormConfig: FormPageConfig = {
  resource: userGroupResource,
  title: { create: msg`Create user group`, update: msg`Update user group` },
  layout: [[msg`Basic`, ['name', 'users']], [msg`Other`, ['comment']]],
  overrides: { name: { rules: [noEmoji] }, users: { related: { url: USERS_URL, label: personLabel } } },
}

export function UserGroupFormPage() {
  return <GenericFormPage config={userGroupFormConfig} />
}

function Info({ object, fields }: DetailContext) {
  const { t } = useLingui()
  return <InfoCard title={t`Basic information`} items={detailItems(object, fields, ['name', 'users_amount', 'created_by', 'date_created', 'comment'])} />
}

function Members({ object, reload, access }: DetailContext) {
  const { t } = useLingui()
  const members = (Array.isArray(object.users) ? object.users : []) as { id: RowId; name?: string; username?: string }[]
  return (
    <RelationCard
      title={t`Members`}
      source={{ url: USERS_URL, label: personLabel }}
      items={members.map((m) => ({ id: m.id, label: personLabel(m as Row) }))}
      canEdit={hasPerm(access.perms, userGroupResource.perms.change) && !isRootOrg(access)}
      onSave={async (ids) => {
        await patchResource(userGroupResource.url, object.id, { users: ids })
        reload()
      }}
    />
  )
}

export const userGroupDetailConfig: DetailConfig = {
  resource: userGroupResource,
  tabs: [
    { id: 'Info', label: msg`Basic information`, render: (ctx) => <Info {...ctx} /> },
    { id: 'Members', label: msg`Members`, render: (ctx) => <Members {...ctx} /> },
  ],
}

export function UserGroupDetailPage() {
  return <GenericDetailPage config={userGroupDetailConfig} />
}
