import { REQUEST_STATUSES, type RequestStatus } from '@marketplace/contracts/marketplace'

/** What the service answers when a step is refused: the product's copy and a stable code. */
export interface Refusal {
  message: string
  code: string
}

/** Which decisions a request's receiver may take, from each status. */
export interface DecisionRules {
  /** For each status, the statuses a decision may move the request to. */
  next: Readonly<Record<RequestStatus, readonly RequestStatus[]>>
  /** 400: a value that no step of `next` reaches, whatever the request's status. */
  unknownStatus: Refusal
  /** 409: a step `next` does not list from the request's status; null when it lists them all. */
  refusedStep: Refusal | null
}

/** A status some step reaches: anything else is refused before the request is even read. */
export function isDecisionStatus(rules: DecisionRules, value: unknown): value is RequestStatus {
  return REQUEST_STATUSES.some((from) => rules.next[from].some((to) => to === value))
}

/** What refuses the step `from → to`, or null when the rules allow it. */
export function refusalOf(
  rules: DecisionRules,
  from: RequestStatus,
  to: RequestStatus,
): Refusal | null {
  if (rules.next[from].includes(to)) return null
  // A table that refuses a step must say how; the shipped tables are checked in the tests.
  if (!rules.refusedStep) throw new Error(`decision rules refuse ${from} → ${to} without a refusal`)
  return rules.refusedStep
}
