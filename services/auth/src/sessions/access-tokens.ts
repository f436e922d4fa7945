import { createSigner } from 'fast-jwt'
import { decodeKey } from '@marketplace/service-kit'

export interface AccessTokenSignerOptions {
  privateKey: string
  issuer: string
  audience: string
  ttlSeconds: number
}

/**
 * Signs access tokens (EdDSA, the algorithm every service pins). Only the auth service holds
 * the private key; the others verify with the public one through service-kit's authPlugin.
 * `sid` names the refresh-token family the token was issued from.
 */
export function createAccessTokenSigner(options: AccessTokenSignerOptions) {
  const sign = createSigner({
    key: decodeKey(options.privateKey),
    algorithm: 'EdDSA',
    iss: options.issuer,
    aud: options.audience,
    expiresIn: options.ttlSeconds * 1000,
  })
  return {
    sign: (claims: { userId: string; roles: string[]; sessionId: string }): string =>
      sign({ sub: claims.userId, roles: claims.roles, sid: claims.sessionId }),
  }
}
export type AccessTokenSigner = ReturnType<typeof createAccessTokenSigner>
