import { useState, type ImgHTMLAttributes } from 'react'
import { NO_IMAGE, imageUrl, pictureSources, type PictureUse } from '@/lib/images'

type PictureProps = Omit<ImgHTMLAttributes<HTMLImageElement>, 'src' | 'srcSet' | 'sizes'> & {
  /** An upload key, a same-origin path or an address (a local preview); none: the placeholder. */
  picture: string | null | undefined
  use: PictureUse
  /** The box's width as its stylesheet sets it, for the browser's choice of variant. */
  sizes: string
  /** What stands in for no picture, and for one that cannot be loaded at all. */
  placeholder?: string
}

/**
 * A picture sized for its box (docs/web-performance.md "Pictures"): for an upload key, the
 * media service's variants in WebP and the original's format, chosen with srcset and sizes.
 * A variant that fails (not made yet, or its job failed) gives way to the original, and the
 * original to the placeholder. Anything else is a plain img. The img takes every other
 * attribute (class, width, height, loading...), so the box stays as it was; global.css
 * lays `picture` out as `display: contents`.
 */
export function Picture({ picture, use, sizes, placeholder = NO_IMAGE, ...img }: PictureProps) {
  // How far this picture fell back: 1 the original, 2 the placeholder. Kept with the picture
  // it is about, so a new picture starts with its variants again.
  const [failed, setFailed] = useState<{ of: string; stage: 1 | 2 } | null>(null)
  const stage = picture && failed?.of === picture ? failed.stage : 0
  const sources = stage === 0 ? pictureSources(picture, use) : null
  if (!sources) {
    return (
      <img
        {...img}
        src={stage === 2 ? placeholder : imageUrl(picture, placeholder)}
        onError={stage === 1 ? () => setFailed({ of: picture!, stage: 2 }) : undefined}
      />
    )
  }
  return (
    <picture>
      {sources.webp && <source type="image/webp" srcSet={sources.webp} sizes={sizes} />}
      <img
        {...img}
        src={sources.src}
        srcSet={sources.srcSet}
        sizes={sizes}
        onError={() => setFailed({ of: picture!, stage: 1 })}
      />
    </picture>
  )
}
