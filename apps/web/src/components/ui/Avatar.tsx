import { Picture } from '@/components/ui/Picture'
import { DEFAULT_PROFILE_PICTURE } from '@/lib/images'
import './avatar.css'

/** "MM" for "Mia Member": the first letters of the first and last words. */
export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean)
  const first = words[0]?.charAt(0) ?? ''
  const last = words.length > 1 ? (words.at(-1)?.charAt(0) ?? '') : ''
  return (first + last).toUpperCase() || '?'
}

/** A person's round picture, or their initials when they have none. Decorative: the name is beside it. */
export function Avatar({
  name,
  picture,
  size = 40,
}: {
  name: string
  picture: string | null | undefined
  size?: number
}) {
  const style = { width: size, height: size, fontSize: size * 0.4 }
  if (picture) {
    return (
      <Picture
        className="ui-avatar"
        picture={picture}
        placeholder={DEFAULT_PROFILE_PICTURE}
        use="avatar"
        sizes={`${size}px`}
        alt=""
        style={style}
      />
    )
  }
  return (
    <span className="ui-avatar ui-avatar-initials" aria-hidden="true" style={style}>
      {initialsOf(name)}
    </span>
  )
}
