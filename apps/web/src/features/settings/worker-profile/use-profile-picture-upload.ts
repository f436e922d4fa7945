import { validateProfilePictureFile } from '@marketplace/contracts/validation'
import {
  usePresignedUpload,
  type PresignedUploadRules,
  type PresignedUploadState,
  type PresignedUploadStatus,
} from '@/lib/use-presigned-upload'

export type ProfileUploadStatus = PresignedUploadStatus

/** objectKey is sent as profilePicture; set only once the upload succeeded. */
export type ProfileUploadState = PresignedUploadState

/** Our choice: a failed upload does not block the save. */
export const PROFILE_UPLOAD_FAILED =
  'Your picture could not be uploaded. Your profile will be saved without a new picture.'

/** Any image type but SVG (validateProfilePictureFile). */
const PROFILE_PICTURE: PresignedUploadRules = {
  kind: 'profile',
  validate: validateProfilePictureFile,
  uploadedMessage: 'Picture Uploaded',
  failedMessage: PROFILE_UPLOAD_FAILED,
  onFailure: (failure) => console.error('Profile picture upload failed', failure),
}

/**
 * The profile picture: a slot from the media service, then the file straight to
 * storage with its progress.
 */
export function useProfilePictureUpload() {
  return usePresignedUpload(PROFILE_PICTURE)
}
