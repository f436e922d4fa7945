import { useCallback, useEffect, useRef, useState } from 'react'
import { useCreateUploadSlotMutation } from '@/features/posts/posts-api'
import { putToPresignedUrl } from '@/lib/upload'
import { Messages, validatePictureFile } from '@marketplace/contracts/validation'

/** spec 1 §8, §9: the failure text turns into "No image will be used" after 5 s. */
export const UPLOAD_FAILURE_NOTICE_MS = 5000

export type UploadStatus = 'idle' | 'invalid' | 'uploading' | 'uploaded' | 'failed'

export interface PictureUploadState {
  status: UploadStatus
  progress: number
  message: string | null
  /** The object key to send as jobPicture; set only once the upload succeeded. */
  objectKey: string | null
  /** A local preview of the picked file, while it is kept. */
  previewUrl: string | null
}

const IDLE: PictureUploadState = {
  status: 'idle',
  progress: 0,
  message: null,
  objectKey: null,
  previewUrl: null,
}

const objectUrlOf = (file: File) =>
  typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : null

/**
 * The post picture (spec 1 §4 "Picture upload"): the upload starts on pick; a slot is asked
 * for, then the file goes straight to storage with its progress shown.
 */
export function usePictureUpload() {
  const [createSlot] = useCreateUploadSlotMutation()
  const [state, setState] = useState<PictureUploadState>(IDLE)
  // Each pick gets a number: an older upload finishing late must not overwrite a newer one.
  const attempt = useRef(0)
  const noticeTimer = useRef<ReturnType<typeof setTimeout> | null>(null)
  const previewUrl = useRef<string | null>(null)

  const clearTimer = () => {
    if (noticeTimer.current) clearTimeout(noticeTimer.current)
    noticeTimer.current = null
  }
  const releasePreview = () => {
    if (previewUrl.current && typeof URL.revokeObjectURL === 'function') {
      URL.revokeObjectURL(previewUrl.current)
    }
    previewUrl.current = null
  }

  useEffect(
    () => () => {
      attempt.current += 1
      clearTimer()
      releasePreview()
    },
    [],
  )

  const reset = useCallback(() => {
    attempt.current += 1
    clearTimer()
    releasePreview()
    setState(IDLE)
  }, [])

  const pick = useCallback(
    async (file: File | null | undefined) => {
      if (!file) return
      const current = ++attempt.current
      clearTimer()
      releasePreview()
      const problem = validatePictureFile(file)
      if (problem) {
        setState({ ...IDLE, status: 'invalid', message: problem })
        return
      }
      previewUrl.current = objectUrlOf(file)
      setState({ ...IDLE, status: 'uploading', previewUrl: previewUrl.current })
      try {
        const slot = await createSlot({
          kind: 'post',
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
          message: Messages.upload.uploaded,
          objectKey: slot.objectKey,
        }))
      } catch {
        if (attempt.current !== current) return
        releasePreview()
        setState({ ...IDLE, status: 'failed', message: Messages.upload.failed })
        noticeTimer.current = setTimeout(() => {
          if (attempt.current === current) {
            setState((s) => ({ ...s, message: Messages.upload.noImageUsed }))
          }
        }, UPLOAD_FAILURE_NOTICE_MS)
      }
    },
    [createSlot],
  )

  return { ...state, uploading: state.status === 'uploading', pick, reset }
}
