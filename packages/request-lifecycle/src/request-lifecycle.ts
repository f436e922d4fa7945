import type { DomainEvent } from '@marketplace/contracts/events'
import { Messages } from '@marketplace/contracts/validation'
import { BadRequestError, ConflictError, NotFoundError } from '@marketplace/service-kit'
import { isDecisionStatus, refusalOf, type DecisionRules, type Refusal } from './decision-rules'
import type { ActorContext, CallerContext, RequestEventBuilder } from './request-event'
import type { NewRequest, RequestDocument, RequestRole } from './request-document'
import { DuplicateRequestError, type RequestStore } from './request-store'
import { isObjectIdHex } from './object-id'

/** The part of a request store the lifecycle writes through. */
export type LifecycleStore<Doc extends RequestDocument> = Pick<
  RequestStore<Doc>,
  'parties' | 'newId' | 'insert' | 'findById' | 'saveDecision' | 'delete'
>

export interface RequestLifecycleOptions<Doc extends RequestDocument, Hint> {
  store: LifecycleStore<Doc>
  decisions: DecisionRules
  /** 409 for a second request the unique index refuses. */
  duplicate: Refusal
  /** The event each step writes into the outbox with its change, in the same write. */
  events: {
    /** `hint` is what `create` was given, so data the service already read is not read again. */
    created: RequestEventBuilder<Doc, Hint | undefined>
    decided: RequestEventBuilder<Doc>
    /** `extra` is the side of the caller who deleted it. */
    deleted: RequestEventBuilder<Doc, RequestRole>
  }
  now?: () => Date
}

/** Only the receiver decides. */
const DECIDER: readonly RequestRole[] = ['receiver']

/**
 * The life of a request, the same for requests on posts and requests to people: it is
 * created pending (once per unique key: 409 after), read only by its two sides (404 for
 * anyone else, so nobody learns which requests exist), decided by its receiver as the
 * decision rules allow, and deleted by whichever sides the service lets. Each step writes its
 * event with its change; the service checks what comes before a step and does what follows
 * one (its views, the access a decision grants).
 */
export function createRequestLifecycle<Doc extends RequestDocument, Hint = never>(
  options: RequestLifecycleOptions<Doc, Hint>,
) {
  const { store, decisions, events } = options
  const now = options.now ?? (() => new Date())
  const notFound = () => new NotFoundError(Messages.requests.notFound, 'REQUEST_NOT_FOUND')

  async function create(
    fields: NewRequest<Doc>,
    context: CallerContext,
    hint?: Hint,
  ): Promise<Doc> {
    const at = now()
    // The spread cannot prove to the compiler that it rebuilds Doc: NewRequest<Doc> is Doc
    // without exactly the fields added here.
    const request = {
      _id: store.newId(),
      ...fields,
      status: 'pending',
      createdAt: at,
      updatedAt: at,
    } as unknown as Doc
    const event = await events.created(request, context, hint)
    try {
      await store.insert(request, [event])
    } catch (error) {
      if (error instanceof DuplicateRequestError)
        throw new ConflictError(options.duplicate.message, options.duplicate.code)
      throw error
    }
    return request
  }

  /** The request and the caller's side of it, when that side may act; else 404. */
  async function findAs(requestId: string, callerId: string, roles: readonly RequestRole[]) {
    const request = isObjectIdHex(requestId) ? await store.findById(requestId) : null
    const role = request && roles.find((side) => request[store.parties[side]] === callerId)
    if (!request || !role) throw notFound()
    return { request, role }
  }

  async function decide(requestId: string, status: unknown, context: CallerContext): Promise<Doc> {
    if (!isDecisionStatus(decisions, status)) {
      throw new BadRequestError(decisions.unknownStatus.message, decisions.unknownStatus.code)
    }
    let { request } = await findAs(requestId, context.callerId, DECIDER)
    // Compare-and-set: of two parallel decisions one lands first, and the other is judged
    // again from the status that one left (refused, or applied after it). One person
    // decides a request, so this ends as soon as their parallel clicks have.
    for (;;) {
      const refusal = refusalOf(decisions, request.status, status)
      if (refusal) throw new ConflictError(refusal.message, refusal.code)
      const next: Doc = { ...request, status, updatedAt: now() }
      const event = await events.decided(next, context, undefined)
      const saved = await store.saveDecision(request, next, [event])
      if (saved) return saved
      const current = await store.findById(request._id)
      if (!current) throw notFound()
      request = current
    }
  }

  /** Deletes the request when the caller is one of `roles`; answers what was deleted. */
  async function remove(
    requestId: string,
    context: CallerContext,
    roles: readonly RequestRole[],
  ): Promise<Doc> {
    const { request, role } = await findAs(requestId, context.callerId, roles)
    const event: DomainEvent = await events.deleted(request, context, role)
    await store.delete(request._id, [event])
    return request
  }

  /**
   * Deletes a request no caller asked to delete (its post or one side's account is gone),
   * with the same event a deletion by `by` writes: whatever consumers granted while the
   * request existed is taken back as for any other deletion.
   */
  async function discard(request: Doc, context: ActorContext, by: RequestRole): Promise<void> {
    const event = await events.deleted(request, context, by)
    await store.delete(request._id, [event])
  }

  return { create, decide, remove, discard }
}

export type RequestLifecycle<Doc extends RequestDocument, Hint = never> = ReturnType<
  typeof createRequestLifecycle<Doc, Hint>
>
