/**
 * UserLoginACLCreate / Update. Opened from a user's page the user is fixed by the page (`?user=`); opened from the
 * standalone list the form asks for the user (issue 17: without it the form could never save). Rules are edited
 * as an IP list and the time-period grid (the generic `time_period` widget).
 */
import { msg } from '@lingui/core/macro'
import { useSearch } from '@tanstack/react-router'
import { useMemo } from 'react'
import { GenericFormPage, type FormPageConfig } from '../../../ui/form/FormPage.tsx'
import { noEmoji } from '../../../ui/form/validators.ts'
import { loginAclResource } from './resource.ts'

export function loginAclFormConfig(fixedUser?: string): FormPageConfig {
  return {
    resource: loginAclResource,
    title: { create: msg`Create user login ACL`, update: msg`Update user login ACL` },
    keepSearch: ['user'],
    layout: [
      [msg`Basic`, fixedUser ? ['name', 'priority'] : ['name', 'user', 'priority']],
      [msg`Rules`, ['rules', 'action', 'reviewers']],
      [msg`Other`, ['is_active', 'comment']],
    ],
    overrides: {
      name: { rules: [noEmoji] },
      reviewers: { hidden: (v) => v.action !== 'review' },
    },
    transform: (payload, values, search) => {
      const user = typeof search.user === 'string' && search.user ? search.user : values.user
      return user ? { ...payload, user } : payload
    },
  }
}

export function UserLoginAclFormPage() {
  const search = useSearch({ strict: false }) as { user?: string }
  const config = useMemo(() => loginAclFormConfig(search.user || undefined), [search.user])
  return <GenericFormPage config={config} />
}
