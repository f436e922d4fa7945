import { ObjectId, type Db } from 'mongodb'
import { Topics, type EventData } from '@marketplace/contracts/events'
import { newEvent } from '@marketplace/service-kit'
import { publishEvent, waitFor } from '@marketplace/service-kit/testing'
import { PEOPLE_CATALOG_COLLECTION, POST_CATALOG_COLLECTION } from '../catalogs/catalogs'

type WorkerFields = Partial<Omit<EventData<'worker-profile.updated'>, 'userId'>>
type PostFields = Partial<Omit<EventData<'post.created'>, 'postId' | 'ownerId' | 'title'>>

/**
 * For tests of services that keep the catalogs of people and posts (favorites, reports):
 * announces people and posts exactly as auth, people and jobs do (their events, on the real
 * broker), each call waiting until the service's catalog holds the change.
 */
export function createCatalogAnnouncer(db: Db, options: { timeoutMs: number }) {
  const people = db.collection(PEOPLE_CATALOG_COLLECTION)
  const posts = db.collection(POST_CATALOG_COLLECTION)
  const newUserId = () => new ObjectId().toHexString()

  async function until(check: () => Promise<boolean>, what: string) {
    await waitFor(check, { timeoutMs: options.timeoutMs, what })
  }

  /** user.registered, as auth announces a sign-up. */
  async function registerUser(firstName: string, lastName: string): Promise<string> {
    const userId = newUserId()
    await publishEvent(
      Topics.authUsers,
      newEvent('user.registered', {
        aggregateId: userId,
        actorId: userId,
        data: {
          userId,
          email: `${firstName}.${lastName}.${userId}@example.com`.toLowerCase(),
          firstName,
          lastName,
          phoneNumber: '(212) 555-0100',
          dateOfBirth: '1990-06-15',
          interest: 'Both',
          emailPreferences: false,
        },
      }),
    )
    await until(
      async () => (await people.findOne({ _id: userId as never })) !== null,
      `${firstName} in the people catalog`,
    )
    return userId
  }

  /** user.profile-updated, as people announces an account edit. */
  async function renameUser(userId: string, firstName: string, lastName: string): Promise<void> {
    await publishEvent(
      Topics.peopleUsers,
      newEvent('user.profile-updated', {
        aggregateId: userId,
        actorId: userId,
        data: { userId, firstName, lastName, phoneNumber: '(212) 555-0100' },
      }),
    )
    await until(
      async () => (await people.findOne({ _id: userId as never }))?.firstName === firstName,
      `${firstName}'s new name in the people catalog`,
    )
  }

  /** worker-profile.updated, as people announces a saved worker profile or a take-down. */
  async function saveWorkerProfile(userId: string, fields: WorkerFields = {}): Promise<void> {
    const data: EventData<'worker-profile.updated'> = {
      userId,
      isWorker: true,
      title: 'House mover',
      skills: ['Lifting', 'Driving'],
      availability: 'Weekends',
      paymentType: 'Cash',
      location: 'Denver CO',
      infos: 'Own van',
      publicContacts: ['mover@example.com'],
      profilePicture: null,
      isOnline: true,
      category: 'Moving',
      takenDown: false,
      ...fields,
    }
    await publishEvent(
      Topics.peopleUsers,
      newEvent('worker-profile.updated', { aggregateId: userId, actorId: userId, data }),
    )
    await until(async () => {
      const person = await people.findOne({ _id: userId as never })
      return (
        person?.isWorker === data.isWorker &&
        person.takenDown === (data.takenDown === true) &&
        (person.worker?.title ?? undefined) === (data.isWorker ? data.title : undefined)
      )
    }, `worker profile of ${userId}`)
  }

  /** post.created (or post.updated with `postId`), as jobs announces it. */
  async function announcePost(
    ownerId: string,
    title: string,
    fields: PostFields & { postId?: string } = {},
  ): Promise<string> {
    const { postId: givenId, ...rest } = fields
    const postId = givenId ?? new ObjectId().toHexString()
    const at = new Date().toISOString()
    const data: EventData<'post.created'> = {
      postId,
      ownerId,
      title,
      location: null,
      jobStartEnd: 'Saturday',
      salary: '$100',
      paymentType: ['Cash'],
      contact: null,
      infos: 'Two flights of stairs',
      displayLocation: false,
      displayContact: false,
      jobPicture: null,
      category: 'Moving',
      isOnline: true,
      takenDown: false,
      expirationDate: null,
      createdAt: at,
      ...rest,
      updatedAt: at,
    }
    const type = givenId ? 'post.updated' : 'post.created'
    await publishEvent(
      Topics.jobsPosts,
      newEvent(type, { aggregateId: postId, actorId: ownerId, data }),
    )
    await until(async () => {
      const entry = await posts.findOne({ _id: postId as never })
      return entry?.post?.updatedAt === at
    }, `post "${title}" in the post catalog`)
    return postId
  }

  /** post.deleted, as jobs announces a deletion; waits until the catalog dropped it. */
  async function deletePost(postId: string, ownerId: string, title: string): Promise<void> {
    await publishEvent(
      Topics.jobsPosts,
      newEvent('post.deleted', {
        aggregateId: postId,
        actorId: ownerId,
        data: { postId, ownerId, title },
      }),
    )
    await until(
      async () => (await posts.findOne({ _id: postId as never })) === null,
      `post ${postId} gone from the catalog`,
    )
  }

  /** user.deleted, as people announces the end of the grace period. */
  async function purgeUser(userId: string): Promise<void> {
    await publishEvent(
      Topics.peopleUsers,
      newEvent('user.deleted', { aggregateId: userId, actorId: null, data: { userId } }),
    )
    await until(
      async () => (await people.findOne({ _id: userId as never })) === null,
      `user ${userId} gone from the people catalog`,
    )
  }

  return { registerUser, renameUser, saveWorkerProfile, announcePost, deletePost, purgeUser }
}
