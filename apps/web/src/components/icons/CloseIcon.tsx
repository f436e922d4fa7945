import { Icon, type IconProps } from './Icon'

/** A cross for close, dismiss and cancel buttons. Drawn for this app. */
export function CloseIcon({ size = 18, ...props }: IconProps) {
  return (
    <Icon size={size} {...props}>
      <path d="M6 6l12 12M18 6L6 18" />
    </Icon>
  )
}
