import { useId, useState, type FormEvent, type KeyboardEvent } from 'react'
import { CONVERSATION_LIMITS } from '@marketplace/contracts/marketplace'
import { Messages } from '@marketplace/contracts/validation'

const MAX = CONVERSATION_LIMITS.messageMaxLength

/**
 * The thread's input: Enter sends, Shift+Enter adds a line; the count of what
 * will be sent (trimmed) against the limit; over it, the server's rule in words and no Send.
 * Disabled with the read-only banner's reason.
 */
export function Composer({
  disabled,
  onSend,
}: {
  disabled: boolean
  onSend: (text: string) => void
}) {
  const [text, setText] = useState('')
  const countId = useId()
  const trimmed = text.trim()
  const tooLong = trimmed.length > MAX
  const canSend = !disabled && trimmed.length > 0 && !tooLong

  const send = () => {
    if (!canSend) return
    onSend(trimmed)
    setText('')
  }

  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    send()
  }

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // While an input method composes a word, Enter confirms the word, not the message.
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return
    event.preventDefault()
    send()
  }

  return (
    <form className="composer" onSubmit={onSubmit}>
      <textarea
        className="composer-input"
        aria-label="Message"
        aria-describedby={countId}
        aria-invalid={tooLong || undefined}
        rows={2}
        placeholder={disabled ? '' : 'Write a message'}
        value={text}
        disabled={disabled}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
      />
      <div className="composer-side">
        <span id={countId} className={tooLong ? 'composer-count composer-over' : 'composer-count'}>
          {tooLong ? `${Messages.tooLong('Message', MAX)} (${trimmed.length})` : ''}
          <span className={tooLong ? 'visually-hidden' : undefined}>
            {trimmed.length}/{MAX} characters
          </span>
        </span>
        <button type="submit" className="btn btn-primary" disabled={!canSend}>
          Send
        </button>
      </div>
    </form>
  )
}
