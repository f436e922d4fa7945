import type { CredentialDoc } from '../repositories/credentials-repository'

/** The `user` of login and refresh answers (spec 1 §3): never the hash or other secrets. */
export interface UserAnswer {
  _id: string
  firstName: string
  lastName: string
  email: string
  phoneNumber: string
  isWorker: boolean
  roles: string[]
}

export function toUserAnswer(doc: CredentialDoc): UserAnswer {
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
