import {
  PAYMENT_OPTIONS,
  deriveCategory,
  distinctWords,
  wordsOf,
} from '@marketplace/contracts/marketplace'
import type { ProfileDocument, WorkerContact, WorkerProfile } from './profile-document'

/** The category of a worker: from the title first, then the skills (categories.ts). */
export function workerCategory(title: string, skills: readonly string[]): string {
  return deriveCategory(
    wordsOf(title),
    skills.flatMap((skill) => wordsOf(skill)),
  )
}

/** What search matches: the full name, the title and the skills. */
export function workerSearchWords(
  names: Pick<ProfileDocument, 'firstName' | 'lastName'>,
  worker: Pick<WorkerProfile, 'title' | 'skills'>,
): string[] {
  return distinctWords(names.firstName, names.lastName, worker.title, ...worker.skills)
}

/**
 * The payment filter's options named in the worker's free-text payment type: "Venmo or
 * cash" answers to Venmo and Cash. Longer options are taken first so "Cash App" is not also
 * read as Cash.
 */
export function paymentOptionsIn(paymentType: string): string[] {
  let text = ` ${wordsOf(paymentType).join(' ')} `
  const found: string[] = []
  for (const option of [...PAYMENT_OPTIONS].sort((a, b) => b.length - a.length)) {
    const phrase = ` ${wordsOf(option).join(' ')} `
    if (text.includes(phrase)) {
      found.push(option)
      text = text.split(phrase).join(' ')
    }
  }
  return found
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
/** Apps recognised by name or by their link's host. */
const APP_HINTS: Array<[string, RegExp]> = [
  ['WhatsApp', /whatsapp|wa\.me/i],
  ['Telegram', /telegram|t\.me\//i],
  ['Instagram', /instagram|instagr\.am/i],
  ['Discord', /discord/i],
  ['X(Twitter)', /twitter|x\.com\//i],
]

/**
 * The contact filter's options a worker's contacts answer to: an e-mail address is Email, a
 * named or linked app is that app, any other value with 7 digits or more is Phone. Only
 * public contacts count: a filter on a hidden one would reveal it.
 */
export function contactOptionsOf(contacts: readonly WorkerContact[]): string[] {
  const found = new Set<string>()
  for (const { value, visibility } of contacts) {
    if (visibility !== 'public') continue
    const text = value.trim()
    if (EMAIL.test(text)) {
      found.add('Email')
      continue
    }
    const apps = APP_HINTS.filter(([, hint]) => hint.test(text)).map(([option]) => option)
    for (const app of apps) found.add(app)
    if (apps.length === 0 && text.replace(/\D/g, '').length >= 7) found.add('Phone')
  }
  return [...found]
}
