import { REQUEST_STATUSES } from '@marketplace/contracts/marketplace'
import { Messages } from '@marketplace/contracts/validation'
import type { DecisionRules } from './decision-rules'

/**
 * Requests on posts: the post's owner accepts or rejects, and undoes back to
 * pending. Every status may follow every other: the service has always taken any of the
 * three, so an owner's change of mind never fails.
 */
export const UNDOABLE_DECISIONS: DecisionRules = {
  next: { pending: REQUEST_STATUSES, accepted: REQUEST_STATUSES, rejected: REQUEST_STATUSES },
  unknownStatus: { message: Messages.requests.invalidStatus, code: 'INVALID_STATUS' },
  refusedStep: null,
}

/**
 * Requests to people: the requested worker accepts or declines a pending request
 * once; a decided request can then only be deleted.
 */
export const FINAL_DECISIONS: DecisionRules = {
  next: { pending: ['accepted', 'rejected'], accepted: [], rejected: [] },
  unknownStatus: { message: Messages.requests.decisionStatus, code: 'INVALID_STATUS' },
  refusedStep: { message: Messages.requests.alreadyDecided, code: 'ALREADY_DECIDED' },
}
