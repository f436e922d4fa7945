import { Type } from '@sinclair/typebox'
import {
  BaseConfigSchema,
  KafkaConfigSchema,
  MongoConfigSchema,
  loadConfig,
} from '@marketplace/service-kit'
import { CONVERSATION_LIMITS } from '@marketplace/contracts/marketplace'

const ConversationsConfigSchema = Type.Composite([
  BaseConfigSchema,
  MongoConfigSchema,
  KafkaConfigSchema,
  Type.Object({
    SERVICE_NAME: Type.String({ default: 'conversations' }),
    PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 4008 }),
    /** Messages one user may send per minute, across conversations. Tests raise it. */
    MESSAGES_PER_MINUTE: Type.Integer({
      minimum: 1,
      default: CONVERSATION_LIMITS.messagesPerMinute,
    }),
  }),
])

export type ConversationsConfig = ReturnType<typeof readConfig>

/** The only place the conversations service reads its environment. */
export function readConfig(env: Record<string, string | undefined> = process.env) {
  return loadConfig(ConversationsConfigSchema, env)
}
