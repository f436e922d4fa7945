import { Icon, type IconProps } from './Icon'

/** A left arrow for "back" links and buttons. Feather's "arrow-left" (feathericons.com, MIT). */
export function ArrowLeftIcon({ size = 18, ...props }: IconProps) {
  return (
    <Icon size={size} {...props}>
      <path d="M19 12H5M12 19l-7-7 7-7" />
    </Icon>
  )
}
