import { randomBytes } from 'node:crypto'
import { Topics } from '@marketplace/contracts/events'
import { newEvent } from '@marketplace/service-kit'
import { publishEvent } from '@marketplace/service-kit/testing'

const hexId = () => randomBytes(12).toString('hex')

/** post.created or post.updated as jobs publishes it, naming `jobPicture`. */
export async function publishPost(
  type: 'post.created' | 'post.updated',
  ownerId: string,
  jobPicture: string | null,
  postId = hexId(),
): Promise<string> {
  const at = new Date().toISOString()
  await publishEvent(
    Topics.jobsPosts,
    newEvent(type, {
      aggregateId: postId,
      actorId: ownerId,
      data: {
        postId,
        ownerId,
        title: 'Carry a sofa upstairs',
        location: null,
        jobStartEnd: 'Saturday morning',
        salary: '40',
        paymentType: ['Cash'],
        contact: null,
        infos: 'Third floor, no lift',
        displayLocation: false,
        displayContact: false,
        jobPicture,
        category: 'Moving',
        isOnline: true,
        expirationDate: null,
        createdAt: at,
        updatedAt: at,
      },
    }),
  )
  return postId
}

/** worker-profile.updated as people publishes it, naming `profilePicture`. */
export async function publishWorkerProfile(userId: string, profilePicture: string | null) {
  await publishEvent(
    Topics.peopleUsers,
    newEvent('worker-profile.updated', {
      aggregateId: userId,
      actorId: userId,
      data: { userId, isWorker: true, title: 'Handyman', profilePicture, isOnline: true },
    }),
  )
}
