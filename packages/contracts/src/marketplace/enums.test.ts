import { Value } from '@sinclair/typebox/value'
import { INTERESTS, InterestSchema, isInterest } from './interests'
import { isReportReason, REPORT_REASON_LABELS, REPORT_REASONS, ReportReasonSchema } from './reports'
import {
  isRequestStatus,
  REQUEST_STATUS_LABELS,
  REQUEST_STATUSES,
  RequestStatusSchema,
} from './requests'
import { isRoleCode, ROLE_CODES, RoleCodeSchema, ROLES } from './roles'
import {
  CONTACT_VISIBILITIES,
  ContactVisibilitySchema,
  DEFAULT_CONTACT_VISIBILITY,
  isContactVisibility,
} from './workers'

describe('role codes', () => {
  it('are User 2000, Admin 2001, Editor 2002, as strings', () => {
    expect(ROLES).toEqual({ User: '2000', Admin: '2001', Editor: '2002' })
    expect(ROLE_CODES).toEqual(['2000', '2001', '2002'])
  })

  it('have a schema that takes the string codes only', () => {
    expect(Value.Check(RoleCodeSchema, '2000')).toBe(true)
    expect(Value.Check(RoleCodeSchema, 2000)).toBe(false)
    expect(Value.Check(RoleCodeSchema, '1999')).toBe(false)
    expect(isRoleCode('2002')).toBe(true)
    expect(isRoleCode('2003')).toBe(false)
  })
})

describe('report reasons', () => {
  it('are scam/fraud, inappropriate/offensive content and other', () => {
    expect(REPORT_REASONS).toEqual(['scam', 'inappropriate', 'other'])
    expect(REPORT_REASON_LABELS).toEqual({
      scam: 'Scam/Fraud',
      inappropriate: 'Inappropriate/Offensive Content',
      other: 'Other',
    })
  })

  it('have a schema and a guard', () => {
    expect(Value.Check(ReportReasonSchema, 'scam')).toBe(true)
    expect(Value.Check(ReportReasonSchema, 'spam')).toBe(false)
    expect(isReportReason('other')).toBe(true)
    expect(isReportReason('')).toBe(false)
  })
})

describe('interests', () => {
  it('are Posts, People and Both', () => {
    expect(INTERESTS).toEqual(['Posts', 'People', 'Both'])
    expect(Value.Check(InterestSchema, 'Both')).toBe(true)
    expect(Value.Check(InterestSchema, 'both')).toBe(false)
    expect(isInterest('People')).toBe(true)
    expect(isInterest(null)).toBe(false)
  })
})

describe('request statuses', () => {
  it('are pending, accepted and rejected, shown as Declined', () => {
    expect(REQUEST_STATUSES).toEqual(['pending', 'accepted', 'rejected'])
    expect(REQUEST_STATUS_LABELS.rejected).toBe('Declined')
    expect(Value.Check(RequestStatusSchema, 'accepted')).toBe(true)
    expect(Value.Check(RequestStatusSchema, 'declined')).toBe(false)
    expect(isRequestStatus('pending')).toBe(true)
    expect(isRequestStatus('Pending')).toBe(false)
  })
})

describe('worker contact visibility', () => {
  it('is public or hidden, hidden by default', () => {
    expect(CONTACT_VISIBILITIES).toEqual(['public', 'hidden'])
    expect(Value.Check(ContactVisibilitySchema, 'hidden')).toBe(true)
    expect(Value.Check(ContactVisibilitySchema, 'private')).toBe(false)
    expect(isContactVisibility('public')).toBe(true)
    expect(DEFAULT_CONTACT_VISIBILITY).toBe('hidden')
  })
})
