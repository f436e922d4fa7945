// Test helpers shared by every service's tests (imported as @marketplace/service-kit/testing).
export { infraEnv, testMongoUrl, type InfraEnv } from './infra-env'
export { waitFor } from './wait-for'
export { recordPublishedEvents } from './published-events'
export { testKeyPair, signTestToken } from './keys'
export { startEventProbe, publishEvent } from './event-probe'
export { startServiceTestApp, type HttpAnswer, type TestableApp } from './service-test-app'
export { consumerGroupsNamed, consumerLag, waitForConsumersCaughtUp } from './consumer-lag'
export { recordQueryShapes, TEST_QUERY } from './query-shapes'
export {
  documentationProblems,
  type OpenApiDocument,
  type OpenApiOperation,
  type PublicRoute,
} from './openapi-routes'
