/**
 * exportFlow — export of a list (spec §4.4, contract §2.6): optional confirmation (the confirm machine, invoked
 * as child `confirm`), then the options (scope and format), then the download (`download` actor) → done, or
 * error with RETRY / CANCEL. CANCEL from any unfinished state ends in `cancelled`.
 * A download the server refuses for want of a confirmation (400 `{code: relogin|password|mfa}`, the server being
 * the judge of its freshness) runs the confirmation against the refused URL, then downloads again — once: a
 * second refusal is an error.
 */
import { assign, fromPromise, setup } from 'xstate'
import type { ErrorActorEvent } from 'xstate'
import { confirmMachine } from '../confirm/confirm.machine.ts'
import type { ConfirmOutput } from '../confirm/confirm.types.ts'
import { httpStatusOf, notProvided } from '../shared/errors.ts'
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

/**
 * The URL to confirm against when a download was refused for want of a confirmation: a 400 whose `code` is a
 * confirmation level, carrying the request `url` (the API layer's error); else null.
 */
export function confirmationAsked(error: unknown): string | null {
  if (httpStatusOf(error) !== 400 || typeof error !== 'object' || error === null) return null
  const { code, url } = error as { code?: unknown; url?: unknown }
  return (code === 'relogin' || code === 'password' || code === 'mfa') && typeof url === 'string' && url !== '' ? url : null
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
    confirmedForDownload: ({ context }, output: ConfirmOutput) => output.status === 'confirmed' && context.retryingDownload,
    asksConfirmation: ({ context }, error: unknown) => !context.retryingDownload && confirmationAsked(error) !== null,
    isCancelled: (_, output: ConfirmOutput) => output.status === 'cancelled',
    isEnabledScope: ({ context, event }) => event.type === 'SET_SCOPE' && isScopeEnabled(event.scope, context),
  },
}).createMachine({
  id: 'exportFlow',
  description: 'Export: optional confirmation, options (scope, format), download with retry. ' +
    'The confirm step is the confirm machine as child `confirm`; a download failure can be retried instead of closing the dialog.',
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
    retryingDownload: false,
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
          { guard: { type: 'confirmedForDownload', params: ({ event }) => event.output }, target: 'downloading' },
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
        SUBMIT: { target: 'downloading', actions: assign({ retryingDownload: false }) },
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
        onError: [
          {
            guard: { type: 'asksConfirmation', params: ({ event }: { event: ErrorActorEvent }) => event.error },
            target: 'confirming',
            actions: assign({
              confirmUrl: ({ event }: { event: ErrorActorEvent }) => confirmationAsked(event.error) ?? '',
              retryingDownload: true,
            }),
          },
          { target: 'error', actions: assign({ error: ({ event }) => event.error }) },
        ],
      },
    },
    error: {
      on: { RETRY: { target: 'downloading', actions: assign({ retryingDownload: false }) } },
    },
    done: { type: 'final', output: ({ context }) => ({ status: 'downloaded', scope: context.scope, format: context.format }) },
    cancelled: { type: 'final', output: { status: 'cancelled' } },
    confirmFailed: {
      type: 'final',
      output: ({ context }) => ({ status: 'confirmFailed', confirm: context.confirmOutput ?? { status: 'cancelled' } }),
    },
  },
})
