import { useState } from 'react'
import { Messages } from '@marketplace/contracts/validation'
import { ConfirmModal } from '@/components/ui/Modal'
import { errorMessage } from '@/lib/api'
import { useBlockUserMutation } from '@/features/blocks/blocks-api'

/**
 * "Block" with its confirmation, wherever another person shows up (their worker details, a
 * received request, a conversation, a notification). The question says what a block does,
 * and that the other person is not told (docs/blocking.md).
 */
export function BlockUserButton({
  userId,
  name,
  className = 'btn btn-small',
  label,
  onBlocked,
}: {
  userId: string
  /** The person's name as the screen shows it; "this person" when unknown. */
  name?: string
  className?: string
  /** The button's accessible name when "Block" alone would not say whom (a list of them). */
  label?: string
  /** After the block: the screen showing the person usually closes or moves on. */
  onBlocked?: () => void
}) {
  const [confirming, setConfirming] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)
  const [block, { isLoading }] = useBlockUserMutation()
  const who = name?.trim() || 'this person'

  const confirm = async () => {
    setProblem(null)
    try {
      await block(userId).unwrap()
    } catch (failure) {
      setProblem(errorMessage(failure, Messages.blocks.blockFailed))
      return
    }
    setConfirming(false)
    onBlocked?.()
  }

  return (
    <>
      <button
        type="button"
        className={className}
        aria-label={label}
        onClick={() => setConfirming(true)}
      >
        Block
      </button>
      {confirming && (
        <ConfirmModal
          title={`Block ${who}?`}
          message={`You will no longer see each other's posts or profiles, send each other requests or messages, or get notifications from each other. ${who === 'this person' ? 'They' : who} will not be told. You can unblock them in Settings › Blocked users.`}
          confirmLabel="Block"
          busyLabel="Blocking..."
          busy={isLoading}
          error={problem}
          onConfirm={() => void confirm()}
          onCancel={() => {
            if (isLoading) return
            setConfirming(false)
            setProblem(null)
          }}
        />
      )}
    </>
  )
}
