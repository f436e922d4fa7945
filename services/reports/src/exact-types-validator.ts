import type { FastifySchemaCompiler, FastifySchemaValidationError } from 'fastify'
import type { TSchema } from '@sinclair/typebox'
import { TypeCompiler } from '@sinclair/typebox/compiler'
import { Value } from '@sinclair/typebox/value'

/**
 * Validates a route's params and body against their schemas as they are, converting nothing.
 * The kit's Ajv coerces types (right for query strings), which in a body would take the
 * description 5 as "5" and the post id 123 as "123", where a mistyped field always got 400. Fields the schema does
 * not list are dropped first, as Ajv's removeAdditional does, so they never reach the service.
 * Errors keep Ajv's shape (instancePath, message), which the kit's error handler turns into
 * "Invalid postId: Expected string".
 */
export function exactTypes<Schema>({
  schema,
}: Parameters<FastifySchemaCompiler<Schema>>[0]): ReturnType<FastifySchemaCompiler<Schema>> {
  // Fastify hands over one part's schema at a time (params, body): a TypeBox schema.
  const typed = schema as unknown as TSchema
  const checker = TypeCompiler.Compile(typed)
  return (data: unknown) => {
    const value = Value.Clean(typed, data)
    if (checker.Check(value)) return { value }
    const first = checker.Errors(value).First()
    const error: FastifySchemaValidationError = {
      keyword: 'type',
      instancePath: first?.path ?? '',
      schemaPath: '',
      params: {},
      message: first?.message ?? 'Invalid value',
    }
    return { error: [error] }
  }
}
