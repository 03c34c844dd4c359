/**
 * UserCreate / UserUpdate: the generic form with the users' groups and pickers. A new user gets a reset link by
 * email or a password set here (password strategy); on update the password stays unless one is typed.
 */
import { msg } from '@lingui/core/macro'
import { GenericFormPage, type FormPageConfig } from '../../../ui/form/FormPage.tsx'
import type { FieldOverrides } from '../../../ui/form/types.ts'
import { noEmoji } from '../../../ui/form/validators.ts'
import { userResource } from './resource.ts'

function overrides(mode: 'create' | 'update'): FieldOverrides {
  return {
    name: { rules: [noEmoji] },
    username: { rules: [noEmoji] },
    password_strategy: { hidden: () => mode === 'update' },
    password: {
      hidden: (v) => mode === 'create' && v.password_strategy !== 'custom',
      helpText: mode === 'update' ? msg`Leave empty to keep the current password` : undefined,
    },
    public_key: { widget: 'textarea', helpText: mode === 'update' ? msg`An SSH public key (ssh-rsa, ssh-ed25519, …); leave empty to keep the current one` : msg`An SSH public key (ssh-rsa, ssh-ed25519, …)` },
  }
}

export const userFormConfig: FormPageConfig = {
  resource: userResource,
  title: { create: msg`Create user`, update: msg`Update user` },
  layout: [
    [msg`Account`, ['name', 'username', 'email', 'groups']],
    [msg`Authentication`, ['password_strategy', 'password', 'need_update_password', 'public_key', 'mfa_level', 'source']],
    [msg`Roles`, ['system_roles', 'org_roles']],
    [msg`Security`, ['date_expired', 'is_active']],
    [msg`Other`, ['phone', 'wechat', 'is_service_account', 'comment']],
  ],
  overrides,
  transform: (payload) => {
    // The server wants a phone string; an empty one means none.
    if (payload.phone === '') payload.phone = null
    return payload
  },
}

export function UserFormPage() {
  return <GenericFormPage config={userFormConfig} />
}
