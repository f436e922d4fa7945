import { Messages } from './messages'

describe('Messages', () => {
  it("carries the product's signup copy verbatim", () => {
    expect(Messages.signup).toMatchObject({
      requiredFields: 'Please fill out all required fields correctly.',
      invalidFirstName: 'Invalid First Name',
      invalidLastName: 'Invalid Last Name',
      invalidEmail: 'Invalid Email Address',
      invalidPhone: 'Invalid Phone Number',
      invalidPassword: 'Invalid Password',
      passwordsDoNotMatch: 'Passwords do not match',
      underage: 'You must be at least 18 years old',
      selectInterest: 'Please select your interest',
      agreeToTerms: 'You must agree to the Terms of Service',
    })
  })

  it("carries the product's field hints verbatim", () => {
    expect(Messages.hints).toEqual({
      name: 'Must begin with a letter. Letters and hyphens allowed.',
      email: 'Please enter a valid email address.',
      phone: 'Please enter a valid phone number.',
      dateOfBirth: 'You must be at least 18 years old to register.',
      confirmPassword: 'Must match the first password input field.',
    })
  })

  it('tells the product\'s two "no server response" spellings apart', () => {
    expect(Messages.signup.noServerResponse).toBe('No Server Response')
    expect(Messages.login.noServerResponse).toBe('No server response')
  })

  it('fills the templated texts', () => {
    expect(Messages.requests.decideFailed('accept')).toBe(
      'Failed to accept request. Please try again.',
    )
    expect(Messages.tooLong('Title', 100)).toBe('Title must be at most 100 characters')
  })

  it('holds no empty text', () => {
    const texts: string[] = []
    const collect = (value: unknown): void => {
      if (typeof value === 'string') texts.push(value)
      else if (value && typeof value === 'object') Object.values(value).forEach(collect)
    }
    collect(Messages)
    expect(texts.length).toBeGreaterThan(50)
    expect(texts.every((text) => text.trim() === text && text !== '')).toBe(true)
  })
})
