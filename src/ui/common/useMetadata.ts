/** OPTIONS metadata of a URL in the current organization and language (cached by `loadMetadata`). */
import { useLingui } from '@lingui/react'
import { loadMetadata, type ResourceMeta } from '../../api/metadata.ts'
import { useAccess } from './access.tsx'
import { useAsync, type AsyncState } from './useAsync.ts'

export function useMetadata(url: string | undefined): AsyncState<ResourceMeta> {
  const { orgId } = useAccess()
  const { i18n } = useLingui()
  return useAsync(url ? () => loadMetadata(url, orgId) : undefined, `${orgId}|${i18n.locale}|${url ?? ''}`)
}
