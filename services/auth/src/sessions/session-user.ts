import type { SessionUser } from '@marketplace/contracts/api'
import type { CredentialDoc } from '../accounts/credential-document'

/** The `user` of login and refresh answers: never the hash or other secrets. */
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
