/** Types of the exportFlow machine (spec §4.4 and §5, contract §2.6). */
import type { ConfirmOutput } from '../confirm/confirm.types.ts'

export type ExportScope = 'all' | 'selected' | 'filtered'
export type ExportFormat = 'csv' | 'xlsx'

export interface ExportFlowInput {
  /** Run the confirm flow first (e.g. the accounts list with `accounts.view_accountsecret`). */
  needsConfirm: boolean
  /** The protected URL the confirm flow checks; required when `needsConfirm`. */
  confirmUrl?: string
  selectedCount: number
  /** The list query has filters (anything but limit, offset, date_from, date_to). */
  hasFilters: boolean
}

export interface ExportProgress {
  loaded: number
  total: number | null
}

/** Input of `download`: `GET <list url>?<query without limit/offset>&format=…[&spm=…]`. */
export interface DownloadInput {
  scope: ExportScope
  format: ExportFormat
  /** Optional progress reports (e.g. while fetching a large file); sends PROGRESS to the machine. */
  onProgress: (progress: ExportProgress) => void
}

export type ExportFlowEvent =
  | { type: 'SET_SCOPE'; scope: ExportScope }
  | { type: 'SET_FORMAT'; format: ExportFormat }
  | { type: 'SUBMIT' }
  | ({ type: 'PROGRESS' } & ExportProgress)
  | { type: 'RETRY' }
  | { type: 'CANCEL' }

export interface ExportFlowContext {
  needsConfirm: boolean
  confirmUrl: string
  selectedCount: number
  hasFilters: boolean
  scope: ExportScope
  format: ExportFormat
  progress: ExportProgress | null
  /** Last download failure; the UI shows the API error text. */
  error: unknown
  /** Result of the confirm flow when it did not confirm. */
  confirmOutput: ConfirmOutput | null
  /** The download was refused for want of a confirmation: confirming, then downloading again (once). */
  retryingDownload: boolean
}

export type ExportFlowOutput =
  | { status: 'downloaded'; scope: ExportScope; format: ExportFormat }
  | { status: 'cancelled' }
  /** The confirm flow failed or asks for a new login (`confirm.status === 'relogin'`). */
  | { status: 'confirmFailed'; confirm: ConfirmOutput }
