import {
  POST_CONTACT_MAX_LENGTH,
  POST_INFOS_MAX_LENGTH,
  POST_LOCATION_MAX_LENGTH,
  POST_SALARY_MAX_LENGTH,
  POST_WHEN_MAX_LENGTH,
} from '../marketplace/limits'
import { isContactOption, isPaymentOption } from '../marketplace/options'
import { checkContactValue } from './contact-value'
import { Messages } from './messages'
import { exceeds, isBlank } from './text'

/**
 * The modify form's payment text is split on '-' and trimmed into the paymentType list;
 * empty entries are dropped so "Cash - - Zelle" and a trailing dash do no harm.
 */
export function parsePaymentText(text: string): string[] {
  return text
    .split('-')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
}

/** The inverse, to prefill the modify form: ["Cash", "Zelle"] → "Cash - Zelle". */
export function formatPaymentList(paymentType: readonly string[]): string {
  return paymentType.join(' - ')
}

/**
 * Updating needs the post id and an access token, else
 * "Missing required data to update job".
 */
export function checkPostUpdatePrerequisites(input: {
  postId?: string | null
  accessToken?: string | null
}): string | null {
  return isBlank(input.postId) || isBlank(input.accessToken)
    ? Messages.post.missingUpdateData
    : null
}

/** The title cannot be changed: an update may omit it or repeat it unchanged. */
export function isTitleUnchanged(currentTitle: string, incomingTitle: string | undefined): boolean {
  return incomingTitle === undefined || incomingTitle === currentTitle
}

/** Modify modal fields: Where, When, How much, Payment, Contact, Infos. */
export interface PostModifyForm {
  where: string
  when?: string
  howmuch?: string
  /** Free text, split with `parsePaymentText`. */
  payment?: string
  contact?: string
  /** How to reach the poster by `contact` (contact-value.ts); optional, checked when given. */
  contactValue?: string
  infos?: string
}

const BOUNDED_FIELDS = [
  ['where', 'Location', POST_LOCATION_MAX_LENGTH],
  ['when', 'When', POST_WHEN_MAX_LENGTH],
  ['howmuch', 'How much', POST_SALARY_MAX_LENGTH],
  ['contact', 'Contact', POST_CONTACT_MAX_LENGTH],
  ['infos', 'Infos', POST_INFOS_MAX_LENGTH],
] as const

/**
 * First failed rule's message or null. A post keeps needing its where (the product's copy: "a post
 * needs a title and a where"); the other fields follow the creation form's rules, so a
 * modified post could also have been created as it is.
 */
export function validatePostModifyForm(form: PostModifyForm): string | null {
  if (isBlank(form.where)) return Messages.post.locationRequired
  for (const [field, label, max] of BOUNDED_FIELDS) {
    if (exceeds(form[field], max)) return Messages.tooLong(label, max)
  }
  if (!parsePaymentText(form.payment ?? '').every(isPaymentOption)) {
    return Messages.post.invalidPayment
  }
  if (!isBlank(form.contact) && !isContactOption(form.contact)) return Messages.post.invalidContact
  return checkContactValue(form.contact, form.contactValue)
}
