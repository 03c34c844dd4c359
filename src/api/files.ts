/**
 * The web file manager's calls (server/terminal/files-http.ts, docs/terminal.md "Files"): the user's tree of granted
 * assets — `/<organization>/<asset>/<account>/<path on the host>` — listed, downloaded, uploaded (with progress),
 * renamed, deleted and made folders in. The server checks every permission and writes the FTP logs.
 */
import { ApiError, csrfToken, errorText, messageFor, request, silent } from './client.ts'

export const FILE_MANAGER_URL = '/api/v1/terminal/file-manager/'

export interface FileEntry { name: string; type: 'dir' | 'file' | 'link' | 'other'; size: number; mtime: number; mode: number }
export interface FileActions { upload: boolean; download: boolean; delete: boolean }
export interface FileListing {
  path: string
  level: 'root' | 'org' | 'asset' | 'remote'
  entries: FileEntry[]
  truncated: boolean
  /** The account's transfer actions (under an account folder); null above it (read-only folders). */
  actions: FileActions | null
  /** Largest upload accepted, bytes. */
  upload_max: number
}

const q = (path: string) => `?${new URLSearchParams({ path }).toString()}`

/** Joins a folder of the tree and a name. */
export const joinPath = (folder: string, name: string) => `${folder.replace(/\/+$/, '')}/${name}`
/** The folder above a path ('/' stays '/'). */
export const parentPath = (path: string) => path.replace(/\/+$/, '').replace(/\/[^/]*$/, '') || '/'

export function listFiles(path: string): Promise<FileListing> {
  return request<FileListing>('get', `${FILE_MANAGER_URL}${q(path)}`, silent())
}

/** A plain link: the browser downloads the streamed file itself (no copy in memory). */
export function downloadUrl(path: string): string {
  return `${FILE_MANAGER_URL}download/${q(path)}`
}

export function makeFolder(path: string): Promise<unknown> {
  return request('post', `${FILE_MANAGER_URL}mkdir/`, silent({ json: { path } }))
}

export function renameFile(path: string, to: string): Promise<unknown> {
  return request('post', `${FILE_MANAGER_URL}rename/`, silent({ json: { path, to } }))
}

export function deleteFile(path: string): Promise<unknown> {
  return request('post', `${FILE_MANAGER_URL}delete/`, silent({ json: { path } }))
}

export interface UploadHandle { done: Promise<{ path: string; size: number }>; abort(): void }

/**
 * Uploads one file into a folder (multipart `file`), reporting progress (0–1). XMLHttpRequest, because a fetch with
 * upload progress needs a streamed body, which browsers send only over HTTP/2. Failures are `ApiError`s.
 */
export function uploadFile(folder: string, file: File, onProgress: (fraction: number) => void): UploadHandle {
  const xhr = new XMLHttpRequest()
  const done = new Promise<{ path: string; size: number }>((resolve, reject) => {
    xhr.open('POST', `${FILE_MANAGER_URL}upload/${q(folder)}`)
    const token = csrfToken()
    if (token) xhr.setRequestHeader('X-CSRFToken', token)
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(e.loaded / e.total)
    }
    xhr.onload = () => {
      let data: unknown
      try {
        data = xhr.responseText ? JSON.parse(xhr.responseText) : undefined
      } catch {
        data = xhr.responseText
      }
      if (xhr.status >= 200 && xhr.status < 300) return resolve(data as { path: string; size: number })
      reject(new ApiError(xhr.status, data, errorText(data) || messageFor(xhr.status, data), 'http', FILE_MANAGER_URL))
    }
    xhr.onerror = () => reject(new ApiError(0, undefined, messageFor(0, undefined), 'network', FILE_MANAGER_URL))
    xhr.onabort = () => reject(new ApiError(0, undefined, messageFor(0, undefined), 'network', FILE_MANAGER_URL))
    const body = new FormData()
    body.append('file', file)
    xhr.send(body)
  })
  return { done, abort: () => xhr.abort() }
}
