import type { FastifySchemaCompiler, FastifySchemaValidationError } from 'fastify'
import type { TSchema } from '@sinclair/typebox'
import { TypeCompiler } from '@sinclair/typebox/compiler'
import { Value } from '@sinclair/typebox/value'

type Compiler = FastifySchemaCompiler<unknown>

/**
 * A route's validator for params and bodies that converts nothing (`validatorCompiler:
 * exactTypes`). The app's Ajv coerces types, which is right for query strings but in a body
 * would take the post id 123 as "123", the string "Lifting" as the skills ["Lifting"] and
 * "false" as the switch false: values these routes always refused with 400. Fields the schema
 * does not list are dropped first, as Ajv's removeAdditional does, so they never reach the
 * service. Errors keep Ajv's shape (instancePath, message), which the error handler turns into
 * "Invalid postId: Expected string".
 */
export const exactTypes: Compiler = (route) => exactValidator(route.schema, true)

/**
 * The same, keeping fields the schema does not list, for a body whose unlisted fields the
 * service answers itself (people's account update refuses an e-mail change with its own 400).
 */
export const exactTypesKeepingUnknownFields: Compiler = (route) =>
  exactValidator(route.schema, false)

function exactValidator(schema: unknown, dropUnknownFields: boolean) {
  // Fastify hands over one part's schema at a time (params, body): a TypeBox schema.
  const typed = schema as TSchema
  const checker = TypeCompiler.Compile(typed)
  return (data: unknown) => {
    const value = dropUnknownFields ? Value.Clean(typed, data) : data
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
