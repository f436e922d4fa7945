import { SUPPORT_MESSAGE_MAX_LENGTH } from '../marketplace/limits'
import { exceeds, isBlank } from './text'

/**
 * Help & Support and Contact us: an empty message is not sent, and nothing is shown,
 * so this answers yes or no rather than a message. A whitespace-only message
 * counts as empty; the email field has no check.
 */
export function canSendSupportMessage(message: string | null | undefined): boolean {
  return !isBlank(message) && !exceeds(message, SUPPORT_MESSAGE_MAX_LENGTH)
}
