// The demo marketplace: deterministic people and posts, so the seed can run again and
// create only what is missing. Titles and infos are short local jobs of every category
// the jobs service derives (docs/posts.md), plus some that fit none.

export const DEMO_PASSWORD = 'Demo1234!'

const FIRST = ['Ava', 'Liam', 'Maya', 'Noah', 'Zoe', 'Ethan', 'Lucia', 'Omar', 'Priya', 'Diego', 'Hana', 'Felix', 'Grace', 'Ivan', 'Nora', 'Tariq', 'Elena', 'Marcus', 'Yuki', 'Sofia', 'Kwame', 'Chloe', 'Mateo', 'Leila', 'Samuel', 'Amara', 'Jonas', 'Mei', 'Rafael', 'Ines']
const LAST = ['Turner', 'Nguyen', 'Patel', 'Garcia', 'Kim', 'Okafor', 'Rossi', 'Haddad', 'Sharma', 'Lopez', 'Sato', 'Becker', 'Walsh', 'Petrov', 'Lindqvist', 'Aziz', 'Moreau', 'Brooks', 'Tanaka', 'Ferreira', 'Mensah', 'Dubois', 'Silva', 'Karimi', 'Cohen', 'Adeyemi', 'Weber', 'Chen', 'Costa', 'Alves']

export const DEMO_USERS = FIRST.map((first, i) => ({
  firstname: first,
  lastname: LAST[i],
  email: `${first.toLowerCase()}.${LAST[i].toLowerCase()}@demo.marketplace.local`,
  phoneNumber: `555${String(1000000 + i * 7919).slice(-7)}`,
  dateOfBirth: `${1970 + (i % 30)}-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 27) + 1).padStart(2, '0')}`,
}))

/** [title, infos, colour from, colour to] per kind of job; a post picks one and varies it. */
export const JOBS = [
  ['Help moving a sofa to the 3rd floor', 'No elevator, the sofa is heavy. Two people needed for about an hour.', 'Moving'],
  ['Load a moving truck on Saturday', 'About 40 boxes and a few pieces of furniture. Truck is rented.', 'Moving'],
  ['Pack up a studio apartment', 'Boxes and tape provided, need careful packing of dishes.', 'Moving'],
  ['Deep clean before move-out inspection', 'Kitchen, bathroom and floors. Supplies provided.', 'Cleaning'],
  ['Weekly house cleaning, 3 hours', 'Two-bedroom apartment, vacuum, mop and dusting. Every Friday.', 'Cleaning'],
  ['Clean windows of a small shop', 'Eight large windows inside and out, ladder available.', 'Cleaning'],
  ['Fix a leaking kitchen faucet', 'Dripping for a week. I have a replacement cartridge.', 'Handyman'],
  ['Assemble an IKEA wardrobe', 'PAX wardrobe with sliding doors, all parts are here.', 'Handyman'],
  ['Paint a bedroom wall', 'One accent wall, paint and rollers already bought.', 'Handyman'],
  ['Mount a TV on drywall', '55 inch TV, mount included. Need someone with a stud finder.', 'Handyman'],
  ['Set up my new laptop and printer', 'Transfer files from the old laptop and get the printer on wifi.', 'Tech'],
  ['Fix slow home wifi', 'Router in the living room, bedrooms get no signal.', 'Tech'],
  ['Help my parents with their iPhone', 'Patient person to show them photos, messages and video calls.', 'Tech'],
  ['Math tutoring for an 8th grader', 'Algebra basics, twice a week after school.', 'Tutoring'],
  ['Spanish conversation practice', 'Intermediate level, one hour a week over coffee.', 'Tutoring'],
  ['SAT prep, reading section', 'Four sessions before the exam in spring.', 'Tutoring'],
  ['Walk my dog twice a day', 'Friendly labrador, 30 minutes each walk, weekdays.', 'Pet care'],
  ['Cat sitter for a long weekend', 'Feed two cats and clean the litter, Friday to Monday.', 'Pet care'],
  ['Pick up groceries for my grandmother', 'Weekly list from the supermarket nearby, she pays on delivery.', 'Delivery'],
  ['Deliver a parcel across town', 'Small box, must arrive before 5pm today.', 'Delivery'],
  ['Bartender for a birthday party', 'About 30 guests, drinks provided, 4 hours in the evening.', 'Events'],
  ['Photographer for a small wedding', 'Ceremony and a few portraits, 2 hours, edited photos after.', 'Events'],
  ['Help set up chairs for a community event', 'Around 100 chairs and 10 tables in the hall.', 'Events'],
  ['Mow the lawn and trim hedges', 'Medium backyard, mower in the shed.', 'Gardening'],
  ['Rake leaves in the front yard', 'Bags provided. Should take an afternoon.', 'Gardening'],
  ['Plant a vegetable garden', 'Raised beds are built, need planting and a watering plan.', 'Gardening'],
  ['Stand in line for concert tickets', 'Box office opens at 9am, I can pay for your time.', 'Other'],
  ['Translate a one-page letter to French', 'Personal letter, about 300 words.', 'Other'],
]

