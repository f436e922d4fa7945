import { BadRequestError } from '@marketplace/service-kit'

/** Where subscriptions may point (config PUSH_SERVICE_HOSTS, PUSH_ALLOW_LOOPBACK_HTTP). */
export interface PushEndpointRules {
  /** Host names, or `.suffix`es matching any subdomain. */
  serviceHosts: string[]
  allowLoopbackHttp: boolean
}

const INVALID = 'INVALID_PUSH_SUBSCRIPTION'
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]'])
/** RFC 8291 §3.1: an uncompressed P-256 point; §3.2: a 16-byte authentication secret. */
const P256DH_BYTES = 65
const AUTH_BYTES = 16
const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/

export function pushEndpointRules(config: {
  PUSH_SERVICE_HOSTS: string
  PUSH_ALLOW_LOOPBACK_HTTP: boolean
}): PushEndpointRules {
  return {
    serviceHosts: config.PUSH_SERVICE_HOSTS.split(',')
      .map((host) => host.trim().toLowerCase())
      .filter(Boolean),
    allowLoopbackHttp: config.PUSH_ALLOW_LOOPBACK_HTTP,
  }
}

/**
 * The endpoint a subscription names, refused unless it is an https URL of a known push
 * service: this service sends requests to it, so a client must not make it call anywhere
 * else (an internal address, another site).
 */
export function readPushEndpoint(value: string, rules: PushEndpointRules): string {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new BadRequestError('The push subscription endpoint must be a URL', INVALID)
  }
  if (url.username || url.password) {
    throw new BadRequestError('The push subscription endpoint must not carry credentials', INVALID)
  }
  const host = url.hostname.toLowerCase()
  if (url.protocol === 'http:' && rules.allowLoopbackHttp && LOOPBACK_HOSTS.has(host)) {
    return url.href
  }
  if (url.protocol !== 'https:') {
    throw new BadRequestError('The push subscription endpoint must be an https URL', INVALID)
  }
  const known = rules.serviceHosts.some((allowed) =>
    allowed.startsWith('.') ? host.endsWith(allowed) : host === allowed,
  )
  if (!known) {
    throw new BadRequestError(
      `The push subscription endpoint must belong to a browser push service, not ${host}`,
      INVALID,
    )
  }
  return url.href
}

/** A base64url key of the exact length RFC 8291 gives it. */
export function readPushKey(value: string, name: 'p256dh' | 'auth'): string {
  const bytes = BASE64URL.test(value) ? Buffer.from(value, 'base64url') : null
  const expected = name === 'p256dh' ? P256DH_BYTES : AUTH_BYTES
  const valid =
    bytes !== null && bytes.length === expected && (name === 'auth' || bytes[0] === 0x04)
  if (!valid) {
    throw new BadRequestError(
      name === 'p256dh'
        ? 'keys.p256dh must be an uncompressed P-256 public key (65 bytes, base64url)'
        : 'keys.auth must be a 16-byte authentication secret (base64url)',
      INVALID,
    )
  }
  return value.replace(/=+$/, '')
}
