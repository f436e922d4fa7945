import http from 'node:http'
import https from 'node:https'

/**
 * Resolves when `url` (a service's /healthz) answers 2xx within `timeoutMs`, rejects with why
 * not. node:http rather than fetch: fetch refuses "bad ports" (6000, 10080, ...) a service
 * may use.
 */
export function checkHealth(url: string, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const client = url.startsWith('https:') ? https : http
    const request = client.get(url, { agent: false, timeout: timeoutMs }, (response) => {
      response.resume()
      const status = response.statusCode ?? 0
      if (status >= 200 && status < 300) resolve()
      else reject(new Error(`answered ${status}`))
    })
    request.on('timeout', () => request.destroy(new Error('timed out')))
    request.on('error', (error: Error & { code?: string }) =>
      reject(new Error(`unreachable (${error.code ?? error.message})`)),
    )
  })
}
