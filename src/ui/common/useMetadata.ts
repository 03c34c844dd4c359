/** OPTIONS metadata of a URL in the current organization and language (cached; route loaders start it). */
import { useLingui } from '@lingui/react'
import type { ResourceMeta } from '../../api/metadata.ts'
import { metadataQuery } from '../../api/queries.ts'
import { useAccess } from './access.tsx'
import { useCached, type AsyncState } from './useCached.ts'

export function useMetadata(url: string | undefined): AsyncState<ResourceMeta> {
  const { orgId } = useAccess()
  // The language is part of the cache key (metadataKey): subscribing re-renders with the new key on a switch.
  useLingui()
  return useCached(url ? metadataQuery(url, orgId) : undefined)
}
