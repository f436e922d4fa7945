import { api } from '@/lib/api'

export interface UploadSlot {
  presignedUrl: string
  objectKey: string
}

/**
 * The pre-signed upload slots of services/media (docs/media.md), for post pictures and
 * profile pictures alike: lib/use-presigned-upload asks for one before each upload.
 */
export const uploadSlotsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** POST /api/upload (post pictures) or /api/upload/user-profile-picture. */
    createUploadSlot: build.mutation<
      UploadSlot,
      { kind: 'post' | 'profile'; fileName: string; fileType: string; fileSize: number }
    >({
      query: ({ kind, ...body }) => ({
        url: kind === 'post' ? '/api/upload' : '/api/upload/user-profile-picture',
        method: 'POST',
        body,
      }),
    }),
  }),
})

export const { useCreateUploadSlotMutation } = uploadSlotsApi
