import type { ConsumerDefinition, TokenRevocations } from '@marketplace/service-kit'

/** Every event the reports service reacts to, in one place. */
export function reportsSubscriptions(deps: {
  /** The read models of what can be reported (@marketplace/read-models createCatalogs), with their groups. */
  catalogs: ConsumerDefinition[]
  tokenRevocations: TokenRevocations
}): ConsumerDefinition[] {
  return [
    ...deps.catalogs,
    // Its own group, as in every service: revocations must not wait behind a failing handler.
    { groupId: 'reports-token-revocations', handlers: deps.tokenRevocations.handlers },
  ]
}
