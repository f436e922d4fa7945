import { randomUUID } from 'node:crypto'
import type { UploadSlot } from '@marketplace/contracts/api'
import {
  Messages,
  validatePictureFile,
  validateProfilePictureFile,
  type FileDescription,
} from '@marketplace/contracts/validation'
import {
  UPLOAD_KEY_PREFIXES,
  type PictureType,
  type ProfilePictureType,
} from '@marketplace/contracts/marketplace'
import { BadRequestError } from '@marketplace/service-kit'
import type { PutSigner } from '../storage/put-signer'

/** What the picture is for: a post (spec 1 §5) or the caller's profile (spec 2 §5). */
export type UploadPurpose = 'post' | 'profile'

const RULES = {
  post: { prefix: UPLOAD_KEY_PREFIXES.job, validate: validatePictureFile },
  profile: { prefix: UPLOAD_KEY_PREFIXES.user, validate: validateProfilePictureFile },
} as const

/**
 * The extension comes from the type the signature enforces, never from the file name: a
 * "cat.png.html" declared as image/png is stored as .png and served as image/png. Typed over
 * the contracts' lists, so a type added there does not compile here until it has one.
 */
const EXTENSIONS: Record<PictureType | ProfilePictureType, string> = {
  'image/jpeg': 'jpg',
  'image/jpg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
}

const ERROR_CODES: Record<string, string> = {
  [Messages.upload.noFile]: 'NO_FILE',
  [Messages.upload.invalidType]: 'INVALID_FILE_TYPE',
  [Messages.upload.invalidProfileType]: 'INVALID_FILE_TYPE',
  [Messages.upload.tooLarge]: 'FILE_TOO_LARGE',
}

/**
 * A pre-signed address for one PUT of the described file, under the caller's own prefix
 * (`jobImages/{userId}/` or `userImages/{userId}/`) with a fresh name, so an upload can
 * neither overwrite another user's picture nor one of the caller's earlier ones.
 */
export async function createUploadSlot(
  signPut: PutSigner,
  purpose: UploadPurpose,
  callerId: string,
  file: FileDescription,
): Promise<UploadSlot> {
  const rules = RULES[purpose]
  const problem = rules.validate(file)
  if (problem) throw new BadRequestError(problem, ERROR_CODES[problem])
  const extension = EXTENSIONS[file.type as keyof typeof EXTENSIONS]
  const objectKey = `${rules.prefix}${callerId}/${randomUUID()}.${extension}`
  const presignedUrl = await signPut({
    key: objectKey,
    contentType: file.type,
    contentLength: file.size,
  })
  return { presignedUrl, objectKey }
}

/** The answer to a request that names no file at all (a missing field or no body). */
export function noFileError(): BadRequestError {
  return new BadRequestError(Messages.upload.noFile, 'NO_FILE')
}
