import type { ConsumerDefinition, TokenRevocations } from '@marketplace/service-kit'

/**
 * The domain events the analytics service reacts to, in one place: only revoked tokens. The
 * product analytics stream is not a domain event topic; its consumer is analytics-consumer.ts.
 */
export function analyticsSubscriptions(deps: {
  tokenRevocations: TokenRevocations
}): ConsumerDefinition[] {
  return [{ groupId: 'analytics-token-revocations', handlers: deps.tokenRevocations.handlers }]
}
