import {
  isValidPassword,
  passwordStrength,
  passwordStrengthLabel,
  passwordsMatch,
} from './password'

describe('isValidPassword', () => {
  it('accepts an 8-character password with every class', () => {
    expect(isValidPassword('Abcdef1!')).toBe(true)
  })

  it('refuses a 7-character password', () => {
    expect(isValidPassword('Abcde1!')).toBe(false)
  })

  it('accepts a 24-character password and refuses a 25-character one', () => {
    expect(isValidPassword('Abcdef1!' + 'a'.repeat(16))).toBe(true)
    expect(isValidPassword('Abcdef1!' + 'a'.repeat(17))).toBe(false)
  })

  it('requires a lowercase letter', () => {
    expect(isValidPassword('ABCDEF1!')).toBe(false)
  })

  it('requires an uppercase letter', () => {
    expect(isValidPassword('abcdef1!')).toBe(false)
  })

  it('requires a digit', () => {
    expect(isValidPassword('Abcdefg!')).toBe(false)
  })

  it.each(['!', '@', '#', '$', '%'])('accepts %p as the required symbol', (symbol) => {
    expect(isValidPassword(`Abcdef1${symbol}`)).toBe(true)
  })

  it.each(['^', '&', '*', '-', '_', ' ', '?'])('refuses %p as the only symbol', (symbol) => {
    expect(isValidPassword(`Abcdef1${symbol}`)).toBe(false)
  })

  it('allows other symbols besides a required one', () => {
    expect(isValidPassword('Ab cd^&1!')).toBe(true)
  })

  it('counts accented letters as letters of their case', () => {
    expect(isValidPassword('Éclair1!')).toBe(true)
  })
})

describe('passwordsMatch', () => {
  it('is true only for identical texts', () => {
    expect(passwordsMatch('Abcdef1!', 'Abcdef1!')).toBe(true)
    expect(passwordsMatch('Abcdef1!', 'abcdef1!')).toBe(false)
    expect(passwordsMatch('Abcdef1!', 'Abcdef1! ')).toBe(false)
  })
})

describe('passwordStrength', () => {
  it.each([
    ['', 0, ''],
    ['a', 1, 'Weak'],
    ['abcdefgh', 2, 'Weak'],
    ['abcdefgH', 3, 'Medium'],
    ['abcdefH1', 4, 'Medium'],
    ['abcdeH1!', 5, 'Strong'],
    ['A', 2, 'Weak'],
    ['1', 2, 'Weak'],
    ['!', 2, 'Weak'],
    ['A1!', 4, 'Medium'],
    ['abcdefg', 1, 'Weak'],
  ] as const)('scores %p as %i (%p)', (password, score, label) => {
    expect(passwordStrength(password)).toEqual({ score, label })
  })

  it('gives a point for any symbol, not only ! @ # $ %', () => {
    expect(passwordStrength('abc^').score).toBe(2)
    expect(passwordStrength('abc ').score).toBe(2)
  })

  it('gives no point for a lowercase letter beyond being non-empty', () => {
    expect(passwordStrength('ab').score).toBe(1)
  })
})

describe('passwordStrengthLabel', () => {
  it.each([
    [0, ''],
    [1, 'Weak'],
    [2, 'Weak'],
    [3, 'Medium'],
    [4, 'Medium'],
    [5, 'Strong'],
  ] as const)('labels %i as %p', (score, label) => {
    expect(passwordStrengthLabel(score)).toBe(label)
  })
})
