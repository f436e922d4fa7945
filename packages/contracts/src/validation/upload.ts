import { Type, type Static } from '@sinclair/typebox'
import {
  PICTURE_ALLOWED_TYPES,
  PICTURE_MAX_BYTES,
  PROFILE_PICTURE_ALLOWED_TYPES,
  PROFILE_PICTURE_MAX_BYTES,
  UPLOAD_CACHE_MAX_AGE_SECONDS,
} from '../marketplace/limits'
import { Messages } from './messages'

/** What is checked of a picked file: a browser File has both, and so does an upload request. */
export interface FileDescription {
  type: string
  size: number
}

/**
 * Post picture: image/jpeg, image/png or image/jpg, at most 5 MB; no file at all
 * is "Please select a file first!". Type is checked before size, so a large .gif reports
 * the format, which is what the user must change first.
 */
export function validatePictureFile(file: FileDescription | null | undefined): string | null {
  if (!file) return Messages.upload.noFile
  if (!(PICTURE_ALLOWED_TYPES as readonly string[]).includes(file.type)) {
    return Messages.upload.invalidType
  }
  return file.size > PICTURE_MAX_BYTES ? Messages.upload.tooLarge : null
}

/**
 * Profile picture (the product's copy: "any image type"): narrowed to jpeg, jpg, png, webp and gif;
 * SVG is refused because it can carry script and is served from a public bucket. Same 5 MB
 * cap as post pictures.
 */
export function validateProfilePictureFile(
  file: FileDescription | null | undefined,
): string | null {
  if (!file) return Messages.upload.noFile
  if (!(PROFILE_PICTURE_ALLOWED_TYPES as readonly string[]).includes(file.type)) {
    return Messages.upload.invalidProfileType
  }
  return file.size > PROFILE_PICTURE_MAX_BYTES ? Messages.upload.tooLarge : null
}

/**
 * Body of POST /api/upload and POST /api/upload/user-profile-picture.
 * The services run `validatePictureFile` / `validateProfilePictureFile` on
 * { type: fileType, size: fileSize } before signing an address.
 */
export const UploadRequestSchema = Type.Object({
  fileName: Type.String({ minLength: 1, maxLength: 255 }),
  fileType: Type.String(),
  fileSize: Type.Integer({ minimum: 0 }),
})
export type UploadRequest = Static<typeof UploadRequestSchema>

/**
 * The Cache-Control header the browser sends with the PUT to a pre-signed address (the
 * product's "cache control of one year"). The media service signs this exact value into the
 * address, so the web app must send it byte for byte or storage refuses the upload. Keys are
 * never reused (a new picture gets a new key), hence `immutable`.
 */
export const UPLOAD_CACHE_CONTROL = `public, max-age=${UPLOAD_CACHE_MAX_AGE_SECONDS}, immutable`
