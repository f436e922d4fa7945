import type {
  ChangePasswordAnswer,
  LoginAnswer,
  SessionRenewalAnswer,
} from '@marketplace/contracts/api'
import type { IssuedSession } from './sessions-service'

/** direct-login and keep-account; the refresh and XSRF tokens travel as cookies only. */
export function toLoginAnswer(session: IssuedSession): LoginAnswer {
  return { user: session.user, accessToken: session.accessToken }
}

/** refresh: the web app reads accessToken, user and roles. */
export function toRenewalAnswer(session: IssuedSession): SessionRenewalAnswer {
  return { accessToken: session.accessToken, user: session.user, roles: session.user.roles }
}

export function toChangePasswordAnswer(
  session: IssuedSession & { message: string },
): ChangePasswordAnswer {
  return {
    message: session.message,
    accessToken: session.accessToken,
    user: session.user,
    roles: session.user.roles,
  }
}
