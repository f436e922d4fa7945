import { Icon, type IconProps } from './Icon'

/** A curved arrow back, for undoing a decision. Lucide's "undo-2" (lucide.dev, ISC licence). */
export function UndoIcon({ size = 18, ...props }: IconProps) {
  return (
    <Icon size={size} {...props}>
      <path d="M9 14 4 9l5-5" />
      <path d="M4 9h10.5a5.5 5.5 0 0 1 5.5 5.5 5.5 5.5 0 0 1-5.5 5.5H11" />
    </Icon>
  )
}
