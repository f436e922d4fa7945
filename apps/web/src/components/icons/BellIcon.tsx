import { Icon, type IconProps } from './Icon'

/** A bell (notifications). Feather's "bell" (feathericons.com, MIT). */
export function BellIcon({ size = 22, ...props }: IconProps) {
  return (
    <Icon size={size} {...props}>
      <path d="M18 8a6 6 0 0 0-12 0c0 7-3 9-3 9h18s-3-2-3-9" />
      <path d="M13.73 21a2 2 0 0 1-3.46 0" />
    </Icon>
  )
}
