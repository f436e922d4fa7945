export type DateOrder = 'recent' | 'oldest'

/** Most recent first by createdAt unless the user picks Oldest. */
export function sortByDate<T>(items: readonly T[], dateOf: (item: T) => string, order: DateOrder) {
  const time = (item: T) => {
    const value = Date.parse(dateOf(item))
    return Number.isNaN(value) ? 0 : value
  }
  return [...items].sort((a, b) => (order === 'recent' ? time(b) - time(a) : time(a) - time(b)))
}
