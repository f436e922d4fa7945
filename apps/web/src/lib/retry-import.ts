import { reportClientError } from '@/lib/client-errors'

/** A rendering failure is retried up to 3 times with a 100 ms delay. */
export const RENDER_RETRIES = 3
export const RENDER_RETRY_DELAY_MS = 100

/**
 * Loads a page's chunk, trying again on failure (a dropped connection, a server restarting);
 * after the last try the error goes to the route's error element.
 */
export async function importWithRetry<T>(
  load: () => Promise<T>,
  retries = RENDER_RETRIES,
  delayMs = RENDER_RETRY_DELAY_MS,
): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await load()
    } catch (error) {
      if (attempt >= retries) {
        console.error('Maximum attempts reached loading a page', error)
        reportClientError(error, 'chunk_load')
        throw error
      }
      await new Promise((resolve) => setTimeout(resolve, delayMs))
    }
  }
}
