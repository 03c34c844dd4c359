/**
 * importTask — row-by-row import of a previewed file (spec §4.3, contract §2.5).
 *
 * pending →(IMPORT) started →(STOP) stopped →(CONTINUE) started; started uploads the first pending row
 * (`uploadRow`), waits 100 ms, and goes on until no row is pending → done. The preview page follows the row being
 * uploaded (10 rows per page). CONTINUE (stopped or done) resets failed rows to pending; EDIT_CELL resets the
 * edited row. STOP during an upload lets that row finish first. After every row (and on stop, done and edits)
 * the injected `persist` action receives the serialisable task, and `{ resumed: true }` input restores it.
 */
import { assertEvent, assign, fromPromise, setup } from 'xstate'
import type { ErrorActorEvent, SnapshotFrom } from 'xstate'
import { notProvided } from '../shared/errors.ts'
import {
  IMPORT_PAGE_SIZE,
  IMPORT_ROW_DELAY_MS,
  type ImportProgress,
  type ImportRow,
  type ImportTaskContext,
  type ImportTaskEmitted,
  type ImportTaskEvent,
  type ImportTaskInput,
  type ImportTaskStatus,
  type PersistedImportTask,
  type UploadRowInput,
} from './import-task.types.ts'

/** Error lines of a failed upload: `{ errors: string[] }`, a string array, a string or an Error; else none. */
export function toErrorLines(error: unknown): string[] {
  if (Array.isArray(error)) return error.filter((line): line is string => typeof line === 'string')
  if (typeof error === 'string') return [error]
  if (error instanceof Error) return [error.message]
  if (typeof error === 'object' && error !== null && Array.isArray((error as { errors?: unknown }).errors)) {
    return toErrorLines((error as { errors: unknown[] }).errors)
  }
  return []
}

export function importProgress(rows: readonly ImportRow[]): ImportProgress {
  let ok = 0
  let failed = 0
  for (const row of rows) {
    if (row.status === 'ok') ok += 1
    else if (row.status !== 'pending') failed += 1
  }
  return { total: rows.length, ok, failed, pending: rows.length - ok - failed }
}

export function pageCount(context: Pick<ImportTaskContext, 'rows' | 'pageSize'>): number {
  return Math.max(1, Math.ceil(context.rows.length / context.pageSize))
}

/** The rows of the current preview page. */
export function pageRows(context: Pick<ImportTaskContext, 'rows' | 'pageSize' | 'page'>): readonly ImportRow[] {
  return context.rows.slice((context.page - 1) * context.pageSize, context.page * context.pageSize)
}

const firstPending = (rows: readonly ImportRow[]) => rows.findIndex((row) => row.status === 'pending')
const hasWorkLeft = (rows: readonly ImportRow[]) => rows.some((row) => row.status !== 'ok')

function setStatus(context: ImportTaskContext, status: ImportRow['status']): readonly ImportRow[] {
  return context.rows.map((row) => (row.id === context.currentRowId ? { ...row, status } : row))
}

const persistAs = (status: ImportTaskStatus) =>
  ({
    type: 'persist',
    params: ({ context }: { context: ImportTaskContext }): PersistedImportTask => ({ rows: context.rows, mode: context.mode, status }),
  }) as const

const importTaskSetup = setup({
  types: {
    input: {} as ImportTaskInput,
    context: {} as ImportTaskContext,
    events: {} as ImportTaskEvent,
    emitted: {} as ImportTaskEmitted,
  },
  actors: {
    /** Upload one row; reject with `{ errors: string[] }` (or any value, see toErrorLines) when it fails. */
    uploadRow: fromPromise<unknown, UploadRowInput>(async () => notProvided('importTask', 'uploadRow')),
  },
  actions: {
    /** Save the task for a reload (e.g. sessionStorage). Default: no-op. */
    persist: (_, _task: PersistedImportTask) => {},
    selectNextRow: assign(({ context }) => {
      const index = firstPending(context.rows)
      return { currentRowId: context.rows[index]?.id ?? null, page: Math.floor(Math.max(index, 0) / context.pageSize) + 1 }
    }),
    markOk: assign(({ context }) => ({ rows: setStatus(context, 'ok'), currentRowId: null })),
    markFailed: assign(({ context }, error: unknown) => ({ rows: setStatus(context, { error: toErrorLines(error) }), currentRowId: null })),
    resetFailedRows: assign({
      rows: ({ context }) => context.rows.map((row) => (row.status === 'pending' || row.status === 'ok' ? row : { ...row, status: 'pending' as const })),
      stopRequested: false,
    }),
    editCell: assign({
      rows: ({ context, event }) => {
        assertEvent(event, 'EDIT_CELL')
        return context.rows.map((row) =>
          row.id === event.rowId ? { ...row, data: { ...row.data, [event.field]: event.value }, status: 'pending' as const } : row,
        )
      },
    }),
  },
  guards: {
    isResumed: ({ context }) => context.resumed,
    resumedWithWork: ({ context }) => context.resumed && hasWorkLeft(context.rows),
    hasPendingRow: ({ context }) => firstPending(context.rows) >= 0,
    noPendingRow: ({ context }) => firstPending(context.rows) < 0,
    stopRequested: ({ context }) => context.stopRequested,
    isKnownRow: ({ context, event }) => {
      assertEvent(event, 'EDIT_CELL')
      return context.rows.some((row) => row.id === event.rowId)
    },
  },
  delays: {
    rowDelay: IMPORT_ROW_DELAY_MS,
  },
})

