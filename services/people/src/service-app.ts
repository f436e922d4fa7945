import type { createServiceApp } from '@marketplace/service-kit'

/**
 * The app `createServiceApp` builds, typed by its TypeBox provider: a route plugin that takes
 * it gets its params, query and body typed from their schemas, with no casts.
 */
export type ServiceApp = Awaited<ReturnType<typeof createServiceApp>>
