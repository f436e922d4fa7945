import { createPrivateKey, generateKeyPairSync, sign } from 'node:crypto'

/** A fresh Ed25519 key pair (PEM) for tests that sign their own access tokens. */
export function testKeyPair(): { publicKey: string; privateKey: string } {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519')
  return {
    publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  }
}

const b64url = (value: object | Buffer) =>
  (Buffer.isBuffer(value) ? value : Buffer.from(JSON.stringify(value))).toString('base64url')

/**
 * Signs an EdDSA JWT with node:crypto, independent of the library under test, so a test
 * can also forge what an attacker would send (another algorithm, a changed payload).
 */
export function signTestToken(
  privateKeyPem: string,
  claims: Record<string, unknown>,
  header: Record<string, unknown> = { alg: 'EdDSA', typ: 'JWT' },
): string {
  const signingInput = `${b64url(header)}.${b64url(claims)}`
  const signature = sign(null, Buffer.from(signingInput), createPrivateKey(privateKeyPem))
  return `${signingInput}.${b64url(signature)}`
}