/** Announces a run that ended with failed rows (the UI shows the "failed items" message). */
const reportRun = importTaskSetup.enqueueActions(({ context, enqueue }) => {
  const { failed, total } = importProgress(context.rows)
  if (failed > 0) enqueue.emit({ type: 'finishedWithFailures', failed, total })
})

export const importTaskMachine = importTaskSetup.createMachine({
  id: 'importTask',
  description: 'Row-by-row import: Import, Stop, Continue; failed rows are kept with their errors. ' +
    'STOP during an upload lets that row finish (never re-sent half-done); the task is persisted after each row ' +
    'and a reloaded task resumes in stopped.',
  context: ({ input }) => ({
    rows: input.rows,
    mode: input.mode,
    pageSize: input.pageSize ?? IMPORT_PAGE_SIZE,
    page: 1,
    currentRowId: null,
    stopRequested: false,
    resumed: input.resumed === true,
  }),
  initial: 'restoring',
  on: {
    SET_PAGE: {
      actions: assign({ page: ({ context, event }) => Math.min(Math.max(1, Math.trunc(event.page)), pageCount(context)) }),
    },
  },
  states: {
    restoring: {
      always: [{ guard: 'resumedWithWork', target: 'stopped' }, { guard: 'isResumed', target: 'done' }, { target: 'pending' }],
    },
    pending: {
      on: {
        IMPORT: 'started',
        EDIT_CELL: { guard: 'isKnownRow', actions: ['editCell', persistAs('pending')] },
      },
    },
    started: {
      entry: assign({ stopRequested: false }),
      initial: 'selecting',
      states: {
        selecting: {
          always: [
            { guard: 'hasPendingRow', target: 'uploading', actions: 'selectNextRow' },
            { target: '#importTask.done', actions: reportRun },
          ],
        },
        uploading: {
          on: { STOP: { actions: assign({ stopRequested: true }) } },
          invoke: {
            id: 'uploadRow',
            src: 'uploadRow',
            input: ({ context }) => {
              const row = context.rows.find((candidate) => candidate.id === context.currentRowId)
              if (!row) throw new Error('importTask: no row to upload')
              return { row, mode: context.mode }
            },
            onDone: { target: 'betweenRows', actions: ['markOk', persistAs('started')] },
            onError: {
              target: 'betweenRows',
              actions: [{ type: 'markFailed', params: ({ event }: { event: ErrorActorEvent }) => event.error }, persistAs('started')],
            },
          },
        },
        betweenRows: {
          always: [
            { guard: 'stopRequested', target: '#importTask.stopped', actions: assign({ stopRequested: false }) },
            { guard: 'noPendingRow', target: '#importTask.done', actions: reportRun },
          ],
          after: { rowDelay: 'selecting' },
          on: { STOP: '#importTask.stopped' },
        },
      },
    },
    stopped: {
      entry: persistAs('stopped'),
      on: {
        CONTINUE: { target: 'started', actions: 'resetFailedRows' },
        EDIT_CELL: { guard: 'isKnownRow', actions: ['editCell', persistAs('stopped')] },
      },
    },
    done: {
      entry: persistAs('done'),
      on: {
        CONTINUE: { target: 'started', actions: 'resetFailedRows' },
        EDIT_CELL: { guard: 'isKnownRow', actions: ['editCell', persistAs('done')] },
      },
    },
  },
})

export type ImportTaskSnapshot = SnapshotFrom<typeof importTaskMachine>

/** The action button: Import when pending, Stop when started, Finished when done and all ok, else Continue. */
export function buttonLabelKind(snapshot: ImportTaskSnapshot): 'import' | 'stop' | 'finished' | 'continue' {
  if (snapshot.matches('pending')) return 'import'
  if (snapshot.matches('started')) return 'stop'
  if (snapshot.matches('done') && importProgress(snapshot.context.rows).ok === snapshot.context.rows.length) return 'finished'
  return 'continue'
}

/** STOP was pressed during an upload: the button should show Stop, disabled, until the row finishes. */
export function isStopping(snapshot: ImportTaskSnapshot): boolean {
  return snapshot.matches('started') && snapshot.context.stopRequested
}
