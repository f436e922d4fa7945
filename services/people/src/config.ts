import { Type } from '@sinclair/typebox'
import {
  BaseConfigSchema,
  KafkaConfigSchema,
  MongoConfigSchema,
  loadConfig,
} from '@marketplace/service-kit'

const PeopleConfigSchema = Type.Composite([
  BaseConfigSchema,
  MongoConfigSchema,
  KafkaConfigSchema,
  Type.Object({
    SERVICE_NAME: Type.String({ default: 'people' }),
    PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 4002 }),
  }),
])

export type PeopleConfig = ReturnType<typeof readConfig>

/** The only place the people service reads its environment. */
export function readConfig(env: Record<string, string | undefined> = process.env) {
  return loadConfig(PeopleConfigSchema, env)
}
