/**
 * Several texts as one string, for a row's `text` (a columnar feed holds one string per row,
 * not one per field: a string costs its header and a pointer whatever its length). Joined by
 * NUL, which no form field is expected to hold; a text that does hold one is kept as JSON
 * instead, so any text comes back as it went in. The first character says which.
 */
export function packTexts(values: readonly string[]): string {
  // Built by join, which makes one flat string: "S" + text would be a cons string, whose
  // header and second object cost more than a short text (V8 flattens only when read).
  for (const value of values)
    if (value.includes('\u0000')) return ['J', JSON.stringify(values)].join('')
  return ['S', ...values].join('\u0000')
}

export function unpackTexts(text: string): string[] {
  if (text.startsWith('J')) return JSON.parse(text.slice(1)) as string[]
  return text.split('\u0000').slice(1)
}
