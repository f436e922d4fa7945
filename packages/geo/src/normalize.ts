/**
 * The form place names are compared in: no accents, lower case, punctuation as spaces, and the common
 * abbreviations spelt one way ("St. Louis" and "Saint Louis", "Ft Worth" and "Fort Worth" meet).
 */
export function normalizePlaceName(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’`]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .replace(/\bsaint\b/g, 'st')
    .replace(/\bsainte\b/g, 'ste')
    .replace(/\bfort\b/g, 'ft')
    .replace(/\bmount\b/g, 'mt')
}
