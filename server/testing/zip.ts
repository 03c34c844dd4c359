/** Test-only: the files of a zip archive (read with the password, or without one), for tests that receive archives. */
import { Uint8ArrayReader, Uint8ArrayWriter, ZipReader, type FileEntry } from '@zip.js/zip.js'

export async function openZip(data: Uint8Array, password?: string): Promise<Array<{ name: string; data: Uint8Array }>> {
  const reader = new ZipReader(new Uint8ArrayReader(data), password === undefined ? {} : { password })
  try {
    const files = (await reader.getEntries()).filter((e): e is FileEntry => !e.directory)
    return await Promise.all(files.map(async (e) => ({ name: e.filename, data: await e.getData(new Uint8ArrayWriter()) })))
  } finally {
    await reader.close()
  }
}
