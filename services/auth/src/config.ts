import { Type } from '@sinclair/typebox'
import {
  BaseConfigSchema,
  KafkaConfigSchema,
  MongoConfigSchema,
  loadConfig,
} from '@marketplace/service-kit'

const AuthConfigSchema = Type.Composite([
  BaseConfigSchema,
  MongoConfigSchema,
  KafkaConfigSchema,
  Type.Object({
    SERVICE_NAME: Type.String({ default: 'auth' }),
    PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 4001 }),
  }),
])

export type AuthConfig = ReturnType<typeof readConfig>

/** The only place the auth service reads its environment. */
export function readConfig(env: Record<string, string | undefined> = process.env) {
  return loadConfig(AuthConfigSchema, env)
}
