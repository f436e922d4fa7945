// The compose stack's access-token key pair (Ed25519), made once. Run by the one-shot
// `jwt-keys` service in docker-compose.yml with node:24-bookworm-slim; plain Node, no
// dependencies, so it also runs on a host: `PRIVATE_KEY_DIR=/tmp/k PUBLIC_KEY_DIR=/tmp/k node make-jwt-keys.js`.
//
// Files (base64 of PEM, the format JWT_PRIVATE_KEY / JWT_PUBLIC_KEY take):
//   $PRIVATE_KEY_DIR/jwt-private.pem.b64   PKCS#8, mode 0400, mounted into auth only
//   $PUBLIC_KEY_DIR/jwt-public.pem.b64     SPKI, mode 0444, mounted into every service
//
// An existing private key is kept (so tokens survive restarts) and the public key is always
// derived from it again, so the two can never disagree. To use a key of your own, put its
// PEM or base64 PEM in the private file and run this again; to rotate, delete the volumes
// (docs/compose-and-kubernetes.md has both commands).
'use strict'

const { createPrivateKey, createPublicKey, generateKeyPairSync } = require('node:crypto')
const fs = require('node:fs')
const path = require('node:path')

const privateDir = process.env.PRIVATE_KEY_DIR || '/keys/private'
const publicDir = process.env.PUBLIC_KEY_DIR || '/keys/public'
// "uid:gid" that must own the files (the services run as the image's `node` user).
const owner = process.env.KEY_OWNER || ''

const privateFile = path.join(privateDir, 'jwt-private.pem.b64')
const publicFile = path.join(publicDir, 'jwt-public.pem.b64')

function readPrivateKey() {
  if (!fs.existsSync(privateFile)) return null
  const text = fs.readFileSync(privateFile, 'utf8').trim()
  if (text === '') return null
  const pem = text.includes('-----BEGIN') ? text : Buffer.from(text, 'base64').toString('utf8')
  const key = createPrivateKey(pem)
  if (key.asymmetricKeyType !== 'ed25519') {
    throw new Error(
      `${privateFile} holds a ${key.asymmetricKeyType} key; access tokens are signed with Ed25519`,
    )
  }
  // Always stored as base64 of the PKCS#8 PEM, the format JWT_PRIVATE_KEY documents.
  const normalized = Buffer.from(key.export({ type: 'pkcs8', format: 'pem' }).toString()).toString(
    'base64',
  )
  if (normalized !== text) writeAtomically(privateFile, normalized, 0o400)
  return key
}

/** Mode, and the owner when running as root (the services must read, not write). */
function protect(file, mode) {
  fs.chmodSync(file, mode)
  if (owner && process.getuid && process.getuid() === 0) {
    const [uid, gid] = owner.split(':').map(Number)
    fs.chownSync(file, uid, gid)
  }
}

/** Writes through a temporary file and a rename, so a reader never sees half a key. */
function writeAtomically(file, content, mode) {
  const temporary = `${file}.tmp-${process.pid}`
  fs.writeFileSync(temporary, content, { mode })
  protect(temporary, mode)
  fs.renameSync(temporary, file)
}

fs.mkdirSync(privateDir, { recursive: true })
fs.mkdirSync(publicDir, { recursive: true })

let privateKey = readPrivateKey()
if (privateKey) {
  protect(privateFile, 0o400)
  console.log(`jwt-keys: keeping the existing private key (${privateFile})`)
} else {
  privateKey = generateKeyPairSync('ed25519').privateKey
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()
  writeAtomically(privateFile, Buffer.from(pem).toString('base64'), 0o400)
  console.log(`jwt-keys: made a new Ed25519 private key (${privateFile})`)
}

const publicPem = createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }).toString()
writeAtomically(publicFile, Buffer.from(publicPem).toString('base64'), 0o444)
console.log(`jwt-keys: wrote the matching public key (${publicFile})`)

// The auth service's HMAC secret (XSRF tokens, stored one-time codes), made once beside the
// private key and mounted into auth only. Kept across restarts like the key.
const sessionSecretFile = path.join(privateDir, 'session-secret')
if (
  !fs.existsSync(sessionSecretFile) ||
  fs.readFileSync(sessionSecretFile, 'utf8').trim().length < 32
) {
  writeAtomically(sessionSecretFile, require('node:crypto').randomBytes(32).toString('hex'), 0o400)
  console.log(`jwt-keys: made a new session secret (${sessionSecretFile})`)
}

// The notifications service's HMAC key for saved searches' one-click unsubscribe links, made
// once in a directory of its own (mounted into notifications only) and kept across restarts:
// a new key would break the links of every mail already sent.
const notificationsDir = process.env.NOTIFICATIONS_SECRET_DIR
if (notificationsDir) {
  fs.mkdirSync(notificationsDir, { recursive: true })
  const linkSecretFile = path.join(notificationsDir, 'saved-search-link-secret')
  if (
    !fs.existsSync(linkSecretFile) ||
    fs.readFileSync(linkSecretFile, 'utf8').trim().length < 32
  ) {
    writeAtomically(linkSecretFile, require('node:crypto').randomBytes(32).toString('hex'), 0o400)
    console.log(`jwt-keys: made a new saved-search link secret (${linkSecretFile})`)
  }
}
