import { useState } from 'react'
import { Messages } from '@marketplace/contracts/validation'
import { Avatar } from '@/components/ui/Avatar'
import { errorMessage } from '@/lib/api'
import { useGetBlocksQuery, useUnblockUserMutation } from '@/features/blocks/blocks-api'
import '@/features/settings/settings.css'
import '@/features/settings/blocked-users/blocked-users.css'

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' })

/**
 * Settings › Blocked users: the people the user blocked, newest first, each with Unblock.
 * Unblocking needs no confirmation: nothing is lost, and blocking again is one click away
 * from the person's profile.
 */
export default function BlockedUsersPage() {
  const { data: blocks, isLoading, isError } = useGetBlocksQuery()
  const [unblock, { isLoading: unblocking, originalArgs }] = useUnblockUserMutation()
  const [problem, setProblem] = useState<string | null>(null)

  const lift = async (userId: string) => {
    setProblem(null)
    try {
      await unblock(userId).unwrap()
    } catch (failure) {
      setProblem(errorMessage(failure, Messages.blocks.unblockFailed))
    }
  }

  return (
    <div className="settings-page blocked-users-page">
      <h1>Blocked users</h1>
      <p className="blocked-users-intro">
        You and the people you block no longer see each other&apos;s posts or profiles, and cannot
        send each other requests, messages or notifications. They are not told.
      </p>
      {problem && (
        <p className="form-error" role="alert">
          {problem}
        </p>
      )}
      {isLoading && <p>Loading...</p>}
      {isError && (
        <p className="form-error" role="alert">
          {Messages.blocks.loadFailed}
        </p>
      )}
      {blocks && blocks.length === 0 && <p>You have not blocked anyone.</p>}
      {blocks && blocks.length > 0 && (
        <ul className="blocked-users-list">
          {blocks.map((block) => (
            <li key={block.user._id} className="blocked-user">
              <Avatar name={block.user.name} picture={block.user.profilePicture} />
              <div className="blocked-user-text">
                <span className="blocked-user-name">{block.user.name}</span>
                <span className="blocked-user-date">
                  Blocked on {dateFormat.format(new Date(block.blockedAt))}
                </span>
              </div>
              <button
                type="button"
                className="btn btn-small"
                disabled={unblocking && originalArgs === block.user._id}
                onClick={() => void lift(block.user._id)}
                aria-label={`Unblock ${block.user.name}`}
              >
                Unblock
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
