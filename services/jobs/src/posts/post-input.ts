import type { JobPostCreateBody, JobPostUpdateBody } from '@marketplace/contracts/api'
import {
  Messages,
  checkPostCategory,
  contactValueKind,
  normalizeContactValue,
  validatePostPayload,
} from '@marketplace/contracts/validation'
import { BadRequestError, ForbiddenError } from '@marketplace/service-kit'
import { deriveCategory, distinctWords, wordsOf } from '@marketplace/contracts/marketplace'
import type { PostDocument } from './post-document'

/** Fields a client may set on a post, with the API's names. */
export type PostFields = Pick<
  PostDocument,
  | 'title'
  | 'location'
  | 'jobStartEnd'
  | 'salary'
  | 'paymentType'
  | 'contact'
  | 'contactValue'
  | 'infos'
  | 'displayLocation'
  | 'displayContact'
  | 'jobPicture'
  | 'expirationDate'
> & { category?: string }

const text = (value: unknown): string | undefined =>
  typeof value === 'string' ? value.trim() : value === null ? '' : undefined

function first<Body extends object>(body: Body, ...names: Array<keyof Body>): unknown {
  for (const name of names) if (body[name] !== undefined) return body[name]
  return undefined
}

/**
 * The category the owner chose, or undefined when none is sent (absent or
 * empty); one outside the feed's list is a 400 naming the list.
 */
function chosenCategory(value: unknown): string | undefined {
  const problem = checkPostCategory(value)
  if (problem) throw new BadRequestError(problem, 'INVALID_CATEGORY')
  return typeof value === 'string' && value.trim() !== '' ? value : undefined
}

/** paymentType may come as a list or as the modify form's "Cash - Zelle" text. */
function paymentList(value: unknown): string[] | undefined {
  if (value === undefined) return undefined
  if (value === null || value === '') return []
  if (typeof value === 'string')
    return value
      .split('-')
      .map((entry) => entry.trim())
      .filter(Boolean)
  if (Array.isArray(value)) return value.map((entry) => String(entry).trim()).filter(Boolean)
  throw new BadRequestError(Messages.post.invalidPayment, 'INVALID_POST')
}

/** Booleans may arrive as the strings "true"/"false". */
export function flag(value: unknown, name: string): boolean | undefined {
  if (value === undefined) return undefined
  if (value === true || value === 'true') return true
  if (value === false || value === 'false') return false
  throw new BadRequestError(`${name} must be true or false`, 'INVALID_POST')
}

/**
 * A picture must be one the caller uploaded: a key under jobImages/{callerId}/ as the media
 * service issues them. Anything else would let a post show someone else's file.
 */
export function checkPictureKey(key: string | null, callerId: string): string | null {
  if (key === null || key === '') return null
  const own = new RegExp(`^jobImages/${callerId}/[A-Za-z0-9-]{1,64}\\.(png|jpe?g)$`)
  if (!own.test(key))
    throw new BadRequestError('The picture must be one you uploaded', 'INVALID_PICTURE')
  return key
}

/**
 * Reads the body of POST /api/jobs. Both the API's names and the creation form's
 * names (where, when, howmuch, payment) are accepted; the shared rules of
 * packages/contracts decide, so the browser and the server agree on every message.
 */
export function readNewPost(
  body: JobPostCreateBody,
  callerId: string,
  today = new Date(),
): PostFields {
  const owner = body.userID ?? body.userId
  if (owner !== undefined && owner !== callerId) {
    throw new ForbiddenError('You can only create posts for yourself', 'FOREIGN_OWNER')
  }
  const fields: PostFields = {
    title: text(body.title) ?? '',
    location: text(first(body, 'location', 'where')) ?? '',
    jobStartEnd: text(first(body, 'jobStartEnd', 'startEnd', 'when')) ?? '',
    salary: text(first(body, 'salary', 'howmuch')) ?? '',
    paymentType: paymentList(first(body, 'paymentType', 'payment')) ?? [],
    contact: text(body.contact) ?? '',
    contactValue: text(body.contactValue) ?? '',
    infos: text(body.infos) ?? '',
    displayLocation: flag(body.displayLocation, 'displayLocation') ?? true,
    displayContact: flag(body.displayContact, 'displayContact') ?? true,
    jobPicture: checkPictureKey(text(body.jobPicture) ?? null, callerId),
    expirationDate: text(body.expirationDate) || null,
  }
  const problem = validatePostPayload(fields, today)
  if (problem) throw new BadRequestError(problem, 'INVALID_POST')
  fields.contactValue = normalizeContactValue(fields.contact, fields.contactValue)
  const category = chosenCategory(body.category)
  if (category !== undefined) fields.category = category
  return fields
}

