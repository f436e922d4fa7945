import { Icon, type IconProps } from './Icon'

/**
 * The shell's icons (top bar, user menu, bottom navigation); the buttons and links carry the
 * names. Drawn for this app. The menu's close button uses CloseIcon.
 */
export const MenuIcon = ({ size = 22, ...props }: IconProps) => (
  <Icon size={size} {...props}>
    <path d="M4 6h16M4 12h16M4 18h16" />
  </Icon>
)

export const PostsIcon = ({ size = 22, ...props }: IconProps) => (
  <Icon size={size} {...props}>
    <rect x="3" y="7" width="18" height="13" rx="2" />
    <path d="M8 7V5a2 2 0 0 1 2-2h4a2 2 0 0 1 2 2v2" />
  </Icon>
)

export const PeopleIcon = ({ size = 22, ...props }: IconProps) => (
  <Icon size={size} {...props}>
    <circle cx="9" cy="8" r="3.5" />
    <path d="M2.5 20a6.5 6.5 0 0 1 13 0M16 4.5a3.5 3.5 0 0 1 0 7M18 14.5a6.5 6.5 0 0 1 3.5 5.5" />
  </Icon>
)

export const PlusIcon = ({ size = 22, ...props }: IconProps) => (
  <Icon size={size} {...props}>
    <circle cx="12" cy="12" r="9" />
    <path d="M12 8v8M8 12h8" />
  </Icon>
)

export const CaretIcon = ({ size = 14, ...props }: IconProps) => (
  <Icon size={size} {...props}>
    <path d="M6 9l6 6 6-6" />
  </Icon>
)

export const MessagesIcon = ({ size = 22, ...props }: IconProps) => (
  <Icon size={size} {...props}>
    <path d="M21 12a8 8 0 0 1-11.6 7.1L4 20.5l1.4-4.9A8 8 0 1 1 21 12z" />
  </Icon>
)
