import { NAME_MAX_LENGTH } from '../marketplace/limits'

/**
 * First and last name: a letter, then letters or hyphens, 1 to 24 characters in all.
 * "Letter" means any Unicode letter, so "Zoë" and "José" register; digits,
 * spaces and apostrophes do not. Input is NFC-normalised first so a decomposed "é" (e plus
 * a combining accent) counts as the one letter it shows as.
 */
const NAME_PATTERN = new RegExp(`^\\p{L}[\\p{L}-]{0,${NAME_MAX_LENGTH - 1}}$`, 'u')

export function isValidName(name: string): boolean {
  return NAME_PATTERN.test(name.normalize('NFC'))
}
