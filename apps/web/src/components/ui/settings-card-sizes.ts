import type { ListView } from '@/components/ui/ListControls'
import { GRID_CARD_SIZES } from '@/lib/images'

/**
 * `sizes` of a `.settings-card-picture` (list-page.css) in the settings area's lists: a grid
 * column beside the 240 px sidebar, or in a list the 120 px thumbnail, which on a phone
 * spans the card (the page's width less 2 × 12 px).
 */
export const settingsCardSizes = (view: ListView) =>
  view === 'grid' ? GRID_CARD_SIZES : '(max-width: 768px) calc(100vw - 24px), 120px'
