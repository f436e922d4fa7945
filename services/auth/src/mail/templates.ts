// The one-time code mails, as pure functions: the mailer sends what these return, and the
// tests read the same text back from the SMTP sink.

import { appLink, escapeHtml } from '@marketplace/service-kit/mail'
import { CODE_TTL_MS, SIGN_IN_CODE_TTL_MS } from '../codes/one-time-codes'

/** How long a mailed code works: the code store's own lifetime, so the mail never lies. */
export const CODE_VALIDITY_MINUTES = CODE_TTL_MS / 60_000
export const SIGN_IN_CODE_VALIDITY_MINUTES = SIGN_IN_CODE_TTL_MS / 60_000

export const VERIFICATION_SUBJECT = 'Your Marketplace verification code'
export const PASSWORD_RESET_SUBJECT = 'Your Marketplace password reset code'
export const SIGN_IN_SUBJECT = 'Your Marketplace sign-in code'
export const SECOND_STEP_LOCKED_SUBJECT = 'Someone entered your password and failed the second step'

export interface CodeMailInput {
  firstName: string
  code: string
  /** APP_PUBLIC_URL: where the browser reaches the app. */
  appPublicUrl: string
}

export interface MailContent {
  subject: string
  text: string
  html: string
}

interface CodeMail {
  subject: string
  firstName: string
  code: string
  intro: string
  url: string
  linkLabel: string
  /** Closing lines, e.g. what to do with a mail the reader did not ask for. */
  footer: string[]
  validityMinutes?: number
}

function renderCodeMail(mail: CodeMail): MailContent {
  const validity = `The code is valid for ${mail.validityMinutes ?? CODE_VALIDITY_MINUTES} minutes and can be used once.`
  // The code comes first among the numbers of the text: people and tests look for it there.
  const text = [
    `Hi ${mail.firstName},`,
    '',
    mail.intro,
    '',
    `    ${mail.code}`,
    '',
    validity,
    '',
    `${mail.linkLabel}: ${mail.url}`,
    ...(mail.footer.length ? ['', ...mail.footer] : []),
    '',
    'The Marketplace team',
    '',
  ].join('\n')

  const paragraph = (content: string) =>
    `<p style="margin:0 0 16px;font-size:16px;line-height:24px;color:#1f2933">${content}</p>`
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${escapeHtml(mail.subject)}</title></head>
<body style="margin:0;padding:24px;background:#f5f7fa;font-family:Arial,Helvetica,sans-serif">
<div style="max-width:480px;margin:0 auto;padding:32px;background:#ffffff;border-radius:8px">
${paragraph(`Hi ${escapeHtml(mail.firstName)},`)}
${paragraph(escapeHtml(mail.intro))}
<p style="margin:0 0 16px;font-family:'Courier New',Courier,monospace;font-size:32px;font-weight:bold;letter-spacing:8px;text-align:center;color:#111827">${escapeHtml(mail.code)}</p>
${paragraph(escapeHtml(validity))}
${paragraph(`<a href="${escapeHtml(mail.url)}" style="color:#2563eb">${escapeHtml(mail.linkLabel)}</a>`)}
${mail.footer.map((line) => paragraph(escapeHtml(line))).join('\n')}
${paragraph('The Marketplace team')}
</div>
</body>
</html>
`
  return { subject: mail.subject, text, html }
}

export function verificationMail(input: CodeMailInput): MailContent {
  return renderCodeMail({
    subject: VERIFICATION_SUBJECT,
    firstName: input.firstName,
    code: input.code,
    intro: 'Use this code to verify your e-mail address:',
    url: appLink(input.appPublicUrl, '/verify'),
    linkLabel: 'Enter it on the verification page',
    footer: [],
  })
}

export function passwordResetMail(input: CodeMailInput): MailContent {
  return renderCodeMail({
    subject: PASSWORD_RESET_SUBJECT,
    firstName: input.firstName,
    code: input.code,
    intro: 'Use this code to reset your password:',
    url: appLink(input.appPublicUrl, '/forgot-password'),
    linkLabel: 'Enter it on the password reset page',
    footer: [
      'If you did not ask for a password reset, you can ignore this mail: your password stays unchanged.',
    ],
  })
}

export function signInMail(input: CodeMailInput): MailContent {
  return renderCodeMail({
    subject: SIGN_IN_SUBJECT,
    firstName: input.firstName,
    code: input.code,
    intro: 'Use this code to finish signing in:',
    url: appLink(input.appPublicUrl, '/login'),
    linkLabel: 'Enter it on the sign-in page',
    validityMinutes: SIGN_IN_CODE_VALIDITY_MINUTES,
    footer: [
      'If you are not signing in right now, someone knows your password: change it in Settings, Account.',
    ],
  })
}

/**
 * To the owner when the second step is locked: the password is known to someone else. No
 * code, so the plain text and HTML are written here rather than by renderCodeMail.
 */
export function secondStepLockedMail(input: {
  firstName: string
  appPublicUrl: string
  lockedUntil: Date
}): MailContent {
  const until = input.lockedUntil.toISOString().replace('T', ' ').slice(0, 16)
  const lines = [
    'Someone entered your password and then failed the second step of signing in several times in a row.',
    `Authenticator codes are refused until ${until} UTC. You can still sign in with a recovery code, or with a code sent by email if that is on.`,
    'If this was not you, someone knows your password: change it now in Settings, Account.',
  ]
  const url = appLink(input.appPublicUrl, '/settings-account')
  const text = [
    `Hi ${input.firstName},`,
    '',
    ...lines.flatMap((line) => [line, '']),
    `Change your password: ${url}`,
    '',
    'The Marketplace team',
    '',
  ].join('\n')
  const paragraph = (content: string) =>
    `<p style="margin:0 0 16px;font-size:16px;line-height:24px;color:#1f2933">${content}</p>`
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${escapeHtml(SECOND_STEP_LOCKED_SUBJECT)}</title></head>
<body style="margin:0;padding:24px;background:#f5f7fa;font-family:Arial,Helvetica,sans-serif">
<div style="max-width:480px;margin:0 auto;padding:32px;background:#ffffff;border-radius:8px">
${paragraph(`Hi ${escapeHtml(input.firstName)},`)}
${lines.map((line) => paragraph(escapeHtml(line))).join('\n')}
${paragraph(`<a href="${escapeHtml(url)}" style="color:#2563eb">Change your password</a>`)}
${paragraph('The Marketplace team')}
</div>
</body>
</html>
`
  return { subject: SECOND_STEP_LOCKED_SUBJECT, text, html }
}
