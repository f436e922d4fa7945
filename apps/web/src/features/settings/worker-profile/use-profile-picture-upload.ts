import { useCallback, useEffect, useRef, useState } from 'react'
import { validateProfilePictureFile } from '@marketplace/contracts/validation'
import { useCreateUploadSlotMutation } from '@/features/posts/posts-api'
import { putToPresignedUrl } from '@/lib/upload'

export type ProfileUploadStatus = 'idle' | 'invalid' | 'uploading' | 'uploaded' | 'failed'

export interface ProfileUploadState {
  status: ProfileUploadStatus
  progress: number
  message: string | null
  /** Sent as profilePicture; set only once the upload succeeded. */
  objectKey: string | null
  previewUrl: string | null
}

const IDLE: ProfileUploadState = {
  status: 'idle',
  progress: 0,
  message: null,
  objectKey: null,
  previewUrl: null,
}

/** ours: a failed upload does not block the save (spec 2 §8). */
export const PROFILE_UPLOAD_FAILED =
  'Your picture could not be uploaded. Your profile will be saved without a new picture.'

/**
 * The profile picture (spec 2 §7): a slot from the media service, then the file straight to
 * storage with its progress. Any image type but SVG (validateProfilePictureFile).
 */
export function useProfilePictureUpload() {
  const [createSlot] = useCreateUploadSlotMutation()
  const [state, setState] = useState<ProfileUploadState>(IDLE)
  // A later pick wins over an earlier upload finishing late.
  const attempt = useRef(0)
  const preview = useRef<string | null>(null)

  const release = () => {
    if (preview.current && typeof URL.revokeObjectURL === 'function') {
      URL.revokeObjectURL(preview.current)
    }
    preview.current = null
  }

  useEffect(
    () => () => {
      attempt.current += 1
      release()
    },
    [],
  )

  const pick = useCallback(
    async (file: File | null | undefined) => {
      if (!file) return
      const current = ++attempt.current
      release()
      const problem = validateProfilePictureFile(file)
      if (problem) {
        setState({ ...IDLE, status: 'invalid', message: problem })
        return
      }
      preview.current = typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : null
      setState({ ...IDLE, status: 'uploading', previewUrl: preview.current })
      try {
        const slot = await createSlot({
          kind: 'profile',
          fileName: file.name,
          fileType: file.type,
          fileSize: file.size,
        }).unwrap()
        await putToPresignedUrl(slot.presignedUrl, file, (progress) => {
          if (attempt.current === current) setState((s) => ({ ...s, progress }))
        })
        if (attempt.current !== current) return
        setState((s) => ({
          ...s,
          status: 'uploaded',
          progress: 100,
          message: 'Picture Uploaded',
          objectKey: slot.objectKey,
        }))
      } catch (failure) {
        console.error('Profile picture upload failed', failure)
        if (attempt.current !== current) return
        release()
        setState({ ...IDLE, status: 'failed', message: PROFILE_UPLOAD_FAILED })
      }
    },
    [createSlot],
  )

  return { ...state, uploading: state.status === 'uploading', pick }
}
