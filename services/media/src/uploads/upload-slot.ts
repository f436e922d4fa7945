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
import { AppError, BadRequestError } from '@marketplace/service-kit'
import type { PutSigner } from '../storage/put-signer'
import { stagingKeyOf } from '../storage/staging-keys'
import { quotaId } from './upload-documents'
import type { UploadsRepository } from './uploads-repository'

/** What the picture is for: a post or the caller's profile. */
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

export interface UploadSlotDeps {
  signPut: PutSigner
  uploads: Pick<UploadsRepository, 'countSlot' | 'recordSlot'>
  /** Slots one user may ask for per UTC day (UPLOADS_PER_DAY). */
  uploadsPerDay: number
  now?: () => Date
}

/**
 * A pre-signed address for one PUT of the described file, under the caller's own prefix
 * (`jobImages/{userId}/` or `userImages/{userId}/`) with a fresh name, so an upload can
 * neither overwrite another user's picture nor one of the caller's earlier ones. A file the
 * rules refuse costs nothing; every slot handed out counts towards the caller's daily quota
 * and is recorded, so the sweep removes it unless a post or a profile takes it up.
 */
export async function createUploadSlot(
  deps: UploadSlotDeps,
  purpose: UploadPurpose,
  callerId: string,
  file: FileDescription,
): Promise<UploadSlot> {
  const rules = RULES[purpose]
  const problem = rules.validate(file)
  if (problem) throw new BadRequestError(problem, ERROR_CODES[problem])
  const at = (deps.now ?? (() => new Date()))()
  const quota = quotaId(callerId, at)
  if ((await deps.uploads.countSlot(quota)) > deps.uploadsPerDay) {
    throw quotaExceededError(deps.uploadsPerDay, at)
  }
  const extension = EXTENSIONS[file.type as keyof typeof EXTENSIONS]
  const objectKey = `${rules.prefix}${callerId}/${randomUUID()}.${extension}`
  // The PUT lands in staging; objectKey is where the checked, cleaned picture is published.
  const presignedUrl = await deps.signPut({
    key: stagingKeyOf(objectKey),
    contentType: file.type,
    contentLength: file.size,
  })
  // Recorded before the address leaves: no object can exist that the sweep does not know.
  await deps.uploads.recordSlot({ key: objectKey, userId: callerId, quotaId: quota, at })
  return { presignedUrl, objectKey }
}

/** 429 until the next UTC midnight, when the caller's count starts again. */
export function quotaExceededError(uploadsPerDay: number, at: Date): AppError {
  const midnight = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + 1)
  const retryAfterSeconds = Math.max(1, Math.ceil((midnight - at.getTime()) / 1000))
  return new AppError(
    429,
    'UPLOAD_QUOTA_EXCEEDED',
    `You have reached today's limit of ${uploadsPerDay} picture uploads. Please try again tomorrow.`,
    { 'retry-after': String(retryAfterSeconds) },
  )
}

/** The answer to a request that names no file at all (a missing field or no body). */
export function noFileError(): BadRequestError {
  return new BadRequestError(Messages.upload.noFile, 'NO_FILE')
}
