import { api } from '@/lib/api'

/**
 * Two-step sign-in settings (services/auth/src/two-step). The shapes are the
 * auth service's two-step schemas, which live with that feature rather than in contracts.
 */
export interface TwoStepStatus {
  email: boolean
  authenticator: boolean
  recoveryCodesLeft: number
}

export interface TwoStepChange {
  message: string
  status: TwoStepStatus
}

export interface AuthenticatorSetup {
  secret: string
  otpauthUri: string
  /** An SVG data URL drawn by the server, so the bundle carries no QR library. */
  qrCode: string
}

export interface AuthenticatorConfirm extends TwoStepChange {
  /** Shown once: only their hashes are kept. */
  recoveryCodes: string[]
}

export const securityApi = api.injectEndpoints({
  endpoints: (build) => ({
    getTwoStep: build.query<TwoStepStatus, void>({
      query: () => '/api/auth/two-step',
    }),
    setEmailTwoStep: build.mutation<TwoStepChange, { enabled: boolean; password: string }>({
      query: (body) => ({ url: '/api/auth/two-step/email', method: 'PUT', body }),
      onQueryStarted: (_arg, { dispatch, queryFulfilled }) => storeStatus(dispatch, queryFulfilled),
    }),
    startAuthenticatorSetup: build.mutation<AuthenticatorSetup, { password: string }>({
      query: (body) => ({ url: '/api/auth/two-step/authenticator/setup', method: 'POST', body }),
    }),
    confirmAuthenticatorSetup: build.mutation<AuthenticatorConfirm, { code: string }>({
      query: (body) => ({ url: '/api/auth/two-step/authenticator/confirm', method: 'POST', body }),
      onQueryStarted: (_arg, { dispatch, queryFulfilled }) => storeStatus(dispatch, queryFulfilled),
    }),
    disableAuthenticator: build.mutation<TwoStepChange, { password: string }>({
      query: (body) => ({ url: '/api/auth/two-step/authenticator/disable', method: 'POST', body }),
      onQueryStarted: (_arg, { dispatch, queryFulfilled }) => storeStatus(dispatch, queryFulfilled),
    }),
  }),
})

/** Every change answers the new status: the page shows it without a second request. */
async function storeStatus(
  dispatch: (action: unknown) => unknown,
  answer: Promise<{ data: { status: TwoStepStatus } }>,
) {
  try {
    const { data } = await answer
    dispatch(securityApi.util.upsertQueryData('getTwoStep', undefined, data.status))
  } catch {
    // The page shows the error; the cached status stays as it was.
  }
}

export const {
  useGetTwoStepQuery,
  useSetEmailTwoStepMutation,
  useStartAuthenticatorSetupMutation,
  useConfirmAuthenticatorSetupMutation,
  useDisableAuthenticatorMutation,
} = securityApi
