import { useCallback, useEffect, useRef, useState } from 'react'
import { Messages } from '@marketplace/contracts/validation'
import { errorMessage, errorStatus } from '@/lib/api'
import { useCompleteUploadMutation, useCreateUploadSlotMutation } from '@/lib/upload-slots-api'
import { putToPresignedUrl } from '@/lib/upload'

/**
 * `checking`: the file is in storage and the media service checks it and makes its sizes;
 * `refused`: it was not a picture of its declared type, and is gone.
 */
export type PresignedUploadStatus =
  'idle' | 'invalid' | 'uploading' | 'checking' | 'uploaded' | 'failed' | 'refused'

/** Shown while POST /api/upload/complete runs (a second or two). */
export const CHECKING_PICTURE = 'Checking the picture…'

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
 * file goes straight to storage at the pre-signed address with its progress shown, and the
 * media service checks the stored bytes and makes the picture's sizes (POST /api/upload/complete).
 */
export function usePresignedUpload(rules: PresignedUploadRules) {
  const { kind, validate, uploadedMessage, failedMessage, onFailure, laterNotice } = rules
  const [createSlot] = useCreateUploadSlotMutation()
  const [completeUpload] = useCompleteUploadMutation()
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
        setState((s) => ({ ...s, status: 'checking', progress: 100, message: CHECKING_PICTURE }))
        try {
          await completeUpload({ objectKey: slot.objectKey }).unwrap()
        } catch (failure) {
          const status = errorStatus(failure)
          if (status === 400) {
            // Not a picture of its declared type: the service removed it, so the post or
            // profile goes without it, and the person reads why.
            if (attempt.current !== current) return
            releasePreview()
            setState({
              ...IDLE,
              status: 'refused',
              message: errorMessage(failure, Messages.upload.notAPicture),
            })
            return
          }
          // 404: no such upload of this person's; the key is worth nothing, as after a failed PUT.
          if (status === 404) throw failure
          // A network failure, a 5xx or anything else: the file is stored, so the key is kept.
          // The media service also makes the sizes when the post or the profile is saved with
          // it; until then the pages fall back to the original.
        }
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
    [
      createSlot,
      completeUpload,
      kind,
      validate,
      uploadedMessage,
      failedMessage,
      onFailure,
      laterNotice,
    ],
  )

  return {
    ...state,
    /** The file is on its way to storage: its progress is worth showing. */
    uploading: state.status === 'uploading',
    /** Uploading or checking: the form waits, as the key is not known to be good yet. */
    busy: state.status === 'uploading' || state.status === 'checking',
    /** The message is a problem (role alert), not news (role status). */
    failed: state.status === 'invalid' || state.status === 'failed' || state.status === 'refused',
    pick,
    reset,
  }
}
