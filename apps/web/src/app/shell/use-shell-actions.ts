import { useCallback } from 'react'
import { useNavigate } from 'react-router-dom'
import { ROLES } from '@marketplace/contracts/marketplace'
import { hasAnyRole } from '@/lib/roles'
import { useAppDispatch, useAppSelector } from '@/app/hooks'
import { modalOpened } from '@/app/ui-slice'
import { paths } from '@/config/paths'
import { selectCurrentUser, selectIsLoggedIn } from '@/lib/auth-slice'
import { useLogout } from '@/app/shell/use-logout'
import { feedActions, selectFeed, type FeedType } from '@/features/feed/feed-slice'
import { selectUnreadMessageTotal } from '@/features/conversations/unread-api'

const MODERATORS = [ROLES.Admin, ROLES.Editor] as const

/**
 * What the top bar, its hamburger menu and the bottom navigation offer, in one
 * place so the three always agree.
 */
export function useShellActions() {
  const dispatch = useAppDispatch()
  const navigate = useNavigate()
  const logout = useLogout()
  const user = useAppSelector(selectCurrentUser)
  const loggedIn = useAppSelector(selectIsLoggedIn)
  const { feedType } = useAppSelector(selectFeed)
  const unreadMessages = useAppSelector(selectUnreadMessageTotal)

  /** "Find posts" / "Find people": the home feed of that type. */
  const showFeed = useCallback(
    (type: FeedType) => {
      dispatch(feedActions.feedTypeSelected(type))
      navigate(paths.home)
    },
    [dispatch, navigate],
  )

  const makePost = useCallback(() => dispatch(modalOpened({ kind: 'addPost' })), [dispatch])

  return {
    user,
    loggedIn,
    feedType,
    /** The moderation queue is for Admin (2001) and Editor (2002). */
    isModerator: loggedIn && hasAnyRole(user?.roles, MODERATORS),
    /** The unread messages total, as the live connection keeps it. */
    unreadMessages: loggedIn ? unreadMessages : 0,
    showFeed,
    makePost,
    logout,
  }
}
