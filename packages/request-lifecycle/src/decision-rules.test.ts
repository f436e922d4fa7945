import { REQUEST_STATUSES, type RequestStatus } from '@marketplace/contracts/marketplace'
import { Messages } from '@marketplace/contracts/validation'
import { isDecisionStatus, refusalOf, type DecisionRules } from './decision-rules'
import { FINAL_DECISIONS, UNDOABLE_DECISIONS } from './request-decisions'

const everyStep = REQUEST_STATUSES.flatMap((from) =>
  REQUEST_STATUSES.map((to) => [from, to] as [RequestStatus, RequestStatus]),
)

describe('undoable decisions (requests on posts)', () => {
  it.each(everyStep)(
    'allows %s → %s: the owner decides, changes their mind and undoes',
    (from, to) => {
      expect(refusalOf(UNDOABLE_DECISIONS, from, to)).toBeNull()
    },
  )

  it('takes every status as a decision and nothing else', () => {
    for (const status of REQUEST_STATUSES)
      expect(isDecisionStatus(UNDOABLE_DECISIONS, status)).toBe(true)
    for (const value of [
      'maybe',
      'Accepted',
      'declined',
      '',
      null,
      undefined,
      1,
      { status: 'accepted' },
    ])
      expect(isDecisionStatus(UNDOABLE_DECISIONS, value)).toBe(false)
    expect(UNDOABLE_DECISIONS.unknownStatus).toEqual({
      message: 'Status must be accepted, rejected or pending',
      code: 'INVALID_STATUS',
    })
  })
})

describe('final decisions (requests to people)', () => {
  const allowed: Array<[RequestStatus, RequestStatus]> = [
    ['pending', 'accepted'],
    ['pending', 'rejected'],
  ]
  const refused = everyStep.filter(
    ([from, to]) => !allowed.some(([a, b]) => a === from && b === to),
  )

  it.each(allowed)('allows %s → %s: the worker answers a pending request', (from, to) => {
    expect(refusalOf(FINAL_DECISIONS, from, to)).toBeNull()
  })

  it.each(refused)('refuses %s → %s with 409 "already answered"', (from, to) => {
    expect(refusalOf(FINAL_DECISIONS, from, to)).toEqual({
      message: Messages.requests.alreadyDecided,
      code: 'ALREADY_DECIDED',
    })
  })

  it('lists exactly seven refused steps: nothing leaves a decision, and pending is no answer', () => {
    expect(refused).toEqual([
      ['pending', 'pending'],
      ['accepted', 'pending'],
      ['accepted', 'accepted'],
      ['accepted', 'rejected'],
      ['rejected', 'pending'],
      ['rejected', 'accepted'],
      ['rejected', 'rejected'],
    ])
  })

  it('takes accepted and rejected as a decision; pending and anything else answer 400', () => {
    expect(isDecisionStatus(FINAL_DECISIONS, 'accepted')).toBe(true)
    expect(isDecisionStatus(FINAL_DECISIONS, 'rejected')).toBe(true)
    for (const value of ['pending', 'maybe', 'declined', null, undefined])
      expect(isDecisionStatus(FINAL_DECISIONS, value)).toBe(false)
    expect(FINAL_DECISIONS.unknownStatus).toEqual({
      message: 'Status must be accepted or rejected',
      code: 'INVALID_STATUS',
    })
  })
})

describe('decision rules', () => {
  it('fails loudly when a table refuses a step it has no answer for', () => {
    const careless: DecisionRules = {
      next: { pending: ['accepted'], accepted: [], rejected: [] },
      unknownStatus: { message: 'no', code: 'INVALID_STATUS' },
      refusedStep: null,
    }
    expect(refusalOf(careless, 'pending', 'accepted')).toBeNull()
    expect(() => refusalOf(careless, 'accepted', 'pending')).toThrow(
      'decision rules refuse accepted → pending without a refusal',
    )
  })
})
