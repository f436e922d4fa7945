/**
 * Search words: a text (of a post, of a worker profile) cut into normalized words, so search is case- and
 * accent-insensitive and never needs a regular expression: "Déménagement!" → ["demenagement"].
 * The same function cuts the query, so both sides agree.
 */
export function wordsOf(text: string | null | undefined): string[] {
  if (!text) return []
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '') // accents, once NFKD has split them off their letters
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0)
}

/** Distinct words, longest first cut at 40 characters: nobody searches a 300-letter word. */
export function distinctWords(...texts: Array<string | null | undefined>): string[] {
  const words = new Set<string>()
  for (const text of texts) for (const word of wordsOf(text)) words.add(word.slice(0, 40))
  return [...words]
}

/** Query terms: at most 8 distinct words, so one request cannot ask for a thousand lookups. */
export function queryTerms(search: string): string[] {
  return distinctWords(search.trim()).slice(0, 8)
}
