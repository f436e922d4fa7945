// Believable job posts from a small vocabulary, deterministic (seeded), as the jobs service
// stores them: the feed benchmarks' data (posts-feed.mjs, feed-snapshot-load.mjs).
import { seededRandom } from './feed-bench-lib.mjs'

const TITLES = [
  'Help moving a sofa',
  'Move boxes to storage',
  'Deep clean my apartment',
  'Weekly house cleaning',
  'Fix a leaking faucet',
  'Assemble IKEA wardrobe',
  'Paint the living room',
  'Set up my new laptop',
  'Fix home wifi router',
  'Math tutoring for 8th grader',
  'Spanish lessons for beginners',
  'Walk my dog twice a day',
  'Cat sitter for the weekend',
  'Pick up groceries',
  'Deliver a parcel across town',
  'Bartender for a birthday party',
  'Photographer for a small wedding',
  'Mow the lawn',
  'Rake leaves and trim hedges',
  'Stand in line for tickets',
]
const INFOS = [
  'Third floor, no elevator. Bring gloves.',
  'Two hours at most, tools provided.',
  'Flexible on the time, weekends preferred.',
  'Quiet neighbourhood, parking available.',
  'Please be on time and friendly.',
  'Experience appreciated but not required.',
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
const PAYMENTS = ['Zelle', 'Cash App', 'Venmo', 'Cash', 'PayPal', 'Bank Transfer']
const CONTACTS = ['Email', 'Phone', 'WhatsApp', 'Telegram']

/**
 * `count` posts one minute apart, ending now; `newestFirst` yields them in feed order (what
 * a snapshot holds) instead of oldest first. `ObjectId` and `derivedFields` (the service's
 * post-input.js: category, search words) come from the jobs service's build.
 */
export function* generatePosts({ count, ObjectId, derivedFields, newestFirst = false }) {
  const next = seededRandom(42)
  const pick = (list) => list[Math.floor(next() * list.length)]
  const owners = Array.from({ length: 2000 }, () => new ObjectId().toHexString())
  const start = Date.now() - count * 60_000
  for (let n = 0; n < count; n += 1) {
    const i = newestFirst ? count - 1 - n : n
    const fields = { title: `${pick(TITLES)} #${i}`, infos: pick(INFOS), expirationDate: null }
    const at = new Date(start + i * 60_000)
    yield {
      _id: new ObjectId().toHexString(),
      userID: pick(owners),
      location: pick(LOCATIONS),
      jobStartEnd: 'This weekend',
      salary: `$${20 + Math.floor(next() * 80)}`,
      paymentType: [pick(PAYMENTS), pick(PAYMENTS)].filter((v, k, a) => a.indexOf(v) === k),
      contact: pick(CONTACTS),
      displayLocation: next() > 0.1,
      displayContact: next() > 0.2,
      jobPicture: null,
      isOnline: next() > 0.05,
      takenDown: false,
      createdAt: at,
      updatedAt: at,
      ...fields,
      ...derivedFields(fields),
    }
  }
}
