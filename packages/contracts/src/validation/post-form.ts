import {
  POST_CONTACT_MAX_LENGTH,
  POST_INFOS_MAX_LENGTH,
  POST_LOCATION_MAX_LENGTH,
  POST_SALARY_MAX_LENGTH,
  POST_TITLE_MAX_LENGTH,
  POST_WHEN_MAX_LENGTH,
} from '../marketplace/limits'
import { isContactOption, isPaymentOption } from '../marketplace/options'
import { checkContactValue } from './contact-value'
import { calendarDateOf, compareCalendarDates, parseCalendarDate } from './calendar-date'
import { Messages } from './messages'
import { exceeds, isBlank } from './text'

/** The add-a-post form, with the form's own field names. */
export interface PostForm {
  title: string
  where: string
  when?: string
  howmuch?: string
  /** Chosen payment options; each must be one of PAYMENT_OPTIONS. */
  payment?: readonly string[]
  /** A contact option; empty for none, else one of CONTACT_OPTIONS. */
  contact?: string
  /** How to reach the poster by `contact` (contact-value.ts); optional, checked when given. */
  contactValue?: string
  infos?: string
  /** 'YYYY-MM-DD', or empty/absent when cleared. */
  expirationDate?: string | null
}

/** Preview (and creating) needs a title and a where, blanks not counting. */
export function canPreviewPost(form: Pick<PostForm, 'title' | 'where'>): boolean {
  return !isBlank(form.title) && !isBlank(form.where)
}

/**
 * expirationDate cannot be earlier than today and may be cleared: null for an
 * empty value or a date today or later, else the message. `today` is read through its UTC
 * parts; the browser passes `localToday()`.
 */
export function checkExpirationDate(
  expirationDate: string | null | undefined,
  today: Date = new Date(),
): string | null {
  if (isBlank(expirationDate)) return null
  const date = parseCalendarDate((expirationDate ?? '').trim())
  if (!date) return Messages.post.invalidExpirationDate
  return compareCalendarDates(date, calendarDateOf(today)) < 0
    ? Messages.post.expirationDateInPast
    : null
}

/** Each field with its label (for the too-long message) and maximum. */
const BOUNDED_FIELDS = [
  ['title', 'Title', POST_TITLE_MAX_LENGTH],
  ['where', 'Location', POST_LOCATION_MAX_LENGTH],
  ['when', 'When', POST_WHEN_MAX_LENGTH],
  ['howmuch', 'How much', POST_SALARY_MAX_LENGTH],
  ['contact', 'Contact', POST_CONTACT_MAX_LENGTH],
  ['infos', 'Infos', POST_INFOS_MAX_LENGTH],
] as const

/**
 * First failed rule's message or null: title and where required, text lengths
 * bounded, expiration date not before today, payment values from the payment list, contact
 * from the contact list, and a contact value, when one is given, that suits the method. Only
 * title and where are required.
 */
export function validatePostForm(form: PostForm, today: Date = new Date()): string | null {
  if (!canPreviewPost(form)) return Messages.post.titleAndLocationRequired
  for (const [field, label, max] of BOUNDED_FIELDS) {
    if (exceeds(form[field], max)) return Messages.tooLong(label, max)
  }
  const expiration = checkExpirationDate(form.expirationDate, today)
  if (expiration) return expiration
  if (form.payment && !form.payment.every(isPaymentOption)) return Messages.post.invalidPayment
  if (!isBlank(form.contact) && !isContactOption(form.contact)) return Messages.post.invalidContact
  return checkContactValue(form.contact, form.contactValue)
}

/** Body of POST /api/jobs, with the API's field names. */
export interface PostPayload {
  title: string
  location: string
  jobStartEnd?: string
  salary?: string
  paymentType?: readonly string[]
  contact?: string
  contactValue?: string
  infos?: string
  expirationDate?: string | null
}

/** The server's check of POST /api/jobs: the form's rules, on the API's field names. */
export function validatePostPayload(payload: PostPayload, today: Date = new Date()): string | null {
  return validatePostForm(
    {
      title: payload.title,
      where: payload.location,
      when: payload.jobStartEnd,
      howmuch: payload.salary,
      payment: payload.paymentType,
      contact: payload.contact,
      contactValue: payload.contactValue,
      infos: payload.infos,
      expirationDate: payload.expirationDate,
    },
    today,
  )
}
