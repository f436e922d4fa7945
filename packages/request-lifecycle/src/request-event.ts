import type { DomainEvent, EventData, EventName } from '@marketplace/contracts/events'
import { newEvent } from '@marketplace/service-kit'
import type { RequestDocument } from './request-document'

/** Who acts, and the HTTP request whose id follows into the events. */
export interface CallerContext {
  callerId: string
  requestId?: string
}

/**
 * Who caused an event: a caller, or nobody (null) when a cascade removes a request because
 * something else went (its post, an account at the end of its grace period).
 */
export interface ActorContext {
  callerId: string | null
  requestId?: string
}

/** Builds the event of one step of a request's life; `extra` is what that step knows more. */
export type RequestEventBuilder<Doc extends RequestDocument, Extra = undefined> = (
  request: Doc,
  context: ActorContext,
  extra: Extra,
) => Promise<DomainEvent>

/**
 * The event `type` about a request: the request is the aggregate, the caller the actor, and
 * the HTTP request's id follows into it. The service says only what the data holds.
 */
export function requestEvent<Doc extends RequestDocument, N extends EventName, Extra = undefined>(
  type: N,
  data: (request: Doc, extra: Extra) => Promise<EventData<N>>,
): RequestEventBuilder<Doc, Extra> {
  return async (request, context, extra) =>
    newEvent(type, {
      aggregateId: request._id,
      actorId: context.callerId,
      requestId: context.requestId,
      data: await data(request, extra),
    })
}
