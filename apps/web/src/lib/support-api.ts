import type { SupportMessageRequest, SupportMessageSent } from '@marketplace/contracts/api'
import { api } from '@/lib/api'

/**
 * POST /api/email/send-email: a message to support, from Help & Support and
 * from Contact us, two features with one endpoint between them.
 */
export const supportApi = api.injectEndpoints({
  endpoints: (build) => ({
    sendSupportMessage: build.mutation<SupportMessageSent, Required<SupportMessageRequest>>({
      query: (body) => ({ url: '/api/email/send-email', method: 'POST', body }),
    }),
  }),
})

export const { useSendSupportMessageMutation } = supportApi
