import type {
  UploadComplete,
  UploadCompleteRequest,
  UploadSlot,
  UploadSlotRequest,
} from '@marketplace/contracts/api'
import { api } from '@/lib/api'

/**
 * The pre-signed upload slots of services/media (docs/media.md), for post pictures and
 * profile pictures alike: lib/use-presigned-upload asks for one before each upload, and
 * has the picture checked once the file is in storage.
 */
export const uploadSlotsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** POST /api/upload (post pictures) or /api/upload/user-profile-picture. */
    createUploadSlot: build.mutation<UploadSlot, { kind: 'post' | 'profile' } & UploadSlotRequest>({
      query: ({ kind, ...body }) => ({
        url: kind === 'post' ? '/api/upload' : '/api/upload/user-profile-picture',
        method: 'POST',
        body,
      }),
    }),
    /**
     * POST /api/upload/complete: the uploaded bytes are checked to be a picture of the declared
     * type and its sizes are made; a 400 means they were not, and the object is gone.
     */
    completeUpload: build.mutation<UploadComplete, UploadCompleteRequest>({
      query: (body) => ({ url: '/api/upload/complete', method: 'POST', body }),
    }),
  }),
})

export const { useCreateUploadSlotMutation, useCompleteUploadMutation } = uploadSlotsApi
