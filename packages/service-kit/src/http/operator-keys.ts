import type { FastifyInstance } from 'fastify'
import { BadRequestError } from '../errors'

/** How deep a body is searched: ours are a few levels at most; deeper is refused as well. */
const MAX_DEPTH = 8

/**
 * Only what a JSON or query parser made: a proxied body (a Buffer, a stream) is the upstream
 * service's to check, and walking one would cost a step per byte.
 */
function isParsedJson(value: unknown): value is Record<string, unknown> | unknown[] {
  if (value === null || typeof value !== 'object') return false
  // A query parser's object may have a prototype of its own (fast-querystring's): tell the
  // parsed apart from the raw by what the raw is, bytes or a stream.
  return !ArrayBuffer.isView(value) && typeof (value as { pipe?: unknown }).pipe !== 'function'
}

/**
 * The path of the first key that would read as a MongoDB operator (`$ne`, `$where`...) or a
 * qs-style operator in a query (`email[$ne]`), or null. Keys are what a client chose: none of
 * our fields starts with `$`, so such a key is never data.
 */
export function operatorKeyIn(value: unknown, path: string, depth = 0): string | null {
  if (!isParsedJson(value)) return null
  if (depth > MAX_DEPTH) return path
  const isArray = Array.isArray(value)
  const object = value as Record<string, unknown>
  // Every request's query passes here (the gateway's too): a key's path is only written out
  // when it is returned or searched further, not for each plain value.
  for (const key of Object.keys(object)) {
    if (key.startsWith('$') || key.includes('[$')) return pathOf(path, key, isArray)
    const inner = object[key]
    if (inner === null || typeof inner !== 'object') continue
    const found = operatorKeyIn(inner, pathOf(path, key, isArray), depth + 1)
    if (found) return found
  }
  return null
}

function pathOf(path: string, key: string, inArray: boolean): string {
  return inArray ? `${path}[${key}]` : `${path}.${key}`
}

/**
 * A query operator sent where a value belongs (`{"email": {"$ne": null}}`,
 * `?email[$ne]=`) is refused with a 400 that names it, before validation, whatever the route.
 * The schemas already refuse most (an object is not a string), but a field typed loosely, an
 * unknown key that validation would only strip, or a future handler that spreads a body into a
 * filter must never meet one: one check here rather than a promise in every route.
 */
export function refuseOperatorKeys(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    const found = operatorKeyIn(request.query, 'query') ?? operatorKeyIn(request.body, 'body')
    if (found) {
      done(
        new BadRequestError(
          `${found} is not accepted: a field name may not start with "$" (query operators are not allowed)`,
          'OPERATOR_NOT_ALLOWED',
        ),
      )
      return
    }
    done()
  })
}
