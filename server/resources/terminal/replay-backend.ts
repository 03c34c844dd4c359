/**
 * What the replay upload queue, the replay download and a storage's "Test" need of an external replay storage
 * (replay-remote.ts): one interface, one backend per protocol — S3 and the kinds that speak it (s3.ts), Azure Blob
 * storage (azure.ts). The retries, the read-back and the test live once, over this interface.
 */
import type { IncomingMessage } from 'node:http'

export interface ReplayBackend {
  /** Where objects go, for messages: the bucket or the container. */
  readonly place: string
  /** Uploads a file as `key`, its integrity checked by the peer (a signed hash or Content-MD5). */
  putFile(key: string, file: string, contentType?: string): Promise<void>
  /** Uploads a small body. */
  putBytes(key: string, body: Buffer, contentType?: string): Promise<void>
  /** The object as a stream, with its length when the peer says it. */
  get(key: string, signal?: AbortSignal): Promise<{ stream: IncomingMessage; length?: number }>
  /** The object's size, or undefined when there is none. */
  head(key: string): Promise<number | undefined>
  delete(key: string): Promise<void>
}

/** The peer answered, refusing: its status and its error code (`NoSuchKey`, `AuthenticationFailed`, …). */
export class StorageRefusal extends Error {
  constructor(readonly status: number, readonly code: string, message: string) {
    super(message)
    this.name = 'StorageRefusal'
  }
}
