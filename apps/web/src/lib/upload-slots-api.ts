import type { UploadSlot, UploadSlotRequest } from '@marketplace/contracts/api'
import { api } from '@/lib/api'

/**
 * The pre-signed upload slots of services/media (docs/media.md), for post pictures and
 * profile pictures alike: lib/use-presigned-upload asks for one before each upload.
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
  }),
})

export const { useCreateUploadSlotMutation } = uploadSlotsApi
