/** Saves a downloaded blob under a name: an object URL clicked through a temporary `<a download>`. */
export function saveBlob(blob: Blob, filename: string, doc: Document = document): void {
  const url = URL.createObjectURL(blob)
  const link = doc.createElement('a')
  link.href = url
  link.download = filename
  link.rel = 'noopener'
  link.style.display = 'none'
  doc.body.appendChild(link)
  try {
    link.click()
  } finally {
    link.remove()
    // revoke after the click has been handled
    setTimeout(() => URL.revokeObjectURL(url), 1_000)
  }
}
