/**
 * Stands in for the browser's XMLHttpRequest, which lib/upload uses for the PUT to storage:
 * the test decides how each PUT ends. `installFakeUpload()` in a beforeEach; its return
 * value puts the real one back.
 */
export class FakeUpload {
  static last: FakeUpload | null = null
  upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null }
  onload: (() => void) | null = null
  onerror: (() => void) | null = null
  status = 0
  url = ''
  headers: Record<string, string> = {}
  open(_method: string, url: string) {
    this.url = url
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value
  }
  send() {
    FakeUpload.last = this
  }
  progress(loaded: number) {
    this.upload.onprogress?.({ lengthComputable: true, loaded, total: 100 } as ProgressEvent)
  }
  finish(status: number) {
    this.status = status
    this.onload?.()
  }
}

export function installFakeUpload(): () => void {
  const real = globalThis.XMLHttpRequest
  FakeUpload.last = null
  globalThis.XMLHttpRequest = FakeUpload as unknown as typeof XMLHttpRequest
  return () => {
    globalThis.XMLHttpRequest = real
  }
}
