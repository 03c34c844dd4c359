// @vitest-environment node

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createActor, fromPromise } from 'xstate'
import { MODEL_TEST_TIMEOUT, flushMicrotasks, walkShortestPaths } from '../testing/model-walk.ts'
import { buttonLabelKind, importProgress, importTaskMachine, isStopping, pageRows, toErrorLines } from './import-task.machine.ts'
import type { ImportRow, ImportTaskInput, PersistedImportTask, UploadRowInput } from './import-task.types.ts'

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

const rows = (count: number): ImportRow[] =>
  Array.from({ length: count }, (_, index) => ({ id: `r${index + 1}`, data: { name: `user${index + 1}` }, status: 'pending' as const }))

function start(input: ImportTaskInput, upload: (input: UploadRowInput) => Promise<unknown> = async () => ({})) {
  const uploadRow = vi.fn(upload)
  const persist = vi.fn<(task: PersistedImportTask) => void>()
  const errors: unknown[] = []
  const emitted: unknown[] = []
  const actor = createActor(
    importTaskMachine.provide({ actors: { uploadRow: fromPromise(({ input }) => uploadRow(input)) }, actions: { persist: (_, task) => persist(task) } }),
    { input },
  )
  actor.subscribe({ error: (error) => errors.push(error) })
  actor.on('*', (event) => emitted.push(event))
  actor.start()
  return { actor, uploadRow, persist, errors, emitted }
}

describe('importTask machine — model', { timeout: MODEL_TEST_TIMEOUT }, () => {
  it('walks every shortest path', async () => {
    const failed: ImportRow = { id: 'r2', data: { name: 'x' }, status: { error: ['Name: already exists'] } }
    await walkShortestPaths({
      machine: importTaskMachine,
      inputs: [
        { rows: rows(3), mode: 'create', pageSize: 2 },
        { rows: [{ ...rows(1)[0]!, status: 'ok' }, failed], mode: 'update', resumed: true },
        { rows: [{ ...rows(1)[0]!, status: 'ok' }], mode: 'update', resumed: true },
      ],
      promiseActors: ['uploadRow'],
      actions: { persist: vi.fn() },
      events: [
        { type: 'IMPORT' },
        { type: 'STOP' },
        { type: 'CONTINUE' },
        { type: 'EDIT_CELL', rowId: 'r2', field: 'name', value: 'fixed' },
        { type: 'EDIT_CELL', rowId: 'nope', field: 'name', value: 'x' },
        { type: 'SET_PAGE', page: 2 },
        { type: 'SET_PAGE', page: 9 },
        { type: 'xstate.done.actor.uploadRow', output: { id: 'created' } },
        { type: 'xstate.error.actor.uploadRow', error: { errors: ['Name: This field is required.'] } },
      ],
      // Keep the model small: paging before the run, edits while it is not running (the unknown row only once).
      filter: (snapshot, event) => {
        if (event.type === 'SET_PAGE') return snapshot.matches('pending')
        if (event.type === 'EDIT_CELL') return (event as { rowId?: string }).rowId === 'nope' ? snapshot.matches('pending') : !snapshot.matches('started')
        return true
      },
      invariant: (snapshot) => {
        const { rows: current, currentRowId, pageSize, page, stopRequested } = snapshot.context
        const progress = importProgress(current)
        expect(progress.ok + progress.failed + progress.pending).toBe(progress.total)
        if (snapshot.matches({ started: 'uploading' })) {
          const index = current.findIndex((row) => row.id === currentRowId)
          expect(current[index]?.status).toBe('pending')
          expect(page).toBe(Math.floor(index / pageSize) + 1)
        } else expect(currentRowId).toBeNull()
        if (snapshot.matches('done') && progress.pending > 0) expect(buttonLabelKind(snapshot)).toBe('continue')
        if (stopRequested) expect(snapshot.matches({ started: 'uploading' })).toBe(true)
        const label = buttonLabelKind(snapshot)
        if (snapshot.matches('pending')) expect(label).toBe('import')
        if (snapshot.matches('started')) expect(label).toBe('stop')
        if (snapshot.matches('stopped')) expect(label).toBe('continue')
        if (snapshot.matches('done')) expect(label).toBe(progress.ok === progress.total ? 'finished' : 'continue')
      },
    })
  })
})

