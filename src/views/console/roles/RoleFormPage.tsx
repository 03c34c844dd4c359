/** RoleCreate / RoleUpdate: `?scope=system|org` picks the endpoint; cloning copies the role's permissions server-side. */
import { msg } from '@lingui/core/macro'
import { useSearch } from '@tanstack/react-router'
import { useMemo } from 'react'
import { GenericFormPage, type FormPageConfig } from '../../../ui/form/FormPage.tsx'
import { noEmoji } from '../../../ui/form/validators.ts'
import { roleResourceFor } from './resource.ts'

export function roleFormConfig(scope: unknown): FormPageConfig {
  return {
    resource: roleResourceFor(scope),
    title: { create: msg`Create role`, update: msg`Update role` },
    keepSearch: ['scope'],
    layout: (mode) => (mode === 'create' && roleResourceFor(scope).url.endsWith('/roles/') ? ['name', 'scope', 'comment'] : ['name', 'comment']),
    overrides: { name: { rules: [noEmoji] } },
  }
}

export function RoleFormPage() {
  const search = useSearch({ strict: false }) as { scope?: string }
  const config = useMemo(() => roleFormConfig(search.scope), [search.scope])
  return <GenericFormPage config={config} />
}
