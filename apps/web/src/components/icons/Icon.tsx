import type { ReactNode } from 'react'

/**
 * The frame of the app's own icons (docs/web-app.md "Icons"): a 24x24 inline SVG drawn with
 * currentColor, decorative (aria-hidden, not focusable), so the name stays in the text or the
 * aria-label beside it. The app uses no emoji as icons: Chromium on a fresh Debian has no
 * emoji font and draws them as empty boxes.
 *
 * Each icon is its own small module (or a module per page that alone uses them), so a page
 * that is loaded lazily carries its icons in its own chunk, not in the home route's.
 */
export interface IconProps {
  /** Width and height in CSS pixels (default 20). */
  size?: number
  className?: string
}

export function Icon({
  size = 20,
  className,
  filled = false,
  children,
}: IconProps & { filled?: boolean; children: ReactNode }) {
  return (
    <svg
      className={className ? `icon ${className}` : 'icon'}
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill={filled ? 'currentColor' : 'none'}
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {children}
    </svg>
  )
}
