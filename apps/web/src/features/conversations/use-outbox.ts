import { useCallback, useState } from 'react'
import { useAppDispatch } from '@/app/hooks'
import { errorMessage, errorStatus } from '@/lib/api'
import {
  conversationChanged,
  messageReceived,
  useSendMessageMutation,
} from '@/features/conversations/conversations-api'

/** A message typed here that the server has not stored yet: sending, or failed and retryable. */
export interface OutgoingMessage {
  clientId: string
  text: string
  /** When it was typed, to place it among the others until the server's time replaces it. */
  createdAt: string
  state: 'sending' | 'failed'
  error: string | null
}

export const SEND_FAILED = 'Check your connection and try again.'

/**
 * An id for one message, chosen here: sent again on a retry, so the server stores the
 * message once (docs/conversations.md). crypto.randomUUID exists only in secure contexts;
 * getRandomValues everywhere.
 */
export function newClientId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')
}

/** Why a send failed, in words: the server's (limit, rate, read-only) or a network failure. */
function sendErrorText(error: unknown): string {
  return errorStatus(error) === null ? SEND_FAILED : errorMessage(error, SEND_FAILED)
}

/**
 * The thread's sends: a typed message shows at once as "Sending...", joins the
 * thread when the server stored it, or stays with its error and a retry under the same
 * clientId. A 409 means the conversation became read-only: its view is read again for the
 * banner.
 */
export function useOutbox(conversationId: string) {
  const dispatch = useAppDispatch()
  const [send] = useSendMessageMutation()
  const [outgoing, setOutgoing] = useState<OutgoingMessage[]>([])
  const update = useCallback(
    (clientId: string, change: Partial<OutgoingMessage>) =>
      setOutgoing((list) =>
        list.map((item) => (item.clientId === clientId ? { ...item, ...change } : item)),
      ),
    [],
  )

  const deliver = useCallback(
    async ({ clientId, text }: Pick<OutgoingMessage, 'clientId' | 'text'>) => {
      try {
        const stored = await send({ conversationId, text, clientId }).unwrap()
        // Into the thread and out of the outbox in one render: no gap, no double.
        dispatch(messageReceived(stored))
        setOutgoing((list) => list.filter((item) => item.clientId !== clientId))
      } catch (error) {
        if (errorStatus(error) === 409) dispatch(conversationChanged(conversationId))
        update(clientId, { state: 'failed', error: sendErrorText(error) })
      }
    },
    [conversationId, dispatch, send, update],
  )

  const submit = useCallback(
    (text: string) => {
      const item: OutgoingMessage = {
        clientId: newClientId(),
        text,
        createdAt: new Date().toISOString(),
        state: 'sending',
        error: null,
      }
      setOutgoing((list) => [...list, item])
      void deliver(item)
    },
    [deliver],
  )

  /** The same text under the same clientId: the server stores it at most once. */
  const retry = useCallback(
    (item: OutgoingMessage) => {
      if (item.state !== 'failed') return
      update(item.clientId, { state: 'sending', error: null })
      void deliver(item)
    },
    [deliver, update],
  )

  const discard = useCallback(
    (clientId: string) => setOutgoing((list) => list.filter((item) => item.clientId !== clientId)),
    [],
  )

  return { outgoing, submit, retry, discard }
}
