import { queryTerms } from '@marketplace/contracts/marketplace'
import { feedOrder } from '@marketplace/read-models/feed'
import { isListed, type ProfileDocument } from '../profiles/profile-document'
import { toPersonView } from '../profiles/profile-views'
import {
  contactOptionsOf,
  paymentOptionsIn,
  workerCategory,
  workerSearchWords,
} from '../profiles/worker-fields'
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

  it('answers pages, filters and searches as a scan of the profiles would, through many changes', async () => {
    let seed = 23
    const random = () => {
      seed = (seed + 0x6d2b79f5) | 0
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
      return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32
    }
    const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!
    const feed = createPeopleFeed(() => AT)
    const stored = new Map<string, ProfileDocument>()
    for (let step = 0; step < 2000; step += 1) {
      const id = Math.floor(random() * 200)
        .toString(16)
        .padStart(24, '0')
      if (random() < 0.15) {
        feed.apply(id, null)
        stored.delete(id)
        continue
      }
      const title = pick(['House mover', 'Cleaner', 'Dog walker', 'Math tutor'])
      const skills = pick([['Lifting'], ['Deep cleaning', 'Laundry'], []])
      const item = profile(
        {
          title,
          skills,
          paymentType: pick(['Cash', 'Venmo or cash', 'Zelle', 'Cash App']),
          location: pick(['Denver CO', 'Austin TX', '']),
          contacts: [
            {
              value: pick(['ava@example.com', '720 555 0101', 'https://t.me/ava']),
              visibility: 'public',
            },
            { value: 'hidden@example.com', visibility: pick(['public', 'hidden']) },
          ],
          isOnline: random() < 0.9,
          category: workerCategory(title, skills),
          searchWords: workerSearchWords(
            { firstName: 'Ava', lastName: 'Singh' },
            { title, skills },
          ),
        },
        {
          _id: id,
          firstName: 'Ava',
          lastName: 'Singh',
          createdAt: new Date(Date.UTC(2026, 0, 1) + Math.floor(random() * 50) * 1000),
        },
      )
      feed.apply(id, item)
      stored.set(id, item)
    }
    const listed = [...stored.values()].filter(isListed).sort(feedOrder)
    const cardsOf = async (slots: readonly number[]) =>
      (await feed.views(slots, null, AT, async () => null)).map((view) => view._id)
    const scan = (keep: (item: ProfileDocument) => boolean) =>
      listed.filter(keep).map((item) => item._id)

    expect(feed.size).toBe(listed.length)
    expect(
      await cardsOf(feed.page({ filters: {}, page: 2, pageSize: 12, sort: 'desc' }).slots),
    ).toEqual(scan(() => true).slice(12, 24))
    const filters = { location: 'Denver CO', payment: 'Cash', contact: 'Email' }
    const filtered = feed.page({ filters, page: 1, pageSize: 50, sort: 'desc' })
    const expected = scan(
      ({ worker }) =>
        worker!.location === 'Denver CO' &&
        paymentOptionsIn(worker!.paymentType).includes('Cash') &&
        contactOptionsOf(worker!.contacts).includes('Email'),
    )
    expect(filtered.total).toBe(expected.length)
    expect(await cardsOf(filtered.slots)).toEqual(expected.slice(0, 50))
    for (const search of ['clean', 'ava walk', 'laund', 'zzz']) {
      const terms = queryTerms(search)
      expect(await cardsOf(feed.search(terms, 30))).toEqual(
        scan(({ worker }) =>
          terms.every((term) => worker!.searchWords.some((word) => word.startsWith(term))),
        ).slice(0, 30),
      )
    }
  })
})
