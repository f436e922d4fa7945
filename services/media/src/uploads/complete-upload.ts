import type { UploadComplete } from '@marketplace/contracts/api'
import { Messages } from '@marketplace/contracts/validation'
import { BadRequestError, NotFoundError } from '@marketplace/service-kit'
import type { ProcessPicture } from './process-picture'
import type { UploadsRepository } from './uploads-repository'

export interface CompleteUploadDeps {
  uploads: Pick<UploadsRepository, 'findUpload'>
  processPicture: ProcessPicture
}

/**
 * POST /api/upload/complete: the caller's PUT is done; the picture is checked and its sizes
 * made before the form saves the key. Only a slot the caller was handed (its record names
 * them) can be completed: anyone else's key, or a made-up one, is 404 like a missing object.
 */
export async function completeUpload(
  deps: CompleteUploadDeps,
  callerId: string,
  objectKey: string,
): Promise<UploadComplete> {
  const slot = await deps.uploads.findUpload(objectKey)
  if (!slot || slot.userId !== callerId) {
    throw new NotFoundError(Messages.upload.pictureNotFound, 'PICTURE_NOT_FOUND')
  }
  const result = await deps.processPicture(objectKey)
  switch (result.outcome) {
    case 'missing':
      throw new NotFoundError(Messages.upload.pictureNotFound, 'PICTURE_NOT_FOUND')
    case 'refused':
      throw new BadRequestError(Messages.upload.notAPicture, 'NOT_A_PICTURE')
    default:
      return {
        objectKey,
        width: result.width,
        height: result.height,
        variants: result.variants,
      }
  }
}