export const COLOURS = {
  Moving: [[255, 183, 77], [230, 81, 0]],
  Cleaning: [[128, 222, 234], [0, 131, 143]],
  Handyman: [[255, 213, 79], [121, 85, 72]],
  Tech: [[144, 202, 249], [21, 101, 192]],
  Tutoring: [[206, 147, 216], [106, 27, 154]],
  'Pet care': [[255, 171, 145], [191, 54, 12]],
  Delivery: [[165, 214, 167], [46, 125, 50]],
  Events: [[244, 143, 177], [173, 20, 87]],
  Gardening: [[197, 225, 165], [51, 105, 30]],
  Other: [[207, 216, 220], [69, 90, 100]],
}

export const LOCATIONS = ['Remote', 'New York NY', 'Los Angeles CA', 'Chicago IL', 'San Francisco CA', 'Boston MA', 'Seattle WA', 'Austin TX', 'Atlanta GA', 'Miami FL', 'Washington DC', 'Denver CO', 'Portland OR', 'Nashville TN']
export const PAYMENTS = ['Zelle', 'Cash App', 'Venmo', 'Cash', 'PayPal', 'Bank Transfer', 'Check']
export const CONTACTS = ['Email', 'Phone', 'WhatsApp', 'Telegram', 'Instagram', 'Discord', 'X(Twitter)', 'Others']
const OTHER_WAYS = ['Signal, same number as my phone', 'Knock at the blue door, ask for me', 'Facebook Messenger: my full name', 'Leave a note at the front desk']

/**
 * How a demo user is reached by `method`, typed as people type it: their demo
 * address, their phone number with separators, a handle from their name, or a short text.
 */
export function contactValueOf(userIndex, method) {
  const user = DEMO_USERS[userIndex]
  const digits = user.phoneNumber
  const handle = `${user.firstname}.${user.lastname}`.toLowerCase()
  switch (method) {
    case 'Email':
      return user.email
    case 'Phone':
    case 'WhatsApp':
    case 'Telegram':
      return `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`
    case 'Instagram':
      return `@${handle}`
    case 'Discord':
      return `${handle.replace('.', '_')}`
    case 'X(Twitter)':
      return `@${user.firstname}${user.lastname}`.slice(0, 16)
    case 'Others':
      return OTHER_WAYS[userIndex % OTHER_WAYS.length]
    default:
      return ''
  }
}
// Repeated jobs get a qualifier, so one owner's titles stay distinct and read naturally.
const QUALIFIERS = ['- urgent', 'this weekend', '(about 2 hours)', '- repeat job', 'next week', '(flexible time)', 'ASAP', '(evenings)']
const WHEN = ['This Saturday morning', 'Weekday evenings', 'Tomorrow, 2pm to 5pm', 'Next weekend', 'Flexible', 'Every Friday']
const PAY = ['$25/hour', '$40 total', '$60', '$80 for the job', '$20/hour', '$100', '$35']

/** Seven posts per demo user (210 in all), varied but always the same for the same user. */
export function postsOf(userIndex) {
  return Array.from({ length: 7 }, (_, k) => {
    const n = userIndex * 7 + k
    const [title, infos, kind] = JOBS[(userIndex * 5 + k * 3) % JOBS.length]
    const inDays = (n % 9) + 1
    return {
      title: n < JOBS.length ? title : `${title} ${QUALIFIERS[n % QUALIFIERS.length]}`,
      kind,
      body: {
        title: undefined, // set below, kept first for readability of the object
        location: LOCATIONS[(n * 5) % LOCATIONS.length],
        jobStartEnd: WHEN[n % WHEN.length],
        salary: PAY[n % PAY.length],
        paymentType: [PAYMENTS[n % PAYMENTS.length], PAYMENTS[(n + 3) % PAYMENTS.length]],
        contact: CONTACTS[n % CONTACTS.length],
        contactValue: contactValueOf(userIndex, CONTACTS[n % CONTACTS.length]),
        infos,
        displayLocation: n % 6 !== 0,
        displayContact: n % 4 !== 0,
        expirationDate: n % 5 === 0 ? futureDate(inDays * 6) : null,
      },
      withPicture: n % 3 === 0,
      offline: n % 17 === 0,
    }
  }).map((post) => ({ ...post, body: { ...post.body, title: post.title } }))
}

