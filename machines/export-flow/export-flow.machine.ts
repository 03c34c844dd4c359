/**
 * exportFlow — export of a list (spec §4.4, contract §2.6): optional confirmation (the confirm machine, invoked
 * as child `confirm`), then the options (scope and format), then the download (`download` actor) → done, or
 * error with RETRY / CANCEL. CANCEL from any unfinished state ends in `cancelled`.
 */
import { assign, fromPromise, setup } from 'xstate'
import type { ErrorActorEvent } from 'xstate'
import { confirmMachine } from '../confirm/confirm.machine.ts'
import type { ConfirmOutput } from '../confirm/confirm.types.ts'
import { notProvided } from '../shared/errors.ts'
import type {
  DownloadInput,
  ExportFlowContext,
  ExportFlowEvent,
  ExportFlowInput,
  ExportFlowOutput,
  ExportScope,
} from './export-flow.types.ts'

/** Scope rules (spec §5): all is disabled with filters, selected needs a selection, filtered needs filters. */
export function isScopeEnabled(scope: ExportScope, table: { selectedCount: number; hasFilters: boolean }): boolean {
  switch (scope) {
    case 'all':
      return !table.hasFilters
    case 'selected':
      return table.selectedCount > 0
    case 'filtered':
      return table.hasFilters
    default:
      return scope satisfies never
  }
}

/** The pre-selected scope: the first enabled of selected, filtered, all (one of them always is). */
export function defaultScope(table: { selectedCount: number; hasFilters: boolean }): ExportScope {
  const preferred: readonly ExportScope[] = ['selected', 'filtered', 'all']
  return preferred.find((scope) => isScopeEnabled(scope, table)) ?? 'all'
}

export const exportFlowMachine = setup({
  types: {
    input: {} as ExportFlowInput,
    context: {} as ExportFlowContext,
    events: {} as ExportFlowEvent,
    output: {} as ExportFlowOutput,
    children: {} as { confirm: 'confirm'; download: 'download' },
  },
  actors: {
    /** The confirm flow; default: the confirm machine, whose own actors the caller provides. */
    confirm: confirmMachine,
    /** Start the file download. */
    download: fromPromise<unknown, DownloadInput>(async () => notProvided('exportFlow', 'download')),
  },
  guards: {
    needsConfirm: ({ context }) => context.needsConfirm,
    isConfirmed: (_, output: ConfirmOutput) => output.status === 'confirmed',
    isCancelled: (_, output: ConfirmOutput) => output.status === 'cancelled',
    isEnabledScope: ({ context, event }) => event.type === 'SET_SCOPE' && isScopeEnabled(event.scope, context),
  },
}).createMachine({
  id: 'exportFlow',
  description: 'Export: optional confirmation, options (scope, format), download with retry.',
  context: ({ input }) => ({
    needsConfirm: input.needsConfirm,
    confirmUrl: input.confirmUrl ?? '',
    selectedCount: input.selectedCount,
    hasFilters: input.hasFilters,
    scope: defaultScope(input),
    format: 'csv',
    progress: null,
    error: null,
    confirmOutput: null,
  }),
  initial: 'starting',
  output: ({ event }) => event.output as ExportFlowOutput,
  on: { CANCEL: '.cancelled' },
  states: {
    starting: {
      always: [{ guard: 'needsConfirm', target: 'confirming' }, { target: 'options' }],
    },
    confirming: {
      invoke: {
        id: 'confirm',
        src: 'confirm',
        input: ({ context }) => ({ url: context.confirmUrl }),
        onDone: [
          { guard: { type: 'isConfirmed', params: ({ event }) => event.output }, target: 'options' },
          { guard: { type: 'isCancelled', params: ({ event }) => event.output }, target: 'cancelled' },
          { target: 'confirmFailed', actions: assign({ confirmOutput: ({ event }) => event.output }) },
        ],
        onError: {
          target: 'confirmFailed',
          actions: assign({
            confirmOutput: ({ event }: { event: ErrorActorEvent }) => ({ status: 'failed', failure: { kind: 'check_failed', error: event.error } }),
          }),
        },
      },
    },
    options: {
      on: {
        SET_SCOPE: { guard: 'isEnabledScope', actions: assign({ scope: ({ event }) => event.scope }) },
        SET_FORMAT: { actions: assign({ format: ({ event }) => event.format }) },
        SUBMIT: 'downloading',
      },
    },
    downloading: {
      entry: assign({ progress: null, error: null }),
      on: {
        PROGRESS: { actions: assign({ progress: ({ event }) => ({ loaded: event.loaded, total: event.total }) }) },
      },
      invoke: {
        id: 'download',
        src: 'download',
        input: ({ context, self }) => ({
          scope: context.scope,
          format: context.format,
          onProgress: (progress) => self.send({ type: 'PROGRESS', ...progress }),
        }),
        onDone: 'done',
        onError: { target: 'error', actions: assign({ error: ({ event }) => event.error }) },
      },
    },
    error: {
      on: { RETRY: 'downloading' },
    },
    done: { type: 'final', output: ({ context }) => ({ status: 'downloaded', scope: context.scope, format: context.format }) },
    cancelled: { type: 'final', output: { status: 'cancelled' } },
    confirmFailed: {
      type: 'final',
      output: ({ context }) => ({ status: 'confirmFailed', confirm: context.confirmOutput ?? { status: 'cancelled' } }),
    },
  },
})
