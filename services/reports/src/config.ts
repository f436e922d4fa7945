import { Type } from '@sinclair/typebox'
import {
  BaseConfigSchema,
  KafkaConfigSchema,
  MongoConfigSchema,
  loadConfig,
} from '@marketplace/service-kit'
import { REPORT_REVIEW_HOURS } from '@marketplace/contracts/marketplace'

const ReportsConfigSchema = Type.Composite([
  BaseConfigSchema,
  MongoConfigSchema,
  KafkaConfigSchema,
  Type.Object({
    SERVICE_NAME: Type.String({ default: 'reports' }),
    PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 4005 }),
    /** The terms promise a review within this many hours. */
    REPORT_REVIEW_HOURS: Type.Integer({ minimum: 1, default: REPORT_REVIEW_HOURS }),
    /** Reports per page of the moderation queue. */
    QUEUE_PAGE_SIZE: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
  }),
])

export type ReportsConfig = ReturnType<typeof readConfig>

/** The only place the reports service reads its environment. */
export function readConfig(env: Record<string, string | undefined> = process.env) {
  return loadConfig(ReportsConfigSchema, env)
}
