import {
  usePresignedUpload,
  type PresignedUploadRules,
  type PresignedUploadState,
  type PresignedUploadStatus,
} from '@/lib/use-presigned-upload'
import { Messages, validatePictureFile } from '@marketplace/contracts/validation'

/** The failure text turns into "No image will be used" after 5 s. */
export const UPLOAD_FAILURE_NOTICE_MS = 5000

export type UploadStatus = PresignedUploadStatus

export type PictureUploadState = PresignedUploadState

/** Only .png, .jpg and .jpeg up to 5 MB (validatePictureFile). */
const POST_PICTURE: PresignedUploadRules = {
  kind: 'post',
  validate: validatePictureFile,
  uploadedMessage: Messages.upload.uploaded,
  failedMessage: Messages.upload.failed,
  laterNotice: { afterMs: UPLOAD_FAILURE_NOTICE_MS, message: Messages.upload.noImageUsed },
}

/**
 * The post picture: the upload starts on pick; a slot is asked
 * for, then the file goes straight to storage with its progress shown.
 */
export function usePictureUpload() {
  return usePresignedUpload(POST_PICTURE)
}
