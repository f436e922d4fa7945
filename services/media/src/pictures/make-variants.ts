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
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
}

/** What an upload becomes: its original, cleaned, and its sizes. */
export interface PictureFiles {
  /** The original re-encoded at full size under its public key, with no metadata. */
  original: VariantFile
  variants: VariantFile[]
}

/**
 * The public original and every variant (contracts' PICTURE_VARIANTS: WebP, and the
 * original's format as the fallback) of the bytes uploaded for `key`, from one decode.
 *
 * The original is re-encoded, not copied: a phone photo carries EXIF (the GPS position where
 * it was taken, the camera, the time) and the original is served publicly, so a copy would
 * tell anyone where a post's hidden location is. sharp writes no metadata unless asked
 * (`withMetadata`), and `rotate()` first turns the pixels as the EXIF orientation says, so the
 * picture still stands the right way up once the tag is gone. sharp is the library the service
 * already uses for the sizes (libvips: fast, streaming, well kept).
 *
 * The picture is decoded once, to raw pixels, and every file is encoded from those: a 60 MP
 * upload costs one decode, not one per size. Never enlarged. Decoding fails here too on a
 * truncated file that inspectPicture's header read accepted.
 */
export async function makePictureFiles(bytes: Buffer, key: string): Promise<PictureFiles> {
  let pixels: { data: Buffer; info: sharp.OutputInfo }
  try {
    pixels = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, animated: false })
      .rotate()
      .raw()
      .toBuffer({ resolveWithObject: true })
  } catch (error) {
    throw new NotAPictureError(`could not be decoded: ${(error as Error).message}`)
  }
  const { width, height, channels } = pixels.info
  const decoded = () =>
    sharp(pixels.data, {
      raw: { width, height, channels: channels as 1 | 2 | 3 | 4 },
      limitInputPixels: MAX_INPUT_PIXELS,
    })
  const extensionOfKey = key.slice(key.lastIndexOf('.') + 1).toLowerCase()
  const original: VariantFile = {
    key,
    contentType: CONTENT_TYPE_OF_EXTENSION[extensionOfKey] ?? 'application/octet-stream',
    body: await encode(decoded(), extensionOfKey, 'original'),
  }
  const variants: VariantFile[] = []
  for (const [variant, box] of Object.entries(PICTURE_VARIANTS) as Array<
    [PictureVariant, { width: number; height?: number }]
  >) {
    const resized = decoded().resize({
      width: box.width,
      height: box.height,
      fit: box.height ? 'cover' : 'inside',
      withoutEnlargement: true,
    })
    for (const format of ['webp', 'fallback'] as const) {
      const target = variantKey(key, variant, format)
      if (!target) continue
      const extension = target.slice(target.lastIndexOf('.') + 1)
      variants.push({
        key: target,
        contentType: CONTENT_TYPE_OF_EXTENSION[extension]!,
        body: await encode(resized.clone(), extension, 'variant'),
      })
    }
  }
  return { original, variants }
}

/**
 * One file in the format its extension names. The original keeps a high quality (it is what
 * a client that asks for the full picture gets); the sizes are tuned for the screen.
 */
function encode(image: sharp.Sharp, extension: string, role: 'original' | 'variant') {
  const original = role === 'original'
  switch (extension) {
    case 'webp':
      return image.webp({ quality: original ? 90 : 75 }).toBuffer()
    case 'png':
      return image.png({ compressionLevel: 9, palette: !original }).toBuffer()
    case 'gif':
      return image.gif().toBuffer()
    default:
      return image.jpeg({ quality: original ? 90 : 78, mozjpeg: true }).toBuffer()
  }
}
