import './count-badge.css'

/**
 * A small round count beside a link or a row ("3", "99+"), nothing at 0. Hidden from screen
 * readers: the control it sits in says the count in its name (countLabel), the same in every
 * browser, where text split across elements is joined differently.
 */
export function CountBadge({ count }: { count: number }) {
  if (count <= 0) return null
  return (
    <span className="count-badge" aria-hidden="true">
      {count > 99 ? '99+' : count}
    </span>
  )
}

/** "Messages, 3 unread" for a control showing a CountBadge; undefined (its own text) at 0. */
export const countLabel = (name: string, count: number, what = 'unread'): string | undefined =>
  count > 0 ? `${name}, ${count} ${what}` : undefined
