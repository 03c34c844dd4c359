import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { waitFor } from 'xstate'
import { httpStatusOf } from '../../../machines/shared/errors.ts'
import { invalidate } from '../../api/cache.ts'
import { invalidateMetadata } from '../../api/metadata.ts'
import { fakeFetch, json } from '../common/testing.ts'
import { createFormActor, preloadForm, takeFormActor } from './formActor.ts'

const META = { actions: { PUT: { name: { type: 'string', required: true, read_only: false, label: 'Name' } }, POST: {} } }

beforeEach(() => {
  invalidateMetadata()
  invalidate(() => true)
})
afterEach(() => vi.unstubAllGlobals())

describe('form actors started by route loaders', () => {
  it('the page takes over the actor its loader started: one load of the object and the metadata', async () => {
    const sent = fakeFetch({
      'OPTIONS /api/v1/things/t1/': () => META,
      'GET /api/v1/things/t1/': () => ({ id: 't1', name: 'first' }),
    })
    const target = { url: '/api/v1/things/', id: 't1', orgId: 'o1' }
    await preloadForm(target)
    const taken = takeFormActor(target)
    expect(taken.actor.getSnapshot().value).toEqual({ loading: 'ready' })
    expect(sent.map((r) => `${r.method} ${r.url.pathname}`).sort()).toEqual(['GET /api/v1/things/t1/', 'OPTIONS /api/v1/things/t1/'])
    // taken once: the next form of the same object gets a new actor (its reads come from the cache)
    const again = takeFormActor(target)
    expect(again.actor).not.toBe(taken.actor)
    await waitFor(again.actor, (s) => s.matches({ loading: 'ready' }))
    expect(sent).toHaveLength(2)
  })

  it('another object, or another organization, is another form', async () => {
    fakeFetch({
      'OPTIONS /api/v1/things/t1/': () => META,
      'GET /api/v1/things/t1/': () => ({ id: 't1', name: 'first' }),
      'OPTIONS /api/v1/things/t2/': () => META,
      'GET /api/v1/things/t2/': () => ({ id: 't2', name: 'second' }),
    })
    await preloadForm({ url: '/api/v1/things/', id: 't1', orgId: 'o1' })
    const other = takeFormActor({ url: '/api/v1/things/', id: 't2', orgId: 'o1' })
    expect(other.actor.getSnapshot().matches({ loading: 'fetching' })).toBe(true)
    const elsewhere = takeFormActor({ url: '/api/v1/things/', id: 't1', orgId: 'o2' })
    expect(elsewhere.actor.getSnapshot().matches({ loading: 'fetching' })).toBe(true)
    expect(takeFormActor({ url: '/api/v1/things/', id: 't1', orgId: 'o1' }).actor.getSnapshot().value).toEqual({ loading: 'ready' })
  })

  it('a refused read fails the load: the form shows the error', async () => {
    fakeFetch({ 'OPTIONS /api/v1/secret/': () => json(403, { detail: 'No permission' }) })
    const { actor } = createFormActor({ url: '/api/v1/secret/', orgId: 'o1' })
    const failed = await waitFor(actor, (s) => s.matches('loadFailed'))
    expect(httpStatusOf(failed.context.loadError)).toBe(403)
  })

  it('loaders started on hover keep only the newest few actors waiting; older ones stop', async () => {
    fakeFetch(Object.fromEntries([1, 2, 3, 4].flatMap((n) => [
      [`OPTIONS /api/v1/things/t${n}/`, () => META],
      [`GET /api/v1/things/t${n}/`, () => ({ id: `t${n}` })],
    ])))
    const targets = [1, 2, 3, 4].map((n) => ({ url: '/api/v1/things/', id: `t${n}`, orgId: 'o1' }))
    for (const target of targets) await preloadForm(target)
    // the first was stopped: taking its target makes a new actor that loads again
    expect(takeFormActor(targets[0]!).actor.getSnapshot().matches({ loading: 'fetching' })).toBe(true)
    for (const target of targets.slice(1)) expect(takeFormActor(target).actor.getSnapshot().value).toEqual({ loading: 'ready' })
  })
})
