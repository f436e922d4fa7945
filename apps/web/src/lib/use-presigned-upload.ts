import { useCallback, useEffect, useRef, useState } from 'react'
import { useCreateUploadSlotMutation } from '@/lib/upload-slots-api'
import { putToPresignedUrl } from '@/lib/upload'

export type PresignedUploadStatus = 'idle' | 'invalid' | 'uploading' | 'uploaded' | 'failed'

export interface PresignedUploadState {
  status: PresignedUploadStatus
  progress: number
  message: string | null
  /** The object key to send with the form; set only once the upload succeeded. */
  objectKey: string | null
  /** A local preview of the picked file, while it is kept. */
  previewUrl: string | null
}

const IDLE: PresignedUploadState = {
  status: 'idle',
  progress: 0,
  message: null,
  objectKey: null,
  previewUrl: null,
}

/** What differs between the pictures: each feature brings its own rules and messages. */
export interface PresignedUploadRules {
  /** Which upload slot services/media hands out. */
  kind: 'post' | 'profile'
  /** The file's problem, or null when it may be uploaded. */
  validate: (file: File) => string | null
  uploadedMessage: string
  failedMessage: string
  /** Called with the error of a failed slot request or PUT. */
  onFailure?: (failure: unknown) => void
  /** A message that replaces the failure message after a delay. */
  laterNotice?: { afterMs: number; message: string }
}

const objectUrlOf = (file: File) =>
  typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : null

/**
 * A picture upload that starts on pick: the file is checked, a slot is asked for, then the
 * file goes straight to storage at the pre-signed address with its progress shown.
 */
export function usePresignedUpload(rules: PresignedUploadRules) {
  const { kind, validate, uploadedMessage, failedMessage, onFailure, laterNotice } = rules
  const [createSlot] = useCreateUploadSlotMutation()
  const [state, setState] = useState<PresignedUploadState>(IDLE)
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
      const problem = validate(file)
      if (problem) {
        setState({ ...IDLE, status: 'invalid', message: problem })
        return
      }
      previewUrl.current = objectUrlOf(file)
      setState({ ...IDLE, status: 'uploading', previewUrl: previewUrl.current })
      try {
        const slot = await createSlot({
          kind,
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
          message: uploadedMessage,
          objectKey: slot.objectKey,
        }))
      } catch (failure) {
        onFailure?.(failure)
        if (attempt.current !== current) return
        releasePreview()
        setState({ ...IDLE, status: 'failed', message: failedMessage })
        if (laterNotice) {
          noticeTimer.current = setTimeout(() => {
            if (attempt.current === current) {
              setState((s) => ({ ...s, message: laterNotice.message }))
            }
          }, laterNotice.afterMs)
        }
      }
    },
    [createSlot, kind, validate, uploadedMessage, failedMessage, onFailure, laterNotice],
  )

  return { ...state, uploading: state.status === 'uploading', pick, reset }
}
