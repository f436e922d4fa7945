import type {
  ChangePasswordAnswer,
  LoginAnswer,
  SessionRenewalAnswer,
  SessionUser,
} from '@marketplace/contracts/api'
import type { CredentialDoc } from '../accounts/credential-document'
import type { IssuedSession } from './sessions-service'

/** The `user` of login and refresh answers (spec 1 §3): never the hash or other secrets. */
export function toSessionUser(doc: CredentialDoc): SessionUser {
  return {
    _id: doc._id,
    firstName: doc.firstName,
    lastName: doc.lastName,
    email: doc.email,
    phoneNumber: doc.phoneNumber,
    isWorker: doc.isWorker,
    roles: doc.roles,
  }
}

/** direct-login and keep-account; the refresh and XSRF tokens travel as cookies only. */
export function toLoginAnswer(session: IssuedSession): LoginAnswer {
  return { user: session.user, accessToken: session.accessToken }
}

/** refresh: spec 1 §7 reads accessToken, user and roles. */
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
