import { FormatRegistry } from '@sinclair/typebox'

// TypeBox's Value.Check knows no string formats until they are registered; without this,
// every envelope (occurredAt: date-time) would fail validation outside Fastify's Ajv.
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/

if (!FormatRegistry.Has('date-time')) {
  FormatRegistry.Set(
    'date-time',
    (value) => ISO_DATE_TIME.test(value) && !Number.isNaN(Date.parse(value)),
  )
}
if (!FormatRegistry.Has('date')) {
  FormatRegistry.Set(
    'date',
    (value) => ISO_DATE.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`)),
  )
}
