import { UPLOAD_KEY_PREFIXES } from './limits'

/**
 * The sizes the media service makes of every uploaded picture (docs/media.md "Variants"),
 * so a page downloads what its box needs instead of a 5 MB original. Widths are device
 * pixels; a picture is never enlarged, so a small original yields variants of its own width.
 * `avatar` is a square crop for the round person pictures.
 */
export const PICTURE_VARIANTS = {
  avatar: { width: 160, height: 160 },
  w480: { width: 480 },
  w960: { width: 960 },
  w1280: { width: 1280 },
} as const
export type PictureVariant = keyof typeof PICTURE_VARIANTS

/** The widths a srcset lists for a box wider than an avatar, smallest first. */
export const PICTURE_WIDTH_VARIANTS = ['w480', 'w960', 'w1280'] as const

/**
 * Every variant comes as WebP, and in the original's own format as the fallback for a browser
 * without WebP: a JPEG stays JPEG and a PNG stays PNG; a GIF falls back to PNG (a variant is
 * one frame); a WebP original needs no second format.
 */
export type VariantFormat = 'webp' | 'fallback'

const FALLBACK_EXTENSION: Record<string, string | null> = {
  jpg: 'jpg',
  jpeg: 'jpg',
  png: 'png',
  gif: 'png',
  webp: null,
}

/** True for a key the upload slots hand out (under userImages/ or jobImages/). */
export function isUploadKey(key: string): boolean {
  return Object.values(UPLOAD_KEY_PREFIXES).some((prefix) => key.startsWith(prefix))
}

/** The extension of an original's key, lower case; '' when it has none. */
function extensionOf(key: string): string {
  const name = key.slice(key.lastIndexOf('/') + 1)
  const dot = name.lastIndexOf('.')
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : ''
}

/** The extension of the fallback format for an original, or null when WebP is its format. */
export function fallbackExtensionOf(key: string): string | null {
  return FALLBACK_EXTENSION[extensionOf(key)] ?? null
}

/**
 * Where a variant lives: beside the original, `{key without extension}.{variant}.{ext}`.
 * Slot keys are `{uuid}.{ext}` (one dot), so a variant's key never equals an original's, and
 * it sits under the uploader's prefix: a purge takes it along, the public policy serves it.
 * Null for a fallback the original's format does not have (a WebP original).
 */
export function variantKey(
  key: string,
  variant: PictureVariant,
  format: VariantFormat,
): string | null {
  const extension = extensionOf(key)
  const base = extension ? key.slice(0, -(extension.length + 1)) : key
  if (format === 'webp') return `${base}.${variant}.webp`
  const fallback = fallbackExtensionOf(key)
  return fallback ? `${base}.${variant}.${fallback}` : null
}

/** Every variant key of an original: what the service writes, and removes with it. */
export function allVariantKeys(key: string): string[] {
  const keys: string[] = []
  for (const variant of Object.keys(PICTURE_VARIANTS) as PictureVariant[]) {
    for (const format of ['webp', 'fallback'] as const) {
      const variantKeyOf = variantKey(key, variant, format)
      if (variantKeyOf) keys.push(variantKeyOf)
    }
  }
  return keys
}
