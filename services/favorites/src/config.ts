import { Type } from '@sinclair/typebox'
import {
  BaseConfigSchema,
  KafkaConfigSchema,
  MongoConfigSchema,
  loadConfig,
} from '@marketplace/service-kit'
import { FAVORITES_MAX_PER_KIND } from '@marketplace/contracts/marketplace'

const FavoritesConfigSchema = Type.Composite([
  BaseConfigSchema,
  MongoConfigSchema,
  KafkaConfigSchema,
  Type.Object({
    SERVICE_NAME: Type.String({ default: 'favorites' }),
    PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 4004 }),
    /** Favorites one user may keep of each kind (posts, people). Tests lower it. */
    FAVORITES_MAX_PER_KIND: Type.Integer({ minimum: 1, default: FAVORITES_MAX_PER_KIND }),
  }),
])

export type FavoritesConfig = ReturnType<typeof readConfig>

/** The only place the favorites service reads its environment. */
export function readConfig(env: Record<string, string | undefined> = process.env) {
  return loadConfig(FavoritesConfigSchema, env)
}
