import {
  PICTURE_VARIANTS,
  PICTURE_WIDTH_VARIANTS,
  fallbackExtensionOf,
  isUploadKey,
  variantKey,
  type PictureVariant,
  type VariantFormat,
} from '@marketplace/contracts/marketplace'
import { appConfig } from '@/config/env'

export const NO_IMAGE = '/images/no-image.svg'
export const DEFAULT_PROFILE_PICTURE = '/images/default-profile.svg'

/**
 * Keys under userImages/ or jobImages/ come from the public bucket;
 * absolute and local (blob:, data:) addresses are used as they are; any other path is
 * same-origin; nothing at all gets the placeholder.
 */
export function imageUrl(key: string | null | undefined, fallback: string = NO_IMAGE): string {
  if (!key) return fallback
  if (/^(https?:\/\/|blob:|data:)/.test(key)) return key
  if (isUploadKey(key)) return `${appConfig().publicBucketUrl}/${key}`
  return key.startsWith('/') ? key : `/${key}`
}

/**
 * What a picture's box is for (docs/web-performance.md "Pictures"): a card of a list, a
 * details view, or a small square (a person's round picture, a thumbnail).
 */
export type PictureUse = 'card' | 'details' | 'avatar'

/**
 * The variants a box of each use may choose from. Cards stop at w960, about 100 KB in WebP,
 * even on a phone at DPR 3; details at w1280. The avatar's square crop is 160 px, so a large
 * round box at 2x may take w480 (its object-fit: cover crops it alike).
 */
const CANDIDATES: Record<PictureUse, readonly PictureVariant[]> = {
  card: ['w480', 'w960'],
  details: PICTURE_WIDTH_VARIANTS,
  avatar: ['avatar', 'w480'],
}
/** The img's src, for what reads no srcset. */
const DEFAULT_VARIANT: Record<PictureUse, PictureVariant> = {
  card: 'w480',
  details: 'w960',
  avatar: 'avatar',
}

export interface PictureSources {
  /** The WebP srcset of a <source type="image/webp">; null when the img's own set is WebP. */
  webp: string | null
  /** The img's srcset: the original's format, or WebP for a WebP original. */
  srcSet: string
  /** The img's default. */
  src: string
}

/** The variants' addresses for an upload key's box, or null for anything else (no variants). */
export function pictureSources(
  key: string | null | undefined,
  use: PictureUse,
): PictureSources | null {
  if (!key || !isUploadKey(key)) return null
  const format: VariantFormat = fallbackExtensionOf(key) ? 'fallback' : 'webp'
  const url = (variant: PictureVariant, as: VariantFormat) =>
    `${appConfig().publicBucketUrl}/${variantKey(key, variant, as) ?? ''}`
  const set = (as: VariantFormat) =>
    CANDIDATES[use]
      .map((variant) => `${url(variant, as)} ${PICTURE_VARIANTS[variant].width}w`)
      .join(', ')
  return {
    webp: format === 'fallback' ? set('webp') : null,
    srcSet: set(format),
    src: url(DEFAULT_VARIANT[use], format),
  }
}

/**
 * `sizes` of a card in `.grid` (global.css) beside a 240 px sidebar, as the feed and the
 * settings pages lay it out: one column below 356 px, two to 527 px, then up to 240 px
 * wide on a phone or tablet; on a desktop at most 352 px (two columns of the 1200 px page).
 */
export const GRID_CARD_SIZES =
  '(max-width: 355px) calc(100vw - 24px), (max-width: 527px) calc(50vw - 18px), (max-width: 768px) 240px, 360px'
