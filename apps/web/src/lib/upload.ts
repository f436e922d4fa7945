/**
 * PUTs a file straight to object storage at a pre-signed address, reporting progress
 * (0-100). XMLHttpRequest rather than fetch: fetch reports no upload progress.
 */
export function putToPresignedUrl(
  url: string,
  file: File,
  onProgress: (percent: number) => void = () => {},
): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest()
    request.open('PUT', url)
    // The address signs the type (and the length the browser sets); the one-year cache
    // policy is the media service's, set on the picture once it is attached (docs/media.md).
    request.setRequestHeader('Content-Type', file.type)
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(Math.round((event.loaded / event.total) * 100))
    }
    request.onload = () =>
      request.status >= 200 && request.status < 300
        ? (onProgress(100), resolve())
        : reject(new Error(`Upload refused with status ${request.status}`))
    request.onerror = () => reject(new Error('Upload failed'))
    request.send(file)
  })
}
