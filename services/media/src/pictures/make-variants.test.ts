import sharp from 'sharp'
import { allVariantKeys } from '@marketplace/contracts/marketplace'
import { pngBytes } from '../test/media-test-app'
import { NotAPictureError, inspectPicture, makePictureFiles } from './make-variants'

// sharp on real bytes: what is a picture of its declared type, and what its sizes look like.
describe('picture variants', () => {
  const photo = () =>
    sharp({
      create: { width: 2400, height: 1600, channels: 3, background: { r: 200, g: 120, b: 40 } },
    })
      .jpeg()
      .toBuffer()

  it('knows a picture of its declared type, and its size', async () => {
    expect(await inspectPicture(await photo(), 'image/jpeg')).toEqual({ width: 2400, height: 1600 })
    expect(await inspectPicture(await photo(), 'image/jpg')).toEqual({ width: 2400, height: 1600 })
    expect(await inspectPicture(pngBytes(5, 4), 'image/png')).toEqual({ width: 5, height: 4 })
  })

  it.each([
    ['text declared as PNG', Buffer.from('<html><script>alert(1)</script></html>'), 'image/png'],
    ['a PNG declared as JPEG', pngBytes(5, 4), 'image/jpeg'],
    ['an empty file', Buffer.alloc(0), 'image/gif'],
    ['a PNG declared as an SVG', pngBytes(5, 4), 'image/svg+xml'],
  ])('refuses %s', async (_label, bytes, type) => {
    await expect(inspectPicture(bytes, type)).rejects.toBeInstanceOf(NotAPictureError)
  })

  it('refuses a small file that would decode to more than 60 megapixels', async () => {
    const huge = await sharp({
      create: { width: 10_000, height: 7_000, channels: 3, background: { r: 0, g: 0, b: 0 } },
      limitInputPixels: false,
    })
      .png({ compressionLevel: 9 })
      .toBuffer()
    expect(huge.length).toBeLessThan(5 * 1024 * 1024)
    await expect(inspectPicture(huge, 'image/png')).rejects.toBeInstanceOf(NotAPictureError)
  })

  it('makes every size in WebP and in the original format, never enlarged, the avatar square', async () => {
    const key = 'jobImages/64b7f0c2a1b2c3d4e5f60718/0f4c2a9e-1b7d-4c1e-9a57-3f1e2d4c5b6a.jpg'
    const { variants: files } = await makePictureFiles(await photo(), key)
    expect(files.map((file) => file.key)).toEqual(allVariantKeys(key))
    const sizes: Record<string, { width?: number; height?: number; format?: string }> = {}
    for (const file of files) {
      const { width, height, format } = await sharp(file.body).metadata()
      sizes[file.key.slice(file.key.lastIndexOf('/') + 38)] = { width, height, format }
      expect(file.contentType).toBe(format === 'webp' ? 'image/webp' : 'image/jpeg')
    }
    expect(sizes).toEqual({
      'avatar.webp': { width: 160, height: 160, format: 'webp' },
      'avatar.jpg': { width: 160, height: 160, format: 'jpeg' },
      'w480.webp': { width: 480, height: 320, format: 'webp' },
      'w480.jpg': { width: 480, height: 320, format: 'jpeg' },
      'w960.webp': { width: 960, height: 640, format: 'webp' },
      'w960.jpg': { width: 960, height: 640, format: 'jpeg' },
      'w1280.webp': { width: 1280, height: 853, format: 'webp' },
      'w1280.jpg': { width: 1280, height: 853, format: 'jpeg' },
    })

    // A picture smaller than a size keeps its own width.
    const { variants: small } = await makePictureFiles(pngBytes(300, 200), 'userImages/u/a.png')
    const w960 = small.find((file) => file.key === 'userImages/u/a.w960.png')!
    expect(await sharp(w960.body).metadata()).toMatchObject({ width: 300, height: 200 })
  })

  it('refuses a truncated file whose header looked right', async () => {
    const whole = await photo()
    const truncated = whole.subarray(0, Math.floor(whole.length / 3))
    await expect(
      (async () => {
        await inspectPicture(truncated, 'image/jpeg')
        await makePictureFiles(truncated, 'jobImages/u/a.jpg')
      })(),
    ).rejects.toBeInstanceOf(NotAPictureError)
  })

  it('re-encodes the original with no metadata, turned as its EXIF orientation said', async () => {
    // A phone photo: taller than wide once turned (orientation 6: rotate 90° clockwise), with
    // the GPS position where it was taken.
    const phone = await sharp({
      create: { width: 400, height: 300, channels: 3, background: { r: 10, g: 200, b: 90 } },
    })
      .jpeg()
      .withExif({
        IFD0: { Make: 'PhoneMaker' },
        IFD3: {
          GPSLatitudeRef: 'N',
          GPSLatitude: '40/1 44/1 0/1',
          GPSLongitudeRef: 'W',
          GPSLongitude: '73/1 59/1 0/1',
        },
      })
      .withMetadata({ orientation: 6 })
      .toBuffer()
    const before = await sharp(phone).metadata()
    expect(before.orientation).toBe(6)
    expect(before.exif).toBeDefined()
    expect(before.exif!.toString('latin1')).toContain('PhoneMaker')

    const key = 'jobImages/u/phone.jpg'
    const { original, variants } = await makePictureFiles(phone, key)

    expect(original.key).toBe(key)
    expect(original.contentType).toBe('image/jpeg')
    for (const file of [original, ...variants]) {
      const after = await sharp(file.body).metadata()
      expect({ key: file.key, exif: after.exif, xmp: after.xmp, iptc: after.iptc }).toEqual({
        key: file.key,
        exif: undefined,
        xmp: undefined,
        iptc: undefined,
      })
      expect(after.orientation).toBeUndefined()
      expect(file.body.includes(Buffer.from('PhoneMaker'))).toBe(false)
    }
    expect(await sharp(original.body).metadata()).toMatchObject({ width: 300, height: 400 })
  })

  it('decodes the upload once for the original and all its sizes', async () => {
    const decodes = jest.spyOn(sharp.prototype, 'raw')
    try {
      await makePictureFiles(await photo(), 'jobImages/u/once.jpg')
      expect(decodes).toHaveBeenCalledTimes(1)
    } finally {
      decodes.mockRestore()
    }
  })
})
