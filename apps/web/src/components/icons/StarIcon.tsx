import { Icon, type IconProps } from './Icon'

/**
 * A five-pointed star: filled for a rating, outlined for an empty rating step. The outline is
 * Feather's "star" (feathericons.com, MIT licence).
 */
export function StarIcon({ filled = true, size = 16, ...props }: IconProps & { filled?: boolean }) {
  return (
    <Icon size={size} filled={filled} {...props}>
      <path d="M12 2l3.09 6.26L22 9.27l-5 4.87 1.18 6.88L12 17.77l-6.18 3.25L7 14.14 2 9.27l6.91-1.01L12 2z" />
    </Icon>
  )
}
