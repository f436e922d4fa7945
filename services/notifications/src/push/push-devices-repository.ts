import { createHash } from 'node:crypto'
import { MongoServerError, type Db } from 'mongodb'

/** A user's devices, one document per user (`_id` the user id): a push reads one document. */
export const PUSH_DEVICES_COLLECTION = 'push_devices'
/** Who owns each endpoint (`_id` the endpoint's key): a browser receives one user's pushes. */
export const PUSH_ENDPOINTS_COLLECTION = 'push_endpoints'

/** One browser's push subscription (the Push API's PushSubscription, RFC 8291 keys). */
export interface PushDevice {
  endpoint: string
  /** The browser's P-256 public key, base64url (65 bytes, uncompressed point). */
  p256dh: string
  /** The browser's authentication secret, base64url (16 bytes). */
  auth: string
  subscribedAt: Date
}

interface PushDevicesDocument {
  _id: string
  /** By the endpoint's key: added and removed with $set and $unset, no array operators. */
  devices: Record<string, PushDevice>
  /** Bumped by every change: a change is written only over the revision it read. */
  revision: number
}

interface PushEndpointDocument {
  _id: string
  userId: string
  updatedAt: Date
}

/**
 * The endpoint URL's key: fixed length, safe as a field name (no dots or dollars), and the
 * same for the same endpoint on every instance.
 */
export const endpointKey = (endpoint: string) =>
  createHash('sha256').update(endpoint).digest('base64url')

/** Every read and write is by `_id`: no other index is needed, on MongoDB or FerretDB. */
export function createPushDevicesRepository(db: Db) {
  const users = db.collection<PushDevicesDocument>(PUSH_DEVICES_COLLECTION)
  const endpoints = db.collection<PushEndpointDocument>(PUSH_ENDPOINTS_COLLECTION)

  async function removeFromUser(userId: string, key: string): Promise<boolean> {
    const result = await users.updateOne(
      { _id: userId, [`devices.${key}`]: { $exists: true } },
      { $unset: { [`devices.${key}`]: '' }, $inc: { revision: 1 } },
    )
    return result.modifiedCount === 1
  }

  /**
   * The endpoint becomes the user's. A browser signed in as someone else before keeps one
   * subscription per site, so that user loses the device: their pushes must not show on a
   * browser someone else uses now.
   */
  async function claimEndpoint(userId: string, key: string): Promise<void> {
    const update = { $set: { userId, updatedAt: new Date() } }
    let before: PushEndpointDocument | null
    try {
      before = await endpoints.findOneAndUpdate({ _id: key }, update, {
        upsert: true,
        returnDocument: 'before',
      })
    } catch (error) {
      // Two subscriptions of one endpoint at once: the other upsert created it.
      if (!(error instanceof MongoServerError && error.code === 11000)) throw error
      before = await endpoints.findOneAndUpdate({ _id: key }, update, { returnDocument: 'before' })
    }
    if (before && before.userId !== userId) await removeFromUser(before.userId, key)
  }

  /**
   * Adds the device to the user's, or renews it (same endpoint, new keys). Past `maxDevices`
   * the device subscribed longest ago goes: a user who turned the channel on in an eleventh
   * browser most likely left the first one behind, and has no way to turn it off there.
   * Answers how many devices the user has now.
   */
  async function add(
    userId: string,
    device: PushDevice,
    maxDevices: number,
  ): Promise<{ devices: number }> {
    const key = endpointKey(device.endpoint)
    await claimEndpoint(userId, key)
    // Written over the revision read; another change in between makes it read again.
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const current = await users.findOne({ _id: userId })
      if (!current) {
        try {
          await users.insertOne({ _id: userId, devices: { [key]: device }, revision: 1 })
          return { devices: 1 }
        } catch (error) {
          if (error instanceof MongoServerError && error.code === 11000) continue
          throw error
        }
      }
      const others = Object.entries(current.devices ?? {}).filter(([other]) => other !== key)
      const evicted = others
        .sort(([, a], [, b]) => a.subscribedAt.getTime() - b.subscribedAt.getTime())
        .slice(0, Math.max(0, others.length + 1 - maxDevices))
        .map(([other]) => other)
      const result = await users.updateOne(
        { _id: userId, revision: current.revision },
        {
          $set: { [`devices.${key}`]: device },
          $inc: { revision: 1 },
          ...(evicted.length > 0
            ? { $unset: Object.fromEntries(evicted.map((other) => [`devices.${other}`, ''])) }
            : {}),
        },
      )
      if (result.modifiedCount === 1) {
        if (evicted.length > 0) await endpoints.deleteMany({ _id: { $in: evicted }, userId })
        return { devices: others.length - evicted.length + 1 }
      }
    }
    throw new Error(`push devices of ${userId} kept changing; subscription not saved`)
  }

  return {
    add,

    async devicesOf(userId: string): Promise<PushDevice[]> {
      const document = await users.findOne({ _id: userId })
      return Object.values(document?.devices ?? {})
    },

    /** Removes one of the user's devices (theirs only); false when they had no such device. */
    async remove(userId: string, endpoint: string): Promise<boolean> {
      const key = endpointKey(endpoint)
      const removed = await removeFromUser(userId, key)
      await endpoints.deleteOne({ _id: key, userId })
      return removed
    },

    /** The purge: the user's devices and their claims on the endpoints. */
    async deleteOfUser(userId: string): Promise<void> {
      const document = await users.findOne({ _id: userId })
      const keys = Object.keys(document?.devices ?? {})
      if (keys.length > 0) await endpoints.deleteMany({ _id: { $in: keys }, userId })
      await users.deleteOne({ _id: userId })
    },
  }
}

export type PushDevicesRepository = ReturnType<typeof createPushDevicesRepository>
