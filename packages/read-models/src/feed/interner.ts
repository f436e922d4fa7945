/**
 * One copy of each repeated string (a category, a location, an owner's id, a search word) and
 * of each repeated list of them, however many items hold it: a million posts share a few
 * hundred categories, places and payment lists, and a few thousand words. What every item
 * holds on its own is then only its own text (its id, title and description).
 */
export function createInterner() {
  const strings = new Map<string, string>()
  const lists = new Map<string, readonly string[]>()

  function string(value: string): string {
    const known = strings.get(value)
    if (known !== undefined) return known
    strings.set(value, value)
    return value
  }

  /** A list of few possible values (payment methods): one shared, frozen copy per list. */
  function list(values: readonly string[]): string[] {
    const key = values.join('\u0000')
    let known = lists.get(key)
    if (known === undefined) lists.set(key, (known = Object.freeze(values.map(string))))
    // Shared and frozen: nothing may change one item's list through another's.
    return known as string[]
  }

  /** A list of its own (an item's search words) made of shared strings. */
  function each(values: readonly string[]): string[] {
    return values.map(string)
  }

  return { string, list, each }
}

export type Interner = ReturnType<typeof createInterner>
