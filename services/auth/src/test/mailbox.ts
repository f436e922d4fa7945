import { infraEnv, waitFor } from '@marketplace/service-kit/testing'

interface MailSummary {
  ID: string
  Subject: string
  Created: string
}

/** Mails to one address, newest first, through the Mailpit API of the local SMTP server. */
export async function mailsTo(address: string): Promise<MailSummary[]> {
  const url = `${infraEnv().mailApiUrl}/api/v1/search?query=${encodeURIComponent(`to:${address}`)}`
  const response = await fetch(url)
  if (!response.ok) throw new Error(`mail API answered ${response.status}`)
  const body = (await response.json()) as { messages: MailSummary[] }
  return body.messages
}

export async function mailText(
  id: string,
): Promise<{ Subject: string; Text: string; HTML: string }> {
  const response = await fetch(`${infraEnv().mailApiUrl}/api/v1/message/${id}`)
  if (!response.ok) throw new Error(`mail API answered ${response.status}`)
  return (await response.json()) as { Subject: string; Text: string; HTML: string }
}

/**
 * Waits for the `count`-th mail whose subject contains `subject` to reach `address`, and
 * returns the 6-digit code in its text.
 */
export async function waitForCode(
  address: string,
  subject: string,
  count = 1,
  timeoutMs = 30_000,
): Promise<string> {
  const mail = await waitFor(
    async () => {
      const matching = (await mailsTo(address)).filter((m) => m.Subject.includes(subject))
      return matching.length >= count ? matching[0] : undefined
    },
    { timeoutMs, what: `mail "${subject}" #${count} to ${address}` },
  )
  const { Text } = await mailText(mail.ID)
  const code = Text.match(/\b(\d{6})\b/)?.[1]
  if (!code) throw new Error(`no 6-digit code in the mail to ${address}`)
  return code
}
