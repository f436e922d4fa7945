import { Icon, type IconProps } from './Icon'

/** An open or struck-through eye for visibility toggles. Drawn for this app. */
export function EyeIcon({ open, size = 20, ...props }: IconProps & { open: boolean }) {
  return (
    <Icon size={size} {...props}>
      <path d="M1 12s4-7 11-7 11 7 11 7-4 7-11 7S1 12 1 12z" />
      <circle cx="12" cy="12" r="3" />
      {!open && <path d="M3 3l18 18" />}
    </Icon>
  )
}
