import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  hkdfSync,
  randomBytes,
  randomInt,
} from 'node:crypto'

/**
 * The secrets of two-step sign-in at rest. An authenticator secret must be read back to
 * check codes, so it is encrypted (AES-256-GCM, key derived from SESSION_SECRET with HKDF);
 * a recovery code only needs to be recognised, so it is stored as a keyed hash like the
 * mailed codes.
 */
export function createTwoStepSecrets(sessionSecret: string) {
  const key = Buffer.from(
    hkdfSync('sha256', sessionSecret, 'marketplace-auth', 'totp-secret-encryption', 32),
  )
  return {
    encrypt(plain: string): string {
      const iv = randomBytes(12)
      const cipher = createCipheriv('aes-256-gcm', key, iv)
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
      return [iv, cipher.getAuthTag(), body].map((part) => part.toString('base64url')).join('.')
    },
    decrypt(sealed: string): string {
      const [iv, tag, body] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'))
      const decipher = createDecipheriv('aes-256-gcm', key, iv!)
      decipher.setAuthTag(tag!)
      return Buffer.concat([decipher.update(body!), decipher.final()]).toString('utf8')
    },
    hashRecoveryCode(userId: string, code: string): string {
      return createHmac('sha256', sessionSecret)
        .update(`recovery:${userId}:${normalizeRecoveryCode(code)}`)
        .digest('base64url')
    },
  }
}
export type TwoStepSecrets = ReturnType<typeof createTwoStepSecrets>

export const RECOVERY_CODE_COUNT = 10
/** No 0/O or 1/I/L: a code copied from paper is read back without guessing. */
const RECOVERY_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789'
export const RECOVERY_CODE_PATTERN = /^[A-Z2-9]{5}-?[A-Z2-9]{5}$/

/** Ten characters from a 31-letter alphabet (about 50 bits), shown as XXXXX-XXXXX. */
export function newRecoveryCode(): string {
  let code = ''
  for (let i = 0; i < 10; i += 1) code += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]
  return `${code.slice(0, 5)}-${code.slice(5)}`
}

/** Case, spaces and the dash do not matter when a recovery code is typed back. */
export function normalizeRecoveryCode(code: string): string {
  return code.toUpperCase().replace(/[\s-]/g, '')
}
