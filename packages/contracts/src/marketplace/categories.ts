import { wordsOf } from './search-words'

/**
 * Categories of posts and of workers. The worker profile has no category, so the
 * server derives one with this keyword table from the profile's title, then its skills. A post
 * gets the category its owner chooses in the post form or Modify, which the
 * forms pre-select with the same guess the server makes when none is sent: from the title,
 * then the infos. The first category with a matching keyword wins, in the table's order, and
 * title matches beat the second text's ("Help moving my home office PC" is Moving, not Tech).
 * Keywords are matched against whole normalized words (see search-words.ts), a trailing `*`
 * meaning "any word starting with".
 */
export const UNCATEGORIZED = 'Uncategorized'

export const CATEGORY_KEYWORDS = {
  Moving: [
    'move',
    'moving',
    'mover*',
    'movers',
    'relocat*',
    'boxes',
    'packing',
    'unpack*',
    'truck',
    'haul*',
    'lift*',
    'furniture',
  ],
  Cleaning: [
    'clean*',
    'tidy*',
    'declutter*',
    'laundry',
    'dishes',
    'vacuum*',
    'mop*',
    'dust*',
    'windows',
    'housekeep*',
    'organiz*',
  ],
  Handyman: [
    'repair*',
    'fix*',
    'handyman',
    'assembl*',
    'ikea',
    'paint*',
    'drywall',
    'plumb*',
    'leak*',
    'shelf',
    'shelves',
    'mount*',
    'install*',
    'door',
    'faucet',
    'carpent*',
    'tile*',
  ],
  Tech: [
    'computer*',
    'laptop*',
    'pc',
    'wifi',
    'router',
    'printer',
    'phone',
    'iphone',
    'android',
    'website*',
    'software',
    'tech',
    'tv',
    'excel',
    'email',
  ],
  Tutoring: [
    'tutor*',
    'lesson*',
    'homework',
    'math*',
    'teach*',
    'exam*',
    'study',
    'english',
    'spanish',
    'french',
    'piano',
    'guitar',
    'coach*',
    'sat',
    'chemistry',
    'physics',
  ],
  'Pet care': [
    'dog*',
    'cat',
    'cats',
    'pet*',
    'puppy',
    'kitten*',
    'sitter',
    'litter',
    'groom*',
    'aquarium',
    'bird*',
  ],
  Delivery: [
    'deliver*',
    'pickup',
    'errand*',
    'grocer*',
    'courier',
    'parcel*',
    'package*',
    'shopping',
    'pharmacy',
  ],
  Events: [
    'event*',
    'party',
    'parties',
    'wedding*',
    'birthday*',
    'catering',
    'bartend*',
    'dj',
    'photograph*',
    'decorat*',
    'waiter*',
    'waitress*',
    'host*',
    'setup*',
  ],
  Gardening: [
    'garden*',
    'lawn*',
    'mow*',
    'yard',
    'hedge*',
    'weed*',
    'plant*',
    'tree*',
    'leaves',
    'rake',
    'raking',
    'landscap*',
    'snow',
    'shovel*',
  ],
} as const satisfies Record<string, readonly string[]>

export type Category = keyof typeof CATEGORY_KEYWORDS | typeof UNCATEGORIZED
export const CATEGORIES = [...Object.keys(CATEGORY_KEYWORDS), UNCATEGORIZED] as Category[]

/**
 * The categories a post may be given: the list the feed's category sidebar shows,
 * Uncategorized included, since it is what the guess gives when no keyword matches.
 */
export const POST_CATEGORIES: readonly Category[] = CATEGORIES

export function isCategory(value: unknown): value is Category {
  return typeof value === 'string' && (CATEGORIES as string[]).includes(value)
}

const matchers = Object.entries(CATEGORY_KEYWORDS).map(([category, keywords]) => {
  const exact = new Set<string>(keywords.filter((k) => !k.endsWith('*')))
  const prefixes = keywords.filter((k) => k.endsWith('*')).map((k) => k.slice(0, -1))
  return {
    category: category as Category,
    matches: (word: string) =>
      exact.has(word) || prefixes.some((prefix) => word.startsWith(prefix)),
  }
})

function categoryOfWords(words: readonly string[]): Category | null {
  for (const { category, matches } of matchers) {
    if (words.some(matches)) return category
  }
  return null
}

/** The derived category: title first, then the other words (infos, skills), else "Uncategorized". */
export function deriveCategory(
  titleWords: readonly string[],
  otherWords: readonly string[],
): Category {
  return categoryOfWords(titleWords) ?? categoryOfWords(otherWords) ?? UNCATEGORIZED
}

/**
 * The server's guess for a post without a chosen category: title first, then infos. The
 * forms run it as the owner types, to pre-select the category (no request needed).
 */
export function guessPostCategory(
  title: string | null | undefined,
  infos: string | null | undefined,
): Category {
  return deriveCategory(wordsOf(title), wordsOf(infos))
}
