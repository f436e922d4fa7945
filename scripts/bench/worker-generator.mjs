// Believable workers from a small vocabulary, deterministic (seeded), as the people service
// stores them: the data of people-feed.mjs, yielded instead of written (feed-snapshot-load.mjs
// --workers builds its snapshot from them).
import { seededRandom } from './feed-bench-lib.mjs'

const FIRST = [
  'Ana',
  'Ben',
  'Chloe',
  'David',
  'Emma',
  'Felix',
  'Grace',
  'Hugo',
  'Iris',
  'Jonas',
  'Kira',
  'Liam',
  'Maya',
  'Noah',
  'Olivia',
  'Paul',
  'Rosa',
  'Sam',
  'Tara',
  'Victor',
]
const LAST = [
  'Adams',
  'Baker',
  'Clark',
  'Diaz',
  'Evans',
  'Garcia',
  'Hughes',
  'Ito',
  'Jensen',
  'Khan',
  'Lopez',
  'Moreau',
  'Nguyen',
  'Okafor',
  'Patel',
  'Quinn',
  'Rossi',
  'Silva',
  'Tanaka',
  'Walsh',
]
const TITLES = [
  ['House mover', ['Lifting', 'Packing', 'Driving']],
  ['Cleaner', ['Deep cleaning', 'Laundry']],
  ['Handyman', ['Plumbing', 'Painting', 'Furniture assembly']],
  ['IT helper', ['Wifi', 'Laptops', 'Printers']],
  ['Math tutor', ['Algebra', 'Geometry']],
  ['Dog walker', ['Dogs', 'Cats']],
  ['Courier', ['Bike', 'Parcels']],
  ['Event staff', ['Bartending', 'Photography']],
  ['Gardener', ['Lawn', 'Hedges']],
  ['Assistant', ['Errands', 'Queueing']],
]
const LOCATIONS = [
  'Remote',
  'New York NY',
  'Los Angeles CA',
  'Chicago IL',
  'San Francisco CA',
  'Boston MA',
  'Seattle WA',
  'Austin TX',
  'Atlanta GA',
  'Miami FL',
  'Denver CO',
]
const PAYMENTS = ['Cash', 'Zelle', 'Venmo or cash', 'PayPal', 'Bank transfer', 'Cash App']

/**
 * `count` worker profiles one minute apart, ending now; `newestFirst` yields them in feed order.
 * `ObjectId` and `workerCategory`/`workerSearchWords` (worker-fields.js) come from the people
 * service's build.
 */
export function* generateWorkers({
  count,
  ObjectId,
  workerCategory,
  workerSearchWords,
  newestFirst = false,
}) {
  const next = seededRandom(7)
  const pick = (list) => list[Math.floor(next() * list.length)]
  const start = Date.now() - count * 60_000
  for (let n = 0; n < count; n += 1) {
    const i = newestFirst ? count - 1 - n : n
    const names = {
      firstName: pick(FIRST),
      lastName: `${pick(LAST)}${i % 7 === 0 ? '-' + pick(LAST) : ''}`,
    }
    const [title, skills] = pick(TITLES)
    const at = new Date(start + i * 60_000)
    const worker = {
      title,
      skills,
      availability: 'Weekends',
      paymentType: pick(PAYMENTS),
      location: pick(LOCATIONS),
      infos: 'Reliable and on time.',
      contacts: [
        { value: `worker${i}@example.com`, visibility: next() > 0.5 ? 'public' : 'hidden' },
      ],
      profilePicture: null,
      isOnline: next() > 0.05,
    }
    yield {
      _id: new ObjectId().toHexString(),
      ...names,
      email: `worker${i}@example.com`,
      phoneNumber: '(212) 555-0100',
      dateOfBirth: `${1960 + Math.floor(next() * 40)}-0${1 + Math.floor(next() * 9)}-15`,
      interest: 'Both',
      emailPreferences: false,
      isWorker: true,
      worker: {
        ...worker,
        category: workerCategory(title, skills),
        searchWords: workerSearchWords(names, worker),
      },
      createdAt: at,
      updatedAt: at,
      registeredAt: at,
    }
  }
}
