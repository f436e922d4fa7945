import sharp from 'sharp'
import {
  PICTURE_VARIANTS,
  variantKey,
  type PictureVariant,
} from '@marketplace/contracts/marketplace'

/**
 * The picture work of the service, with sharp (libvips): well kept, prebuilt for Linux from
 * the npm registry, and it decodes only what a resize needs (a JPEG is shrunk while it is
 * read), so a 5 MB photo turns into eight small files in about a second on one core.
 */

/** More pixels than any phone camera takes: a small file that decodes to gigabytes is refused. */
export const MAX_INPUT_PIXELS = 60_000_000

/** sharp's names of the formats each declared type must really be. */
const FORMAT_OF_TYPE: Record<string, string> = {
  'image/jpeg': 'jpeg',
  'image/jpg': 'jpeg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
}

export class NotAPictureError extends Error {
  constructor(reason: string) {
    super(reason)
    this.name = 'NotAPictureError'
  }
}

export interface PictureFacts {
  width: number
  height: number
}

/**
 * What the bytes really are. The pre-signed PUT fixed the Content-Type and the size, not the
 * content: anything sharp cannot read as that very format is refused.
 */
export async function inspectPicture(bytes: Buffer, declaredType: string): Promise<PictureFacts> {
  const expected = FORMAT_OF_TYPE[declaredType.toLowerCase()]
  if (!expected) throw new NotAPictureError(`not a picture type: ${declaredType}`)
  let metadata: sharp.Metadata
  try {
    metadata = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS }).metadata()
  } catch (error) {
    throw new NotAPictureError(`unreadable as a picture: ${(error as Error).message}`)
  }
  if (metadata.format !== expected) {
    throw new NotAPictureError(`declared ${declaredType}, is ${metadata.format ?? 'unknown'}`)
  }
  const { width, height } = metadata
  if (!width || !height) throw new NotAPictureError('no dimensions')
  if (width * height > MAX_INPUT_PIXELS) {
    throw new NotAPictureError(`${width}x${height} is more than ${MAX_INPUT_PIXELS} pixels`)
  }
  return { width, height }
}

export interface VariantFile {
  key: string
  contentType: string
  body: Buffer
}

const CONTENT_TYPE_OF_EXTENSION: Record<string, string> = {
  webp: 'image/webp',
  jpg: 'image/jpeg',
  png: 'image/png',
}

/**
 * Every variant of the original stored at `key` (contracts' PICTURE_VARIANTS): WebP, and the
 * original's format as the fallback. Oriented by the EXIF tag and stripped of metadata (a
 * phone's GPS position never reaches the public bucket through a variant); never enlarged.
 * Decoding fails here too on a truncated file that inspectPicture's header read accepted.
 */
export async function makeVariants(bytes: Buffer, key: string): Promise<VariantFile[]> {
  const files: VariantFile[] = []
  try {
    for (const [variant, box] of Object.entries(PICTURE_VARIANTS) as Array<
      [PictureVariant, { width: number; height?: number }]
    >) {
      const resized = sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, animated: false })
        .rotate()
        .resize({
          width: box.width,
          height: box.height,
          fit: box.height ? 'cover' : 'inside',
          withoutEnlargement: true,
        })
      for (const format of ['webp', 'fallback'] as const) {
        const target = variantKey(key, variant, format)
        if (!target) continue
        const extension = target.slice(target.lastIndexOf('.') + 1)
        const encoder = resized.clone()
        const body = await (extension === 'webp'
          ? encoder.webp({ quality: 75 })
          : extension === 'png'
            ? encoder.png({ compressionLevel: 9, palette: true })
            : encoder.jpeg({ quality: 78, mozjpeg: true })
        ).toBuffer()
        files.push({ key: target, contentType: CONTENT_TYPE_OF_EXTENSION[extension]!, body })
      }
    }
  } catch (error) {
    throw new NotAPictureError(`could not be decoded: ${(error as Error).message}`)
  }
  return files
}
