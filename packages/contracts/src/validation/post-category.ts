import { isCategory } from '../marketplace/categories'
import { Messages } from './messages'
import { isBlank } from './text'

/**
 * A post's chosen category: absent or empty means none chosen (the server
 * guesses on create, keeps the stored one on an edit); anything else must be one of the feed's
 * categories, spelled as the list spells it. Null when fine, else the message naming the list.
 */
export function checkPostCategory(category: unknown): string | null {
  if (category === undefined || category === null) return null
  if (typeof category === 'string' && isBlank(category)) return null
  return isCategory(category) ? null : Messages.post.invalidCategory
}
