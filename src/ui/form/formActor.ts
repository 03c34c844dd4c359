/**
 * The form machine (machines/form) with its outside work: `load` asks the object and the metadata through the
 * answer cache (the same keys the form reads), `validate` and `save` are the form's own (src/ui/form/
 * useResourceForm.ts gives them with `setLogic` when it renders: its fields, rules and options).
 *
 * A create or update route's loader starts the actor (`preloadForm`, from src/router/pageData.ts) while the page's
 * code loads; the page's form takes that actor over (`takeFormActor`) when it targets the same object, so the
 * inspector shows one actor from the click on. A few actors started on hover wait at most; older ones stop.
 */
import { createActor, fromPromise, waitFor, type Actor } from 'xstate'
import { resourceFormMachine } from '../../../machines/form/form.machine.ts'
import type { FormCheck, FormMode, FormValues } from '../../../machines/form/form.types.ts'
import { ensure, peek, type CacheQuery } from '../../api/cache.ts'
import { metadataQuery, objectQuery, singleObjectQuery } from '../../api/queries.ts'
import { detailUrl, withQuery, type Row, type RowId } from '../../api/resources.ts'
import { inspectActors } from '../inspector/registry.ts'

/** The object a form works on. */
export interface FormTarget {
  /** API list URL (or the single object's URL) */
  url: string
  id?: RowId
  cloneFrom?: RowId
  /** `url` is one object without an id (a settings category) */
  single?: boolean
  view?: boolean
  orgId: string | undefined
}

/** What the form (when it renders) gives the machine's `validate` and `save`. */
export interface FormLogic {
  validate: (values: FormValues) => FormCheck
  save: (body: FormValues) => Promise<Row>
}

export type FormActor = Actor<typeof resourceFormMachine>

export interface FormActorEntry {
  actor: FormActor
  /** the form gives its rules and save call on every render; the machine reads them when it validates or saves */
  setLogic: (logic: FormLogic) => void
  key: string
}

export function formMode(target: FormTarget): FormMode {
  if (target.single) return target.view ? 'view' : 'update'
  return target.id === undefined ? 'create' : target.view ? 'view' : 'update'
}

/** The metadata URL: the object's for an update, `?clone_from=` for a clone, else the list's. */
export function formMetaUrl(target: FormTarget): string {
  const { url, id, cloneFrom, single } = target
  return single ? url : id !== undefined ? detailUrl(url, id) : cloneFrom !== undefined ? withQuery(url, { clone_from: cloneFrom }) : url
}

/** The object's query (update, clone, single object), or undefined for a new object. */
export function formObjectQuery(target: FormTarget): CacheQuery<Row> | undefined {
  const objectId = target.id ?? target.cloneFrom
  if (target.single) return singleObjectQuery(target.url, target.orgId)
  return objectId === undefined ? undefined : objectQuery(target.url, objectId, target.orgId)
}

const keyOf = (target: FormTarget) => `${metadataQuery(formMetaUrl(target), target.orgId).key}|${formObjectQuery(target)?.key ?? ''}|${formMode(target)}`

const notReady = (what: string) => Promise.reject(new Error(`resourceForm: the form gave no ${what}`))

/** A new (started) form actor for a target. */
export function createFormActor(target: FormTarget): FormActorEntry {
  const logic: { current?: FormLogic } = {}
  const meta = metadataQuery(formMetaUrl(target), target.orgId)
  const object = formObjectQuery(target)
  const machine = resourceFormMachine.provide({
    actors: {
      load: fromPromise(async () => {
        await Promise.all([ensure(meta), object ? ensure(object) : undefined])
        for (const query of [meta, object]) {
          const answer = query ? peek(query.key) : undefined
          if (answer?.status === 'error') throw answer.error
        }
      }),
      validate: fromPromise(async ({ input }) => (logic.current ? logic.current.validate(input.values) : notReady('rules'))),
      save: fromPromise(async ({ input }) => (logic.current ? logic.current.save(input.body) : notReady('save'))),
    },
  })
  const actor = createActor(machine, { input: { mode: formMode(target) }, inspect: inspectActors })
  actor.start()
  return { actor, setLogic: (given) => { logic.current = given }, key: keyOf(target) }
}

/** Actors started by route loaders, not yet taken by their page (the newest few). */
const preloaded: FormActorEntry[] = []
const KEEP = 3

/** A route loader starts the form: resolves when the object and metadata are in (or failed). */
export function preloadForm(target: FormTarget): Promise<void> {
  const key = keyOf(target)
  let entry = preloaded.find((e) => e.key === key)
  if (!entry) {
    entry = createFormActor(target)
    preloaded.push(entry)
    while (preloaded.length > KEEP) preloaded.shift()!.actor.stop()
  }
  return waitFor(entry.actor, (s) => !s.matches({ loading: 'fetching' })).then(() => {}, () => {})
}

/** The actor a loader started for this target (it is the caller's from now on), else a new one. */
export function takeFormActor(target: FormTarget): FormActorEntry {
  const key = keyOf(target)
  const index = preloaded.findIndex((e) => e.key === key && e.actor.getSnapshot().status === 'active')
  if (index >= 0) return preloaded.splice(index, 1)[0]!
  return createFormActor(target)
}
