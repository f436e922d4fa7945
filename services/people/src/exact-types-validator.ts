import type { FastifySchemaCompiler, FastifySchemaValidationError } from 'fastify'
import type { TSchema } from '@sinclair/typebox'
import { TypeCompiler } from '@sinclair/typebox/compiler'

/**
 * Validates a route's params and body against their schemas as they are, converting nothing.
 * The kit's Ajv coerces types (right for query strings), which in a body would take the
 * string "Lifting" as the skills ["Lifting"], "false" as the switch false and 42 as the name
 * "42": values these routes always refused with 400. Errors keep Ajv's shape (instancePath,
 * message), which the kit's error handler turns into "Invalid skills: Expected array".
 */
export function exactTypes<Schema>({
  schema,
}: Parameters<FastifySchemaCompiler<Schema>>[0]): ReturnType<FastifySchemaCompiler<Schema>> {
  // Fastify hands over one part's schema at a time (params, body): a TypeBox schema.
  const checker = TypeCompiler.Compile(schema as unknown as TSchema)
  return (data: unknown) => {
    if (checker.Check(data)) return true
    const first = checker.Errors(data).First()
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
