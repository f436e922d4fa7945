import type { ProfileDocument } from '../profiles/profile-document'
import { toPersonView } from '../profiles/profile-views'
import { workerCategory, workerSearchWords } from '../profiles/worker-fields'
import { createPeopleFeed } from './people-feed'
import { publicProfile, workerRow } from './worker-row'

const AT = new Date(Date.UTC(2026, 10, 27))
let sequence = 0

function profile(
  worker: Partial<NonNullable<ProfileDocument['worker']>> = {},
  extra: Partial<ProfileDocument> & Record<string, unknown> = {},
): ProfileDocument {
  sequence += 1
  const names = { firstName: 'Ava', lastName: `Singh${sequence}` }
  const title = worker.title ?? 'Dog walker'
  const skills = worker.skills ?? ['Dogs', 'Cats']
  return {
    _id: sequence.toString(16).padStart(24, '0'),
    ...names,
    email: 'ava.private@example.com',
    phoneNumber: '(303) 555-0199',
    dateOfBirth: '1990-11-28',
    interest: 'Both',
    emailPreferences: true,
    isWorker: true,
    worker: {
      title,
      skills,
      availability: 'Weekends',
      paymentType: 'Venmo or cash',
      location: 'Denver CO',
      infos: 'Reliable.',
      contacts: [{ value: '720 555 0101', visibility: 'public' }],
      profilePicture: null,
      isOnline: true,
      category: workerCategory(title, skills),
      searchWords: workerSearchWords(names, { title, skills }),
      ...worker,
    },
    contactViewers: [],
    createdAt: new Date(Date.UTC(2026, 0, 1) + sequence * 1000),
    registeredAt: new Date(Date.UTC(2026, 0, 1) + sequence * 1000),
    ...extra,
  }
}

describe('the people feed row of a worker', () => {
  it('gives the card everyone sees exactly as the whole profile gives it, and holds nothing private', () => {
    const profiles = [
      profile(),
      profile({
        contacts: [
          { value: 'ava.hidden@example.com', visibility: 'hidden' },
          { value: 'https://t.me/ava', visibility: 'public' },
        ],
        profilePicture: 'userImages/x/pic.png',
        skills: [],
      }),
      profile(
        { infos: 'Odd \u0000 text, ünïcödé 🙂', contacts: [] },
        { ratingSum: 9, ratingCount: 2 },
      ),
      profile({ skills: ['With \u0000 inside', 'Second'] }),
    ]
    for (const whole of profiles) {
      const row = workerRow(whole)!
      expect(JSON.stringify(toPersonView(publicProfile(row), null, AT))).toBe(
        JSON.stringify(toPersonView(whole, null, AT)),
      )
      const held = JSON.stringify(row)
      expect(held).not.toContain('private@example.com')
      expect(held).not.toContain('555-0199')
      expect(held).not.toContain('hidden@example.com')
    }
    expect(workerRow(profile({ isOnline: false }))).toBeNull()
    expect(workerRow(profile({}, { takenDownAt: new Date() }))).toBeNull()
  })

  it('reads the profile of the worker and of their contact viewers, and only theirs', async () => {
    const feed = createPeopleFeed(() => AT)
    const hidden = profile(
      { contacts: [{ value: 'ava.hidden@example.com', visibility: 'hidden' }] },
      { contactViewers: ['owner1:request1'] },
    )
    const open = profile()
    feed.load([hidden, open])
    const read: string[] = []
    const readProfile = async (userId: string) => {
      read.push(userId)
      return [hidden, open].find((candidate) => candidate._id === userId) ?? null
    }
    const slots = feed.page({ filters: {}, page: 1, pageSize: 10, sort: 'desc' }).slots
    const contactsSeenBy = async (viewerId: string | null) =>
      (await feed.views(slots, viewerId, AT, readProfile)).map((view) => view.contacts)

    expect(await contactsSeenBy(null)).toEqual([
      [{ value: '720 555 0101', visibility: 'public' }],
      [],
    ])
    expect(await contactsSeenBy('stranger')).toEqual(await contactsSeenBy(null))
    expect(read).toEqual([])
    const hiddenContacts = [{ value: 'ava.hidden@example.com', visibility: 'hidden' }]
    expect((await contactsSeenBy('owner1'))[1]).toEqual(hiddenContacts)
    expect((await contactsSeenBy(hidden._id))[1]).toEqual(hiddenContacts)
    // The open worker's own card needs no read: it has nothing hidden.
    expect((await contactsSeenBy(open._id))[0]).toEqual([
      { value: '720 555 0101', visibility: 'public' },
    ])
    expect(read).toEqual([hidden._id, hidden._id])

    // The viewer list follows the profile's changes.
    feed.apply(hidden._id, { ...hidden, contactViewers: [] })
    expect((await contactsSeenBy('owner1'))[1]).toEqual([])
  })
})
