import {
  MongoNetworkError,
  MongoNotConnectedError,
  MongoServerClosedError,
  MongoServerSelectionError,
  MongoTopologyClosedError,
} from 'mongodb'

/** What a client is told to wait before it tries again while the database is away. */
export const DATABASE_RETRY_AFTER_SECONDS = 5

const UNAVAILABLE = [
  MongoNetworkError,
  MongoServerSelectionError,
  MongoNotConnectedError,
  MongoServerClosedError,
  MongoTopologyClosedError,
]
// The pool's "cleared" error has no export of its own; it is what an operation queued on a
// pool whose server just went away gets. Names also catch a second copy of the driver.
const UNAVAILABLE_NAMES = new Set([
  ...UNAVAILABLE.map((type) => type.name),
  'MongoPoolClearedError',
  'MongoNetworkTimeoutError',
])

/**
 * Whether an error says the database could not be reached (stopped, restarting, partitioned)
 * rather than that the request or the code was wrong. Such a request answers 503 with
 * Retry-After, and an event handler that fails this way is retried for as
 * long as the outage lasts instead of being dead-lettered.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let cause = error, depth = 0; cause && depth < 5; depth += 1) {
    if (UNAVAILABLE.some((type) => cause instanceof type)) return true
    if (cause instanceof Error && UNAVAILABLE_NAMES.has(cause.name)) return true
    // A bulk write (insertMany, bulkWrite) whose connection closed under it throws a
    // MongoBulkWriteError that keeps the network error as `errorResponse`, not as `cause`:
    // without this the request answered 500 where a single insert answered 503.
    const { cause: next, errorResponse } = cause as { cause?: unknown; errorResponse?: unknown }
    cause = next ?? (errorResponse instanceof Error ? errorResponse : undefined)
  }
  return false
}
