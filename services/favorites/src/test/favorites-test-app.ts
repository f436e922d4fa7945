import { createCatalogAnnouncer } from '@marketplace/read-models/testing'
import { startServiceTestApp } from '@marketplace/service-kit/testing'
import { buildFavoritesApp } from '../app'
import { readConfig } from '../config'

// A new consumer group first replays the shared broker's history (events of every earlier
// test), so an event under test may take a while to be handled.
export const EVENT_WAIT_MS = 60_000

/**
 * The favorites app as server.ts builds it, against the real servers, with helpers that
 * announce people and posts as the auth, people and jobs services do (read-models testing).
 */
export async function startFavoritesTestApp(name: string, env: Record<string, string> = {}) {
  const service = await startServiceTestApp(name, (base) =>
    buildFavoritesApp(readConfig({ ...base, ...env })),
  )
  const announcer = createCatalogAnnouncer(service.db, { timeoutMs: EVENT_WAIT_MS })
  return { ...service, ...announcer }
}

export type FavoritesTestApp = Awaited<ReturnType<typeof startFavoritesTestApp>>
