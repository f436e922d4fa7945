import { Icon, type IconProps } from './Icon'

/**
 * The icons of the six "Before You Go..." cards (settings, account deletion). Only that lazy
 * page imports this module, so they stay out of the home route's chunk. The bell and the star
 * are the app's own BellIcon and StarIcon. Banknote, link, target and leaf follow Lucide
 * (lucide.dev, ISC licence) and Feather (feathericons.com, MIT).
 */
export function BanknoteIcon({ size = 32, ...props }: IconProps) {
  return (
    <Icon size={size} {...props}>
      <rect x="2" y="6" width="20" height="12" rx="2" />
      <circle cx="12" cy="12" r="2" />
      <path d="M6 12h.01M18 12h.01" />
    </Icon>
  )
}

export function LinkIcon({ size = 32, ...props }: IconProps) {
  return (
    <Icon size={size} {...props}>
      <path d="M10 13a5 5 0 0 0 7.54.54l3-3a5 5 0 0 0-7.07-7.07l-1.72 1.71" />
      <path d="M14 11a5 5 0 0 0-7.54-.54l-3 3a5 5 0 0 0 7.07 7.07l1.71-1.71" />
    </Icon>
  )
}

export function TargetIcon({ size = 32, ...props }: IconProps) {
  return (
    <Icon size={size} {...props}>
      <circle cx="12" cy="12" r="10" />
      <circle cx="12" cy="12" r="6" />
      <circle cx="12" cy="12" r="2" />
    </Icon>
  )
}

export function LeafIcon({ size = 32, ...props }: IconProps) {
  return (
    <Icon size={size} {...props}>
      <path d="M11 20A7 7 0 0 1 9.8 6.1C15.5 5 17 4.48 19 2c1 2 2 4.18 2 8 0 5.5-4.78 10-10 10Z" />
      <path d="M2 21c0-3 1.85-5.36 5.08-6C9.5 14.52 12 13 13 12" />
    </Icon>
  )
}
