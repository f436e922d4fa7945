/**
 * The copy of two-step sign-in. It goes beyond the specs, so it is kept with
 * the feature rather than in `packages/contracts` `Messages`; the web shows these sentences
 * from the `message` of the answers.
 */
export const TwoStepMessages = {
  passwordRequired: 'Enter your password to change two-step sign-in.',
  wrongPassword: 'Current password is incorrect',
  challengeRequired: 'Start by logging in with your email and password.',
  challengeEnded: 'This sign-in has expired. Please log in again.',
  attemptsExhausted: 'Too many incorrect attempts. Please log in again.',
  methodNotEnabled: 'This two-step method is not turned on for your account.',
  codeFormat: 'The code is the 6 digits from your email or authenticator app',
  recoveryCodeFormat: 'A recovery code looks like ABCDE-23456',
  codeWrong: (attemptsLeft: number) =>
    attemptsLeft > 0
      ? `Incorrect code. ${attemptsLeft} ${attemptsLeft === 1 ? 'attempt' : 'attempts'} left.`
      : 'Incorrect code. Please log in again.',
  setupCodeWrong:
    'Incorrect code. Check that the time on your phone is right, then enter the current code.',
  emailCodeSent: 'We sent a 6-digit code to your email.',
  emailEnabled: 'Two-step sign-in by email is on.',
  emailDisabled: 'Two-step sign-in by email is off.',
  enrolmentMissing: 'Start the authenticator setup again: scan a new QR code.',
  authenticatorEnabled: 'Authenticator app turned on. Keep your recovery codes somewhere safe.',
  authenticatorDisabled: 'Authenticator app turned off.',
  authenticatorAlreadyOn: 'An authenticator app is already set up. Turn it off first.',
  secondStepLocked: (minutes: number) =>
    `Too many incorrect codes. Authenticator codes are refused for ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}: use a recovery code, or a code sent by email if that is on.`,
} as const
