import { canSendSupportMessage } from './support-message'

describe('canSendSupportMessage', () => {
  it('sends a message with text', () => {
    expect(canSendSupportMessage('Hello, I need help')).toBe(true)
  })

  it('does not send an empty or whitespace-only message', () => {
    expect(canSendSupportMessage('')).toBe(false)
    expect(canSendSupportMessage('  \n ')).toBe(false)
    expect(canSendSupportMessage(null)).toBe(false)
    expect(canSendSupportMessage(undefined)).toBe(false)
  })

  it('sends 5000 characters and not 5001', () => {
    expect(canSendSupportMessage('x'.repeat(5000))).toBe(true)
    expect(canSendSupportMessage('x'.repeat(5001))).toBe(false)
  })
})
