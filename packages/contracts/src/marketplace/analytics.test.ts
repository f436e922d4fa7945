import { ANALYTICS_EVENT_NAMES, ANALYTICS_LIMITS, PROFILE_COMPLETION_FIELDS } from './analytics'

describe('analytics contract', () => {
  it('counts six worker-profile fields for completion', () => {
    expect(PROFILE_COMPLETION_FIELDS).toHaveLength(6)
    expect(new Set(PROFILE_COMPLETION_FIELDS).size).toBe(6)
  })

  it('names the events the product asks for', () => {
    expect(ANALYTICS_EVENT_NAMES).toEqual(
      expect.arrayContaining([
        'page_view',
        'client_error',
        'help_viewed',
        'support_ticket_created',
        'support_ticket_failed',
      ]),
    )
  })

  it('accepts a browser UUID as a session id and refuses what could smuggle text', () => {
    const pattern = new RegExp(ANALYTICS_LIMITS.sessionIdPattern)
    expect(pattern.test('3b241101-e2bb-4255-8caf-4136c566a962')).toBe(true)
    expect(pattern.test('short')).toBe(false)
    expect(pattern.test('ava.turner@demo.marketplace.local')).toBe(false)
    expect(pattern.test('x'.repeat(65))).toBe(false)
  })
})
