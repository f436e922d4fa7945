import { Topics } from '@marketplace/contracts/events'
import { newEvent } from '@marketplace/service-kit'
import { publishEvent, startServiceTestApp, waitFor } from '@marketplace/service-kit/testing'
import { buildPeopleApp } from '../app'
import { readConfig } from '../config'
import { PROFILES_COLLECTION } from '../profiles/profile-document'

// A new consumer group first replays the shared broker's history (events of every earlier
// test), so an event under test may take a while to be handled.
export const EVENT_WAIT_MS = 60_000

/** The people app as server.ts builds it, against the real servers (service-test-app.ts). */
export async function startPeopleTestApp(name: string, env: Record<string, string> = {}) {
  const service = await startServiceTestApp(name, (base) =>
    buildPeopleApp(readConfig({ ...base, ...env })),
  )

  /** A user as the auth service announces them (user.registered), once their profile exists. */
  async function registerUser(
    firstName: string,
    lastName: string,
    options: { dateOfBirth?: string; phoneNumber?: string } = {},
  ): Promise<string> {
    const userId = service.newUserId()
    await publishEvent(
      Topics.authUsers,
      newEvent('user.registered', {
        aggregateId: userId,
        actorId: userId,
        data: {
          userId,
          email: `${firstName}.${lastName}@example.com`.toLowerCase(),
          firstName,
          lastName,
          phoneNumber: options.phoneNumber ?? '(212) 555-0100',
          dateOfBirth: options.dateOfBirth ?? '1990-06-15',
          interest: 'Both',
          emailPreferences: false,
        },
      }),
    )
    await waitFor(
      async () =>
        (await service.db.collection(PROFILES_COLLECTION).findOne({ _id: userId as never })) !==
        null,
      { timeoutMs: EVENT_WAIT_MS, what: `${firstName}'s profile from user.registered` },
    )
    return userId
  }

  return { ...service, registerUser }
}

export type PeopleTestApp = Awaited<ReturnType<typeof startPeopleTestApp>>

/** A complete worker profile body; tests override what they check. */
export function workerProfileBody(overrides: Record<string, unknown> = {}) {
  return {
    title: 'House mover',
    skills: ['Lifting', 'Driving'],
    availability: 'Weekends',
    paymentType: 'Cash or Venmo',
    location: 'Denver CO',
    infos: 'Own van',
    contacts: [
      { value: 'mover@example.com', visibility: 'public' },
      { value: '(303) 555-0199', visibility: 'hidden' },
    ],
    ...overrides,
  }
}

/** A post as the jobs service announces it (post.created or post.updated). */
export function postEvent(
  type: 'post.created' | 'post.updated',
  post: { postId: string; ownerId: string; title: string; isOnline?: boolean },
) {
  const at = new Date().toISOString()
  return newEvent(type, {
    aggregateId: post.postId,
    actorId: post.ownerId,
    data: {
      postId: post.postId,
      ownerId: post.ownerId,
      title: post.title,
      location: null,
      jobStartEnd: '',
      salary: '',
      paymentType: [],
      contact: null,
      infos: '',
      displayLocation: false,
      displayContact: false,
      jobPicture: null,
      category: 'Moving',
      isOnline: post.isOnline ?? true,
      expirationDate: null,
      createdAt: at,
      updatedAt: at,
    },
  })
}