/**
 * The contact value an edit leads to. A new method without a value keeps the old value only
 * when it is of the same kind (WhatsApp to Phone keeps the number; to Email it must come
 * anew), and no method means no value.
 */
function contactValueChange(
  body: JobPostUpdateBody,
  current: PostDocument,
  contact: string | undefined,
): string | undefined {
  const sent = text(body.contactValue)
  if (sent !== undefined) return sent
  if (contact === undefined || contact === current.contact) return undefined
  if (contact === '') return ''
  return contactValueKind(contact) === contactValueKind(current.contact) ? undefined : ''
}

/** What PUT /api/jobs/{id} changes: a partial set of fields, checked as a whole post. */
export function readPostChanges(
  body: JobPostUpdateBody,
  current: PostDocument,
  callerId: string,
  today = new Date(),
): Partial<PostFields> & { isOnline?: boolean } {
  if (body.title !== undefined && text(body.title) !== current.title) {
    throw new BadRequestError(Messages.post.titleUnchangeable, 'TITLE_UNCHANGEABLE')
  }
  const changes: Partial<PostFields> & { isOnline?: boolean } = {}
  const set = <K extends keyof typeof changes>(key: K, value: (typeof changes)[K] | undefined) => {
    if (value !== undefined) changes[key] = value
  }
  set('isOnline', flag(body.isOnline, 'isOnline'))
  set('location', text(first(body, 'location', 'where')))
  set('jobStartEnd', text(first(body, 'jobStartEnd', 'startEnd', 'when')))
  set('salary', text(first(body, 'salary', 'howmuch')))
  set('paymentType', paymentList(first(body, 'paymentType', 'payment')))
  set('contact', text(body.contact))
  set('contactValue', contactValueChange(body, current, changes.contact))
  set('infos', text(body.infos))
  set('displayLocation', flag(body.displayLocation, 'displayLocation'))
  set('displayContact', flag(body.displayContact, 'displayContact'))
  if (body.jobPicture !== undefined) {
    const key = text(body.jobPicture) ?? null
    // Keeping the current picture is always allowed; a new one must be the caller's own.
    changes.jobPicture = key === current.jobPicture ? key : checkPictureKey(key, callerId)
  }
  if (body.expirationDate !== undefined) changes.expirationDate = text(body.expirationDate) || null
  set('category', chosenCategory(body.category))
  if (Object.keys(changes).length === 0) {
    throw new BadRequestError(Messages.post.missingUpdateData, 'NOTHING_TO_UPDATE')
  }
  // The result must be a post that could have been created as it is; an unchanged past
  // expiration date is not re-judged (the post has simply expired).
  const merged = { ...current, ...changes }
  const problem = validatePostPayload(
    {
      ...merged,
      contactValue: merged.contactValue ?? '',
      expirationDate: changes.expirationDate !== undefined ? merged.expirationDate : null,
    },
    today,
  )
  if (problem) throw new BadRequestError(problem, 'INVALID_POST')
  if (changes.contactValue !== undefined)
    changes.contactValue = normalizeContactValue(merged.contact, changes.contactValue)
  return changes
}

/** Derived, stored fields: category (unless chosen), search words, expiry instant. */
export function derivedFields(
  fields: Pick<PostFields, 'title' | 'infos' | 'expirationDate'> & { category?: string },
) {
  return {
    ...(fields.category === undefined
      ? {
          category: deriveCategory(wordsOf(fields.title), wordsOf(fields.infos)),
          categoryExplicit: false,
        }
      : { category: fields.category, categoryExplicit: true }),
    searchWords: distinctWords(fields.title, fields.infos),
    expiresAt: expiryInstant(fields.expirationDate),
  }
}

/** A post expiring on D is live through the whole of day D (UTC) and gone at D+1 00:00Z. */
export function expiryInstant(expirationDate: string | null): Date | null {
  if (!expirationDate) return null
  const instant = new Date(`${expirationDate}T00:00:00.000Z`)
  instant.setUTCDate(instant.getUTCDate() + 1)
  return instant
}
