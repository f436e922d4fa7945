import { generateSecret, generateURI, verify } from 'otplib'
import QRCode from 'qrcode'

/** What authenticator apps show above the code. */
const ISSUER = 'Marketplace'

/**
 * RFC 6238 with the defaults every authenticator app understands (SHA-1, 6 digits, 30 s).
 * One step of clock drift is accepted either way (RFC 6238 §5.2 recommends at most one).
 */
const TOLERANCE_SECONDS = 30

export function newTotpSecret(): string {
  return generateSecret()
}

/**
 * The otpauth:// URI and its QR code as an SVG data URL, drawn on the server so the web
 * bundle carries no QR library.
 */
export async function enrolmentOf(secret: string, accountEmail: string) {
  const uri = generateURI({ issuer: ISSUER, label: accountEmail, secret })
  const svg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 })
  return { uri, qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` }
}

/** The time step the code belongs to, or null when it is not a current code of the secret. */
export async function matchTotp(secret: string, token: string): Promise<number | null> {
  const result = await verify({ secret, token, epochTolerance: TOLERANCE_SECONDS })
  return result.valid && 'timeStep' in result ? result.timeStep : null
}
