import { validateReport } from './report'

describe('validateReport', () => {
  it.each(['scam', 'inappropriate', 'other'])('accepts the reason %p without details', (type) => {
    expect(validateReport({ type })).toBeNull()
  })

  it.each([undefined, null, '', 'spam', 'Scam/Fraud'])('refuses the reason %p', (type) => {
    expect(validateReport({ type, description: 'details' })).toBe(
      'Please select a reason for reporting',
    )
  })

  it('accepts 1000 characters of details and refuses 1001', () => {
    expect(validateReport({ type: 'other', description: 'x'.repeat(1000) })).toBeNull()
    expect(validateReport({ type: 'other', description: 'x'.repeat(1001) })).toBe(
      'Description must be at most 1000 characters',
    )
  })

  it('accepts empty or null details', () => {
    expect(validateReport({ type: 'scam', description: '' })).toBeNull()
    expect(validateReport({ type: 'scam', description: null })).toBeNull()
  })
})
