import { Icon, type IconProps } from './Icon'

/** A trash can for delete buttons. Drawn for this app. */
export function TrashIcon({ size = 18, ...props }: IconProps) {
  return (
    <Icon size={size} {...props}>
      <path d="M3 6h18M8 6V4h8v2M19 6l-1 14H6L5 6M10 11v6M14 11v6" />
    </Icon>
  )
}
