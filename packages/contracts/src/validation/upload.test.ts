import { Value } from '@sinclair/typebox/value'
import {
  UPLOAD_CACHE_CONTROL,
  UploadRequestSchema,
  validatePictureFile,
  validateProfilePictureFile,
} from './upload'

const FIVE_MB = 5 * 1024 * 1024

describe('validatePictureFile', () => {
  it.each(['image/jpeg', 'image/png', 'image/jpg'])('accepts %p', (type) => {
    expect(validatePictureFile({ type, size: 1000 })).toBeNull()
  })

  it.each(['image/gif', 'image/webp', 'image/svg+xml', 'application/pdf', ''])(
    'refuses %p',
    (type) => {
      expect(validatePictureFile({ type, size: 1000 })).toBe(
        'Error: Only .png, .jpg, and .jpeg formats allowed!',
      )
    },
  )

  it('accepts exactly 5 MB', () => {
    expect(validatePictureFile({ type: 'image/png', size: FIVE_MB })).toBeNull()
  })

  it('refuses one byte over 5 MB', () => {
    expect(validatePictureFile({ type: 'image/png', size: FIVE_MB + 1 })).toBe(
      'Error: File size exceeds 5MB limit',
    )
  })

  it('accepts an empty file', () => {
    expect(validatePictureFile({ type: 'image/png', size: 0 })).toBeNull()
  })

  it('reports the format before the size', () => {
    expect(validatePictureFile({ type: 'image/gif', size: FIVE_MB * 2 })).toBe(
      'Error: Only .png, .jpg, and .jpeg formats allowed!',
    )
  })

  it('asks for a file when there is none', () => {
    expect(validatePictureFile(null)).toBe('Please select a file first!')
    expect(validatePictureFile(undefined)).toBe('Please select a file first!')
  })
})

describe('validateProfilePictureFile', () => {
  it.each(['image/jpeg', 'image/jpg', 'image/png', 'image/webp', 'image/gif'])(
    'accepts %p',
    (type) => {
      expect(validateProfilePictureFile({ type, size: 1000 })).toBeNull()
    },
  )

  it.each(['image/svg+xml', 'image/tiff', 'text/html', ''])('refuses %p', (type) => {
    expect(validateProfilePictureFile({ type, size: 1000 })).toBe(
      'Error: Only .png, .jpg, .jpeg, .webp and .gif formats allowed!',
    )
  })

  it('accepts exactly 5 MB and refuses one byte more', () => {
    expect(validateProfilePictureFile({ type: 'image/webp', size: FIVE_MB })).toBeNull()
    expect(validateProfilePictureFile({ type: 'image/webp', size: FIVE_MB + 1 })).toBe(
      'Error: File size exceeds 5MB limit',
    )
  })

  it('asks for a file when there is none', () => {
    expect(validateProfilePictureFile(null)).toBe('Please select a file first!')
  })
})

describe('UploadRequestSchema', () => {
  it('accepts fileName, fileType and fileSize', () => {
    expect(
      Value.Check(UploadRequestSchema, { fileName: 'a.png', fileType: 'image/png', fileSize: 10 }),
    ).toBe(true)
  })

  it('refuses an empty name, a negative or fractional size', () => {
    const base = { fileName: 'a.png', fileType: 'image/png', fileSize: 10 }
    expect(Value.Check(UploadRequestSchema, { ...base, fileName: '' })).toBe(false)
    expect(Value.Check(UploadRequestSchema, { ...base, fileSize: -1 })).toBe(false)
    expect(Value.Check(UploadRequestSchema, { ...base, fileSize: 1.5 })).toBe(false)
  })
})

describe('UPLOAD_CACHE_CONTROL', () => {
  it('caches an uploaded picture publicly for one year', () => {
    expect(UPLOAD_CACHE_CONTROL).toBe('public, max-age=31536000, immutable')
  })
})
