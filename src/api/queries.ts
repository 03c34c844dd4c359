/**
 * The cached reads of a page (src/api/cache.ts): metadata, a list page, an object. Route loaders start them and
 * components read them under the same keys, so a page's data leaves with its code chunk, not after it renders.
 */
import { i18n } from '@lingui/core'
import type { CacheQuery } from './cache.ts'
import { loadMetadata, metadataKey, type ResourceMeta } from './metadata.ts'
import {
  detailUrl, getJson, getOperateLogDiff, listActivities, listResources, retrieveObject, retrieveResource, withQuery, type Activity, type DiffEntry, type Page, type Query, type Row, type RowId,
} from './resources.ts'

/** OPTIONS of a URL in an organization and the current language (kept until invalidated). */
export function metadataQuery(url: string, orgId: string | undefined): CacheQuery<ResourceMeta> {
  return { key: `meta|${metadataKey(url, orgId)}`, run: () => loadMetadata(url, orgId), keep: true }
}

/**
 * The scope of a data answer: its organization and the language it was asked in (the server translates choice
 * labels and role names, so an answer in English is not one in Chinese: issue 17, defect 8).
 */
const scope = (orgId: string | undefined) => `${orgId ?? ''}|${i18n.locale ?? ''}`

/** One page of a list. */
export function listQuery(url: string, query: Query, orgId: string | undefined): CacheQuery<Page> {
  return { key: `list|${scope(orgId)}|${withQuery(url, query)}`, run: (signal) => listResources(url, query, { signal }) }
}

/** One object. */
export function objectQuery(listUrl: string, id: RowId, orgId: string | undefined): CacheQuery<Row> {
  return { key: `object|${scope(orgId)}|${detailUrl(listUrl, id)}`, run: (signal) => retrieveResource(listUrl, id, { signal }) }
}

/** The one object a URL answers (a settings category: no id). */
export function singleObjectQuery(url: string, orgId: string | undefined): CacheQuery<Row> {
  return { key: `single|${scope(orgId)}|${url}`, run: (signal) => retrieveObject(url, { signal }) }
}

/** Any JSON answer (a tree, a detail action's answer). */
export function jsonQuery<T>(url: string, orgId: string | undefined, parse: (raw: unknown) => T = (raw) => raw as T): CacheQuery<T> {
  return { key: `json|${scope(orgId)}|${url}`, run: async (signal) => parse(await getJson<unknown>(url, { signal })) }
}

/** The Activity tab's entries of one object. */
export function activitiesQuery(resourceId: RowId, orgId: string | undefined): CacheQuery<Activity[]> {
  return { key: `activities|${scope(orgId)}|${String(resourceId)}`, run: (signal) => listActivities(resourceId, { signal }) }
}

/** The field changes of one operate log. */
export function diffQuery(url: string): CacheQuery<DiffEntry[]> {
  return { key: `diff|${url}`, run: (signal) => getOperateLogDiff(url, { signal }) }
}
