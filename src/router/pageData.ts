/**
 * What a manifest page reads first, started by its route's loader (in parallel with the page's code chunk, and
 * on hover): the list's metadata and first page from the URL's search params, a detail's object and metadata;
 * a form's machine (machines/form), which loads its metadata (and object). The components read the same cache
 * keys (src/api/queries.ts), so nothing is asked twice.
 */
import { ensure } from '../api/cache.ts'
import { listQuery, metadataQuery, objectQuery } from '../api/queries.ts'
import { detailUrl, withQuery } from '../api/resources.ts'
import type { FormTarget } from '../ui/form/formActor.ts'
import { decodeListState, toApiQuery, validateListSearch } from '../ui/list/listState.ts'
import { listDefaults } from '../ui/list/useListState.ts'
import { manifestRoute } from '../views/entries.ts'

export interface PageDataArgs {
  /** route name */
  name: string
  orgId: string | undefined
  params: Readonly<Record<string, string>>
  search: Readonly<Record<string, unknown>>
  can: (perm: string) => boolean
}

/** Starts the page's reads; resolves when each has an answer (or failed: the page shows failures itself). */
export function startPageData({ name, orgId, params, search, can }: PageDataArgs): Promise<unknown> {
  const found = manifestRoute(name)
  if (!found) return Promise.resolve()
  const { item, kind } = found
  const url = item.entry.pageUrl?.(kind, search, can) ?? item.url
  if (!url) return Promise.resolve()
  const id = params.id
  switch (kind) {
    case 'list': {
      const state = decodeListState(validateListSearch(search as Record<string, unknown>), listDefaults({ resource: item.resource }))
      return Promise.all([ensure(metadataQuery(url, orgId)), ensure(listQuery(url, toApiQuery(state), orgId))])
    }
    case 'detail':
      return id ? Promise.all([ensure(objectQuery(url, id, orgId)), ensure(metadataQuery(url, orgId))]) : Promise.resolve()
    // a form: its reads start at once, and its machine (src/ui/form/formActor.ts, a chunk of its own that the form
    // pages share: the first chunk stays as it was) starts on them; the page's form takes the actor over
    case 'update':
      return id ? Promise.all([ensure(objectQuery(url, id, orgId)), ensure(metadataQuery(detailUrl(url, id), orgId)), startForm({ url, id, orgId })]) : Promise.resolve()
    case 'create': {
      const cloneFrom = typeof search.clone_from === 'string' ? search.clone_from : undefined
      const form = startForm({ url, cloneFrom, orgId })
      if (!cloneFrom) return Promise.all([ensure(metadataQuery(url, orgId)), form])
      return Promise.all([ensure(objectQuery(url, cloneFrom, orgId)), ensure(metadataQuery(withQuery(url, { clone_from: cloneFrom }), orgId)), form])
    }
  }
}

/** Starts the form's machine on the reads begun beside it (a failed chunk only means the page makes its own). */
function startForm(target: FormTarget): Promise<void> {
  return import('../ui/form/formActor.ts').then((m) => m.preloadForm(target), () => {})
}
