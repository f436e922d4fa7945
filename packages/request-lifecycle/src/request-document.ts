import type { RequestStatus } from '@marketplace/contracts/marketplace'
import type { OutboxFields } from '@marketplace/service-kit'

/** What every request document holds, whatever it asks for (a post, a person). */
export interface RequestDocument extends OutboxFields {
  _id: string
  status: RequestStatus
  createdAt: Date
  /** Changes with every decision: the guard that lets one of two parallel decisions land. */
  updatedAt: Date
}

/** The two sides of a request: who sent it, and who received it and decides on it. */
export type RequestRole = 'sender' | 'receiver'

/** The fields of a request document that can hold a user's id. */
export type UserIdField<Doc> = {
  [K in keyof Doc]-?: Doc[K] extends string ? K : never
}[keyof Doc] &
  string

/** Which field of the document names each side (each service names them after its domain). */
export type RequestParties<Doc> = Readonly<Record<RequestRole, UserIdField<Doc>>>

/** What a service fills in to create a request; the lifecycle adds the rest. */
export type NewRequest<Doc extends RequestDocument> = Omit<Doc, keyof RequestDocument>
