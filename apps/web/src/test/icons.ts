/**
 * The app's own icons in tests (components/icons): inline SVG, decorative (aria-hidden, not
 * focusable), drawn with currentColor, so the name stays in the text or the aria-label.
 */
export function iconsIn(element: Element): SVGSVGElement[] {
  return Array.from(element.querySelectorAll('svg'))
}

/** The one icon inside the element, after checking that it is decorative. */
export function decorativeIcon(element: Element): SVGSVGElement {
  const icons = iconsIn(element)
  expect(icons).toHaveLength(1)
  const [icon] = icons
  expect(icon).toHaveAttribute('aria-hidden', 'true')
  expect(icon).toHaveAttribute('focusable', 'false')
  expect(icon).toHaveAttribute('stroke', 'currentColor')
  return icon!
}

/** Whether the icon is drawn filled (a saved heart, a rating star) or as an outline. */
export const isFilled = (icon: SVGSVGElement) => icon.getAttribute('fill') === 'currentColor'
