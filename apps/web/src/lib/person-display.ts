import type { PersonRating, PersonView } from '@marketplace/contracts/api'

/** The name a person is shown by: name, else first and last name. */
export function personName(person: Pick<PersonView, 'name' | 'firstName' | 'lastName'>): string {
  const full = [person.firstName, person.lastName].filter(Boolean).join(' ').trim()
  return (person.name ?? '').trim() || full
}

/** "N years old"; nothing when the age is unknown. */
export function ageText(age: number | null | undefined): string | null {
  return typeof age === 'number' && age > 0 ? `${age} years old` : null
}

/** Skills joined by " - ". */
export const skillsText = (skills: readonly string[] | null | undefined): string =>
  (skills ?? []).filter(Boolean).join(' - ')

/**
 * "4.5 (12)" once a person has been rated by the owners they worked for, shown after the app's
 * star icon (components/ui/RatingText); nothing before, or for a view without a rating
 * (favorites, moderation).
 */
export function ratingText(rating: PersonRating | undefined): string | null {
  if (!rating || rating.count <= 0 || typeof rating.average !== 'number') return null
  return `${rating.average.toFixed(1)} (${rating.count})`
}
