/**
 * Length in user-perceived characters (code points), so an emoji counts once on the web and
 * on the server alike, whatever the string's UTF-16 length.
 */
export function charLength(text: string): number {
  return Array.from(text).length
}

export function isBlank(text: string | null | undefined): boolean {
  return text === undefined || text === null || text.trim() === ''
}

export function exceeds(text: string | null | undefined, max: number): boolean {
  return text !== undefined && text !== null && charLength(text) > max
}
