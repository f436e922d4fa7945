import { StarIcon } from '@/components/icons/StarIcon'

/**
 * A person's rating as shown on cards, details and their profile: the app's star icon, then
 * "4.5 (12)" (lib/person-display ratingText). Screen readers hear "Rated 4.5 (12)".
 */
export function RatingText({ text, className }: { text: string; className?: string }) {
  return (
    <p className={className ? `icon-label ${className}` : 'icon-label'}>
      <StarIcon className="rating-star-icon" />
      <span className="visually-hidden">Rated </span>
      {text}
    </p>
  )
}
