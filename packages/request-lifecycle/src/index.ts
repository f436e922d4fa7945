export {
  createRequestLifecycle,
  type LifecycleStore,
  type RequestLifecycle,
  type RequestLifecycleOptions,
} from './request-lifecycle'
export {
  createRequestStore,
  DuplicateRequestError,
  type Decision,
  type RequestOutboxTarget,
  type RequestStore,
} from './request-store'
export { requestCollectionIndexes, type RequestCollection } from './request-collection'
export {
  requestEvent,
  type ActorContext,
  type CallerContext,
  type RequestEventBuilder,
} from './request-event'
export { isDecisionStatus, refusalOf, type DecisionRules, type Refusal } from './decision-rules'
export { FINAL_DECISIONS, UNDOABLE_DECISIONS } from './request-decisions'
export type {
  NewRequest,
  RequestDocument,
  RequestParties,
  RequestRole,
  UserIdField,
} from './request-document'
export { isObjectIdHex } from './object-id'
