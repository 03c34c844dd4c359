/** UserLoginACLCreate / Update: the user is fixed by the page (`?user=`); rules are edited as IP list + time JSON. */
import { msg } from '@lingui/core/macro'
import { GenericFormPage, type FormPageConfig } from '../../../ui/form/FormPage.tsx'
import { noEmoji } from '../../../ui/form/validators.ts'
import { loginAclResource } from './resource.ts'

export const loginAclFormConfig: FormPageConfig = {
  resource: loginAclResource,
  title: { create: msg`Create user login ACL`, update: msg`Update user login ACL` },
  keepSearch: ['user'],
  layout: [
    [msg`Basic`, ['name', 'priority']],
    [msg`Rules`, ['rules', 'action', 'reviewers']],
    [msg`Other`, ['is_active', 'comment']],
  ],
  overrides: {
    name: { rules: [noEmoji] },
    rules: { fields: { time_period: { widget: 'json', helpText: msg`Weekly periods as JSON, e.g. [{"id": 1, "value": "08:00~18:00"}]; empty means any time` } } },
    reviewers: { hidden: (v) => v.action !== 'review' },
  },
  transform: (payload, values, search) => {
    const user = typeof search.user === 'string' ? search.user : values.user
    return user ? { ...payload, user } : payload
  },
}

export function UserLoginAclFormPage() {
  return <GenericFormPage config={loginAclFormConfig} />
}
