import { MongoServerError, type Db } from 'mongodb'
import webpush from 'web-push'

export const VAPID_KEYS_COLLECTION = 'vapid_keys'
const STORED_PAIR_ID = 'default'

export interface VapidKeys {
  /** base64url, what the browser's pushManager.subscribe takes as applicationServerKey. */
  publicKey: string
  privateKey: string
}

/**
 * The VAPID pair (RFC 8292) this service signs its pushes with. From the configuration when
 * given (production). Otherwise (local dev, tests) a pair generated once and kept in the
 * service's database: every instance signs with the same pair, and subscriptions made against
 * it keep working across restarts (a browser's subscription is bound to the public key).
 */
export async function resolveVapidKeys(
  db: Db,
  config: { VAPID_PUBLIC_KEY?: string; VAPID_PRIVATE_KEY?: string },
): Promise<VapidKeys> {
  if (config.VAPID_PUBLIC_KEY && config.VAPID_PRIVATE_KEY) {
    return { publicKey: config.VAPID_PUBLIC_KEY, privateKey: config.VAPID_PRIVATE_KEY }
  }
  const keys = db.collection<VapidKeys & { _id: string; createdAt: Date }>(VAPID_KEYS_COLLECTION)
  const stored = await keys.findOne({ _id: STORED_PAIR_ID })
  if (stored) return { publicKey: stored.publicKey, privateKey: stored.privateKey }
  const generated = webpush.generateVAPIDKeys()
  try {
    await keys.insertOne({ _id: STORED_PAIR_ID, ...generated, createdAt: new Date() })
    return generated
  } catch (error) {
    // Another instance starting at the same moment stored its pair first: use that one.
    if (!(error instanceof MongoServerError && error.code === 11000)) throw error
    const winner = await keys.findOne({ _id: STORED_PAIR_ID })
    if (!winner) throw error
    return { publicKey: winner.publicKey, privateKey: winner.privateKey }
  }
}
