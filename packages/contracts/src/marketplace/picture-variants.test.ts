import { allVariantKeys, fallbackExtensionOf, isUploadKey, variantKey } from './picture-variants'

describe('picture variants', () => {
  const jpeg = 'jobImages/64b7f0c2a1b2c3d4e5f60718/0f4c2a9e-1b7d-4c1e-9a57-3f1e2d4c5b6a.jpg'

  it('sit beside the original under the same prefix, one per size and format', () => {
    expect(variantKey(jpeg, 'w480', 'webp')).toBe(
      'jobImages/64b7f0c2a1b2c3d4e5f60718/0f4c2a9e-1b7d-4c1e-9a57-3f1e2d4c5b6a.w480.webp',
    )
    expect(variantKey(jpeg, 'avatar', 'fallback')).toBe(
      'jobImages/64b7f0c2a1b2c3d4e5f60718/0f4c2a9e-1b7d-4c1e-9a57-3f1e2d4c5b6a.avatar.jpg',
    )
    expect(allVariantKeys(jpeg)).toHaveLength(8)
    for (const key of allVariantKeys(jpeg)) {
      expect(key.startsWith('jobImages/64b7f0c2a1b2c3d4e5f60718/')).toBe(true)
      expect(key).not.toBe(jpeg)
    }
  })

  it('fall back to the original format, PNG for a GIF, and only WebP for a WebP original', () => {
    expect(fallbackExtensionOf('userImages/u/a.jpeg')).toBe('jpg')
    expect(fallbackExtensionOf('userImages/u/a.PNG')).toBe('png')
    expect(fallbackExtensionOf('userImages/u/a.gif')).toBe('png')
    expect(fallbackExtensionOf('userImages/u/a.webp')).toBeNull()
    expect(variantKey('userImages/u/a.webp', 'w960', 'fallback')).toBeNull()
    expect(allVariantKeys('userImages/u/a.webp')).toEqual([
      'userImages/u/a.avatar.webp',
      'userImages/u/a.w480.webp',
      'userImages/u/a.w960.webp',
      'userImages/u/a.w1280.webp',
    ])
  })

  it('only upload keys have variants', () => {
    expect(isUploadKey(jpeg)).toBe(true)
    expect(isUploadKey('/images/no-image.svg')).toBe(false)
    expect(isUploadKey('https://example.com/a.jpg')).toBe(false)
  })
})
