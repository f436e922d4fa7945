/** Signup limits. */
export const NAME_MAX_LENGTH = 24
export const PASSWORD_MIN_LENGTH = 8
export const PASSWORD_MAX_LENGTH = 24
export const MINIMUM_AGE_YEARS = 18
export const PHONE_DIGITS = 10
/** The only symbols that satisfy the password's "special character" rule. */
export const PASSWORD_REQUIRED_SYMBOLS = ['!', '@', '#', '$', '%'] as const
/** RFC 5321 caps an address at 254 characters; the product gives no maximum. */
export const EMAIL_MAX_LENGTH = 254

/**
 * Post form text maxima. The product gives none; these bound what a post can store and match the
 * form's single-line fields (100), the contact line (200) and the free-text infos (2000).
 */
export const POST_TITLE_MAX_LENGTH = 100
export const POST_LOCATION_MAX_LENGTH = 100
export const POST_WHEN_MAX_LENGTH = 100
export const POST_SALARY_MAX_LENGTH = 100
export const POST_CONTACT_MAX_LENGTH = 200
export const POST_INFOS_MAX_LENGTH = 2000

/** Worker profile maxima (the product gives none; same scale as the post form). */
export const WORKER_TITLE_MAX_LENGTH = 100
export const WORKER_AVAILABILITY_MAX_LENGTH = 100
export const WORKER_PAYMENT_TYPE_MAX_LENGTH = 100
export const WORKER_LOCATION_MAX_LENGTH = 100
export const WORKER_INFOS_MAX_LENGTH = 2000
export const WORKER_SKILL_MAX_LENGTH = 50
export const WORKER_SKILLS_MAX_COUNT = 20
export const WORKER_CONTACT_MAX_LENGTH = 200
export const WORKER_CONTACTS_MAX_COUNT = 10

/** Report details are optional; bounded so a report stays reviewable. */
export const REPORT_DESCRIPTION_MAX_LENGTH = 1000

/**
 * Favorites per kind (posts, people): the product leaves capacity open. 500 is far beyond what
 * a person browses back through, and keeps one user's list a single small read.
 */
export const FAVORITES_MAX_PER_KIND = 500

/** Support and contact messages; no maximum shown, we cap at 5000. */
export const SUPPORT_MESSAGE_MAX_LENGTH = 5000

/** Post pictures: at most 5 MB. */
export const PICTURE_MAX_BYTES = 5 * 1024 * 1024
/** Post pictures: jpeg, png, jpg only. */
export const PICTURE_ALLOWED_TYPES = ['image/jpeg', 'image/png', 'image/jpg'] as const
export type PictureType = (typeof PICTURE_ALLOWED_TYPES)[number]

/**
 * Profile pictures: the product says "any image type". We narrow that to the raster formats
 * every browser displays and exclude image/svg+xml, which can carry script and is served
 * from a public bucket. Same 5 MB cap as post pictures.
 */
export const PROFILE_PICTURE_ALLOWED_TYPES = [
  'image/jpeg',
  'image/jpg',
  'image/png',
  'image/webp',
  'image/gif',
] as const
export type ProfilePictureType = (typeof PROFILE_PICTURE_ALLOWED_TYPES)[number]
export const PROFILE_PICTURE_MAX_BYTES = PICTURE_MAX_BYTES

/** Uploaded objects are cached for one year. */
export const UPLOAD_CACHE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60
/** Object-key prefixes served from the public bucket. */
export const UPLOAD_KEY_PREFIXES = { user: 'userImages/', job: 'jobImages/' } as const
