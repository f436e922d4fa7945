import type { ConsumerDefinition, TokenRevocations } from '@marketplace/service-kit'

/** Every event the favorites service reacts to, in one place. */
export function favoritesSubscriptions(deps: {
  /** The read models of what can be saved (@marketplace/read-models createCatalogs), with their groups. */
  catalogs: ConsumerDefinition[]
  tokenRevocations: TokenRevocations
}): ConsumerDefinition[] {
  return [
    ...deps.catalogs,
    // Its own group, as in every service: revocations must not wait behind a failing handler.
    { groupId: 'favorites-token-revocations', handlers: deps.tokenRevocations.handlers },
  ]
}
