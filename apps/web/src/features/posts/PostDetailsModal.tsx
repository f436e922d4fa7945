import { useCloseModal } from '@/app/modals/use-close-modal'
import { useEffect, useState } from 'react'
import { useNavigate } from 'react-router-dom'
import { useAppDispatch, useAppSelector } from '@/app/hooks'
import { modalOpened } from '@/app/ui-slice'
import { selectCurrentUser, selectIsLoggedIn } from '@/lib/auth-slice'
import { useLazyGetPostQuery } from '@/lib/entities-api'
import {
  useAddFavoritePostMutation,
  useGetFavoritePostsQuery,
  useRemoveFavoritePostMutation,
} from '@/features/favorites/favorites-api'
import { PostFieldsView } from '@/components/ui/PostFieldsView'
import { Modal } from '@/components/ui/Modal'
import { paths } from '@/config/paths'
import type { JobPost } from '@marketplace/contracts/api'
import { Messages } from '@marketplace/contracts/validation'
import { HeartIcon } from '@/components/icons/HeartIcon'
import './posts.css'

/** Post details: the owner sees no favorite, request or report button. */
export default function PostDetailsModal({ post }: { post: JobPost }) {
  const dispatch = useAppDispatch()
  const navigate = useNavigate()
  const user = useAppSelector(selectCurrentUser)
  const loggedIn = useAppSelector(selectIsLoggedIn)
  const isOwner = !!user && user._id === post.userID
  const { data: favorites } = useGetFavoritePostsQuery(user?._id ?? '', {
    skip: !loggedIn || !user || isOwner,
  })
  const [addFavorite, addState] = useAddFavoritePostMutation()
  const [removeFavorite, removeState] = useRemoveFavoritePostMutation()
  const [favoriteError, setFavoriteError] = useState<string | null>(null)
  const saved = !!favorites?.some((entry) => entry.favoriteID?._id === post._id)
  const favoriteBusy = addState.isLoading || removeState.isLoading
  const close = useCloseModal()
  const [readPost] = useLazyGetPostQuery()
  // A post opened from a list built from post events (favorites, moderation) has no contact
  // value field: those never carry it, and carry a private contact as null, as a stranger
  // sees it. The jobs service's own answer says what this viewer may see of it (an accepted
  // worker sees a private contact), so it is read once; the modal shows the answer when it comes.
  const valueUnknown = post.contact !== '' && post.contactValue === undefined
  useEffect(() => {
    if (valueUnknown) void readPost(post._id)
  }, [valueUnknown, readPost, post._id])

  const toggleFavorite = async () => {
    if (!loggedIn || !user) {
      close()
      navigate(paths.login)
      return
    }
    setFavoriteError(null)
    try {
      if (saved) await removeFavorite({ userId: user._id, postId: post._id }).unwrap()
      else await addFavorite({ userId: user._id, postId: post._id }).unwrap()
    } catch {
      setFavoriteError(Messages.favorites.updateFailed)
    }
  }

  return (
    <Modal title={post.title} onClose={close} wide>
      <div className="post-details">
        {post.category && <span className="badge">{post.category}</span>}
        <PostFieldsView
          showPrivacy={isOwner}
          post={{
            title: post.title,
            location: post.location,
            jobStartEnd: post.jobStartEnd,
            salary: post.salary,
            paymentType: post.paymentType ?? [],
            contact: post.contact,
            contactValue: post.contactValue,
            infos: post.infos,
            expirationDate: post.expirationDate,
            picture: post.jobPicture,
            displayLocation: post.displayLocation,
            displayContact: post.displayContact,
          }}
        />
        {favoriteError && (
          <p className="form-error" role="alert">
            {favoriteError}
          </p>
        )}
        {!isOwner && (
          <div className="modal-actions">
            <button
              type="button"
              className={saved ? 'btn favorite-btn saved' : 'btn favorite-btn'}
              aria-pressed={saved}
              disabled={favoriteBusy}
              onClick={toggleFavorite}
            >
              <HeartIcon filled={saved} />
              {saved ? 'Saved' : 'Save'}
            </button>
            <button
              type="button"
              className="btn btn-danger"
              onClick={() => dispatch(modalOpened({ kind: 'reportPost', post }))}
            >
              Report
            </button>
            <button
              type="button"
              className="btn btn-primary"
              onClick={() => dispatch(modalOpened({ kind: 'requestPost', post }))}
            >
              Send request
            </button>
          </div>
        )}
      </div>
    </Modal>
  )
}
