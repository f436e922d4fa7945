// The HTTP contract of two-step sign-in. Bodies follow the other auth routes:
// fields declared and described but left unconstrained (docs/identity.md, "Bodies are not
// JSON-schema validated"), so a missing or mistyped field gets the feature's sentence.
import { Type, type Static, type TProperties } from '@sinclair/typebox'

function looseField(description: string, examples?: unknown[]) {
  return Type.Optional(Type.Unknown({ description, ...(examples ? { examples } : {}) }))
}

function body<P extends TProperties>(title: string, properties: P) {
  return Type.Union([Type.Object(properties, { additionalProperties: false, title }), Type.Null()])
}

const password = looseField(
  'Text: the current password, asked again for every change. Wrong: 400 "Current password is incorrect".',
  ['Analytic1843!'],
)
const challengeId = looseField(
  'Text: the challengeId of the 202 answer of direct-login. Unknown or expired: 400 CHALLENGE_ENDED.',
)

export const SetEmailTwoStepBodySchema = body('SetEmailTwoStepBody', {
  enabled: looseField('true to turn e-mail two-step sign-in on, false to turn it off.', [true]),
  password,
})
export const PasswordOnlyBodySchema = body('TwoStepPasswordBody', { password })
export const ConfirmAuthenticatorBodySchema = body('ConfirmAuthenticatorBody', {
  code: looseField('Text: the 6 digits the authenticator app shows now.', ['123456']),
})
export const SendSignInCodeBodySchema = body('SendSignInCodeBody', { challengeId })
export const CompleteSignInBodySchema = body('CompleteSignInBody', {
  challengeId,
  method: looseField('authenticator, email or recovery.', ['email']),
  code: looseField(
    'Text: 6 digits (authenticator, email) or a recovery code XXXXX-XXXXX. Each try, right or wrong, counts against the 5 of the challenge.',
    ['123456'],
  ),
  persist: looseField('Ignored: "Keep me signed in" was chosen with the password.'),
})

const methods = Type.Array(Type.Union([Type.Literal('authenticator'), Type.Literal('email')]), {
  description: 'The methods turned on, the default first; a recovery code is always accepted',
})

/** direct-login's answer when a second step is due: no session, no cookie yet. */
export const TwoStepChallengeAnswerSchema = Type.Object(
  {
    twoStepRequired: Type.Literal(true),
    challengeId: Type.String({ description: 'Single-purpose, 10 minutes, 5 tries' }),
    methods,
    expiresAt: Type.String({ format: 'date-time' }),
    emailCodeSent: Type.Boolean({ description: 'A sign-in code is on its way by e-mail' }),
  },
  {
    additionalProperties: false,
    title: 'TwoStepChallenge',
    description: 'Password accepted; enter the second step to sign in',
  },
)
export type TwoStepChallengeAnswer = Static<typeof TwoStepChallengeAnswerSchema>

export const TwoStepStatusSchema = Type.Object(
  {
    email: Type.Boolean({ description: 'E-mail two-step sign-in is on' }),
    authenticator: Type.Boolean({ description: 'An authenticator app is set up' }),
    recoveryCodesLeft: Type.Integer({ minimum: 0, description: 'Unused recovery codes' }),
  },
  { additionalProperties: false, title: 'TwoStepStatus' },
)

export const TwoStepChangeAnswerSchema = Type.Object(
  { message: Type.String(), status: TwoStepStatusSchema },
  { additionalProperties: false, title: 'TwoStepChange' },
)

export const AuthenticatorSetupAnswerSchema = Type.Object(
  {
    secret: Type.String({ description: 'Base32 secret, for typing into the app by hand' }),
    otpauthUri: Type.String({ description: 'The otpauth://totp/ URI the QR code holds' }),
    qrCode: Type.String({ description: 'The QR code as an SVG data URL' }),
  },
  {
    additionalProperties: false,
    title: 'AuthenticatorSetup',
    description: 'Shown once; the secret is never answered again',
  },
)

export const AuthenticatorConfirmAnswerSchema = Type.Object(
  {
    message: Type.String(),
    recoveryCodes: Type.Array(Type.String(), {
      description: 'Ten single-use recovery codes, shown this once',
    }),
    status: TwoStepStatusSchema,
  },
  { additionalProperties: false, title: 'AuthenticatorConfirm' },
)