describe('importTask machine — scenarios', () => {
  it('imports 12 rows page by page, 100 ms apart, and Continue retries the 2 failures', async () => {
    let attempt = 0
    const failing = new Set(['r3', 'r11'])
    const pages: number[] = []
    const { actor, uploadRow, emitted, persist, errors } = start({ rows: rows(12), mode: 'create' }, async ({ row }) => {
      attempt += 1
      pages.push(actor.getSnapshot().context.page)
      if (failing.has(row.id) && attempt <= 12) throw { errors: [`Name: ${String(row.data.name)} already exists`] }
      return { id: row.id }
    })
    expect(buttonLabelKind(actor.getSnapshot())).toBe('import')
    actor.send({ type: 'IMPORT' })
    await flushMicrotasks()
    expect(uploadRow).toHaveBeenCalledTimes(1)
    expect(buttonLabelKind(actor.getSnapshot())).toBe('stop')
    await vi.advanceTimersByTimeAsync(99)
    expect(uploadRow).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(uploadRow).toHaveBeenCalledTimes(2)
    while (actor.getSnapshot().matches('started')) await vi.advanceTimersByTimeAsync(100)
    expect(uploadRow).toHaveBeenCalledTimes(12)
    expect(uploadRow.mock.calls.map(([input]) => input.row.id)).toEqual(rows(12).map((row) => row.id))
    expect(pages).toEqual([1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2])
    expect(actor.getSnapshot().value).toBe('done')
    expect(importProgress(actor.getSnapshot().context.rows)).toEqual({ total: 12, ok: 10, failed: 2, pending: 0 })
    expect(actor.getSnapshot().context.rows[2]?.status).toEqual({ error: ['Name: user3 already exists'] })
    expect(emitted).toEqual([{ type: 'finishedWithFailures', failed: 2, total: 12 }])
    expect(buttonLabelKind(actor.getSnapshot())).toBe('continue')
    expect(persist.mock.calls.filter(([task]) => task.status === 'started')).toHaveLength(12)
    expect(persist).toHaveBeenLastCalledWith(expect.objectContaining({ status: 'done', mode: 'create' }))

    actor.send({ type: 'CONTINUE' })
    await vi.advanceTimersByTimeAsync(1_000)
    expect(uploadRow.mock.calls.slice(12).map(([input]) => input.row.id)).toEqual(['r3', 'r11'])
    expect(pages.slice(12)).toEqual([1, 2])
    expect(importProgress(actor.getSnapshot().context.rows)).toEqual({ total: 12, ok: 12, failed: 0, pending: 0 })
    expect(buttonLabelKind(actor.getSnapshot())).toBe('finished')
    expect(emitted).toHaveLength(1)
    expect(errors).toEqual([])
  })

  it('lets the row being uploaded finish when stopped, then continues with the next one', async () => {
    let release: (value: unknown) => void = () => {}
    const { actor, uploadRow } = start({ rows: rows(3), mode: 'update' }, (input) =>
      input.row.id === 'r1' ? new Promise((resolve) => (release = resolve)) : Promise.resolve({}),
    )
    actor.send({ type: 'IMPORT' })
    actor.send({ type: 'STOP' })
    expect(isStopping(actor.getSnapshot())).toBe(true)
    expect(actor.getSnapshot().matches({ started: 'uploading' })).toBe(true)
    release({})
    await flushMicrotasks()
    expect(actor.getSnapshot().value).toBe('stopped')
    expect(actor.getSnapshot().context.rows[0]?.status).toBe('ok')
    await vi.advanceTimersByTimeAsync(1_000)
    expect(uploadRow).toHaveBeenCalledTimes(1)
    expect(uploadRow).toHaveBeenCalledWith({ row: rows(1)[0], mode: 'update' })
    actor.send({ type: 'CONTINUE' })
    await vi.advanceTimersByTimeAsync(1_000)
    expect(uploadRow.mock.calls.map(([input]) => input.row.id)).toEqual(['r1', 'r2', 'r3'])
    expect(buttonLabelKind(actor.getSnapshot())).toBe('finished')
  })

  it('stops at once between rows', async () => {
    const { actor, uploadRow } = start({ rows: rows(3), mode: 'create' })
    actor.send({ type: 'IMPORT' })
    await flushMicrotasks()
    expect(actor.getSnapshot().matches({ started: 'betweenRows' })).toBe(true)
    actor.send({ type: 'STOP' })
    expect(actor.getSnapshot().value).toBe('stopped')
    await vi.advanceTimersByTimeAsync(1_000)
    expect(uploadRow).toHaveBeenCalledTimes(1)
    expect(vi.getTimerCount()).toBe(0)
  })

  it('resets an edited row to pending, except while running', async () => {
    const { actor, persist } = start({ rows: rows(2), mode: 'create' }, async () => {
      throw { errors: ['Email: invalid'] }
    })
    actor.send({ type: 'IMPORT' })
    actor.send({ type: 'EDIT_CELL', rowId: 'r2', field: 'email', value: 'a@b.c' })
    await vi.advanceTimersByTimeAsync(1_000)
    expect(actor.getSnapshot().context.rows[1]).toEqual({ id: 'r2', data: { name: 'user2' }, status: { error: ['Email: invalid'] } })
    actor.send({ type: 'EDIT_CELL', rowId: 'r2', field: 'email', value: 'a@b.c' })
    expect(actor.getSnapshot().context.rows[1]).toEqual({ id: 'r2', data: { name: 'user2', email: 'a@b.c' }, status: 'pending' })
    expect(persist).toHaveBeenLastCalledWith(expect.objectContaining({ status: 'done' }))
    expect(buttonLabelKind(actor.getSnapshot())).toBe('continue')
  })

  it('resumes a reloaded task stopped, or done when nothing is left', () => {
    const saved: ImportRow[] = [
      { id: 'r1', data: {}, status: 'ok' },
      { id: 'r2', data: {}, status: 'pending' },
    ]
    expect(start({ rows: saved, mode: 'create', resumed: true }).actor.getSnapshot().value).toBe('stopped')
    const finished = start({ rows: [saved[0]!], mode: 'create', resumed: true }).actor.getSnapshot()
    expect(finished.value).toBe('done')
    expect(buttonLabelKind(finished)).toBe('finished')
  })

  it('pages the preview and clamps the page', () => {
    const { actor } = start({ rows: rows(12), mode: 'create' })
    actor.send({ type: 'SET_PAGE', page: 5 })
    expect(actor.getSnapshot().context.page).toBe(2)
    expect(pageRows(actor.getSnapshot().context).map((row) => row.id)).toEqual(['r11', 'r12'])
    actor.send({ type: 'SET_PAGE', page: 0 })
    expect(actor.getSnapshot().context.page).toBe(1)
  })

  it('turns upload failures into error lines', () => {
    expect(toErrorLines({ errors: ['Name: required', 3] })).toEqual(['Name: required'])
    expect(toErrorLines(['a', 'b'])).toEqual(['a', 'b'])
    expect(toErrorLines('timeout')).toEqual(['timeout'])
    expect(toErrorLines(new Error('network'))).toEqual(['network'])
    expect(toErrorLines({ status: 500 })).toEqual([])
  })
})