function futureDate(days) {
  const date = new Date()
  date.setUTCDate(date.getUTCDate() + days)
  return date.toISOString().slice(0, 10)
}

/** [title, skills, colour kind] of the demo workers; a worker picks one by their index. */
const WORKER_KINDS = [
  ['Mover with a van', ['Lifting', 'Packing', 'Driving'], 'Moving'],
  ['Home cleaner', ['Deep cleaning', 'Windows', 'Laundry'], 'Cleaning'],
  ['Handyman', ['Furniture assembly', 'Painting', 'Small repairs'], 'Handyman'],
  ['IT helper', ['Wifi setup', 'Laptops', 'Printers'], 'Tech'],
  ['Math and science tutor', ['Algebra', 'Physics', 'Homework help'], 'Tutoring'],
  ['Dog walker and pet sitter', ['Dogs', 'Cats', 'Feeding'], 'Pet care'],
  ['Bike courier', ['Parcels', 'Groceries', 'Same-day delivery'], 'Delivery'],
  ['Event helper', ['Bartending', 'Serving', 'Photography'], 'Events'],
  ['Gardener', ['Lawn mowing', 'Hedges', 'Planting'], 'Gardening'],
  ['Personal assistant', ['Errands', 'Queueing', 'Organizing'], 'Other'],
]
const AVAILABILITY = ['Weekends', 'Evenings after 6 pm', 'Weekdays', 'Flexible', 'Mornings']
const WORKER_PAYMENTS = ['Cash or Venmo', 'Zelle', 'PayPal', 'Cash', 'Cash App or Zelle', 'Bank Transfer']

/**
 * The worker profile of demo person `index`, or null: two people in three are workers, and
 * one worker in ten is switched offline. Half of them show their contacts to everyone; the
 * others only to owners of posts they requested.
 */
export function workerProfileOf(index) {
  if (index % 3 === 2) return null
  const [title, skills, kind] = WORKER_KINDS[index % WORKER_KINDS.length]
  const user = DEMO_USERS[index]
  const visibility = index % 2 === 0 ? 'public' : 'hidden'
  return {
    kind,
    offline: index % 10 === 4,
    body: {
      title,
      skills,
      availability: AVAILABILITY[index % AVAILABILITY.length],
      paymentType: WORKER_PAYMENTS[index % WORKER_PAYMENTS.length],
      location: LOCATIONS[(index * 5) % LOCATIONS.length],
      infos: `Hi, I'm ${user.firstname}. Reliable, on time, and happy to help.`,
      contacts: [
        { value: user.email, visibility },
        { value: `(555) ${user.phoneNumber.slice(3, 6)}-${user.phoneNumber.slice(6)}`, visibility },
      ],
    },
  }
}

/**
 * What demo person `index` saves: two posts of the next person and the next worker after
 * them (never themselves). Answers indexes; the seed turns them into ids.
 */
export function favoritesOf(index) {
  const next = (index + 1) % DEMO_USERS.length
  let worker = (index + 1) % DEMO_USERS.length
  while (!workerProfileOf(worker) || workerProfileOf(worker).offline || worker === index) {
    worker = (worker + 1) % DEMO_USERS.length
  }
  return { postsOf: next, postNumbers: [0, 1], worker }
}

/**
 * Open reports for the moderation queue (the demo administrator reviews them): who reports,
 * what (a post number of a person, or a worker), the reason and the details.
 */
export const DEMO_REPORTS = [
  { by: 1, post: { of: 5, number: 2 }, type: 'scam', description: 'Asks for a deposit by gift card before the job.' },
  { by: 2, worker: 6, type: 'inappropriate', description: 'Rude messages after I declined.' },
  { by: 3, post: { of: 8, number: 4 }, type: 'other', description: 'Looks like a duplicate of another post.' },
]
