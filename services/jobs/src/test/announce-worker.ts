import { Topics } from '@marketplace/contracts/events'
import { newEvent } from '@marketplace/service-kit'
import { publishEvent, waitFor } from '@marketplace/service-kit/testing'
import { USERS_COLLECTION } from '../users/user-directory'
import type { JobsTestApp } from './jobs-test-app'

/**
 * A user as the auth and people services announce them: registered, then with a worker
 * profile; resolves once the jobs service knows them as a worker (only workers may request).
 */
export async function announceWorker(
  jobs: JobsTestApp,
  firstName: string,
  timeoutMs = 60_000,
): Promise<string> {
  const userId = jobs.newUserId()
  await publishEvent(
    Topics.authUsers,
    newEvent('user.registered', {
      aggregateId: userId,
      actorId: userId,
      data: {
        userId,
        email: `${firstName.toLowerCase()}@example.com`,
        firstName,
        lastName: 'Worker',
        phoneNumber: '5551234567',
        dateOfBirth: '1990-01-01',
        interest: 'Both',
        emailPreferences: false,
      },
    }),
  )
  await publishEvent(
    Topics.peopleUsers,
    newEvent('worker-profile.updated', {
      aggregateId: userId,
      actorId: userId,
      data: {
        userId,
        isWorker: true,
        title: 'Helper',
        skills: ['Lifting'],
        profilePicture: null,
      },
    }),
  )
  await waitFor(
    async () =>
      (await jobs.db
        .collection(USERS_COLLECTION)
        .findOne({ _id: userId as never, isWorker: true, firstName })) !== null,
    { timeoutMs, what: `${firstName}'s worker profile to reach jobs` },
  )
  return userId
}
