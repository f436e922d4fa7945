import { useEffect, useState } from 'react'
import { useNavigate, useSearchParams } from 'react-router-dom'
import { useAppDispatch } from '@/app/hooks'
import { modalOpened } from '@/app/ui-slice'
import {
  useDeletePostMutation,
  useFillPostMutation,
  useGetMyPostsQuery,
  useRelistPostMutation,
  useUpdatePostMutation,
} from '@/features/posts/posts-api'
import {
  IconButton,
  ResetButton,
  Select,
  SortSelect,
  ViewToggle,
  type ListView,
} from '@/components/ui/ListControls'
import { sortByDate, type DateOrder } from '@/lib/sort-by-date'
import { InfoTooltip } from '@/components/ui/InfoTooltip'
import { ConfirmModal } from '@/components/ui/Modal'
import { paths } from '@/config/paths'
import { errorMessage, errorStatus } from '@/lib/api'
import { Picture } from '@/components/ui/Picture'
import { settingsCardSizes } from '@/components/ui/settings-card-sizes'
import type { JobPost } from '@marketplace/contracts/api'
import { Messages } from '@marketplace/contracts/validation'
import { MyPostDetailsModal } from './MyPostDetailsModal'
import { PostModifyModal } from './PostModifyModal'
import {
  STATE_LABELS,
  STATE_OPTIONS,
  canFill,
  canRelist,
  stateOf,
  type StateFilter,
} from './post-state'
import '@/components/ui/list-page.css'
import './my-posts.css'

type OnlineFilter = 'all' | 'online' | 'offline'

/** The owner's only sign of a moderator's take-down (docs/web-app.md, "My posts"). */
const TAKEN_DOWN =
  'Removed by a moderator after a report. It stays offline and no one else can see it.'
const ONLINE_OPTIONS = [
  ['all', 'All'],
  ['online', 'Online'],
  ['offline', 'Offline'],
] as const

// Our own copy: the product shows an info tooltip here without giving its text.
const MY_POSTS_INFO =
  'Here are the posts you published. Open Details to modify or delete one, and switch a post Offline to stop receiving requests on it. Mark a post Filled once you found someone: it leaves the feed and those still waiting are told. A filled or expired post can be relisted for 30 days, once a day.'

type Dialog = { kind: 'details' | 'modify' | 'delete' | 'relist' | 'fill'; post: JobPost } | null

/** Settings › My posts. */
export default function MyPostsPage() {
  const dispatch = useAppDispatch()
  const navigate = useNavigate()
  const { data: posts = [], isLoading, isError } = useGetMyPostsQuery()
  const [updatePost] = useUpdatePostMutation()
  const [deletePost, deleteState] = useDeletePostMutation()
  const [view, setView] = useState<ListView>('grid')
  const [order, setOrder] = useState<DateOrder>('recent')
  const [online, setOnline] = useState<OnlineFilter>('all')
  const [stateFilter, setStateFilter] = useState<StateFilter>('all')
  const [dialog, setDialog] = useState<Dialog>(null)
  const [toggling, setToggling] = useState<string | null>(null)
  const [fillPost, fillState] = useFillPostMutation()
  const [relistPost, relistState] = useRelistPostMutation()
  const [actionError, setActionError] = useState<string | null>(null)
  const [notice, setNotice] = useState<string | null>(null)
  const [searchParams, setSearchParams] = useSearchParams()
  const relistId = searchParams.get('relist')

  // The expiry warning's "Relist for 30 days" link: My Posts opens with that post's relist.
  useEffect(() => {
    if (!relistId || isLoading) return
    const post = posts.find((candidate) => candidate._id === relistId)
    if (post) setDialog({ kind: 'relist', post })
    setSearchParams(
      (params) => {
        params.delete('relist')
        return params
      },
      { replace: true },
    )
  }, [relistId, isLoading, posts, setSearchParams])

  const shown = sortByDate(
    posts.filter(
      (post) =>
        (online === 'all' || post.isOnline === (online === 'online')) &&
        (stateFilter === 'all' || stateOf(post) === stateFilter),
    ),
    (post) => post.createdAt,
    order,
  )

  const openDialog = (kind: 'relist' | 'fill', post: JobPost) => {
    setActionError(null)
    setNotice(null)
    setDialog({ kind, post })
  }

  const confirmFill = async (post: JobPost) => {
    try {
      await fillPost(post._id).unwrap()
      setNotice(Messages.post.filled)
      setDialog(null)
    } catch (error) {
      setActionError(errorMessage(error, Messages.post.fillFailed))
    }
  }

  const confirmRelist = async (post: JobPost) => {
    try {
      await relistPost(post._id).unwrap()
      setNotice(Messages.post.relisted)
      setDialog(null)
    } catch (error) {
      setActionError(errorMessage(error, Messages.post.relistFailed))
    }
  }

  const toggleOnline = async (post: JobPost) => {
    setToggling(post._id)
    try {
      await updatePost({ id: post._id, changes: { isOnline: !post.isOnline } }).unwrap()
    } catch (error) {
      // A 401 on the toggle sends the user to /login; other failures are silent.
      if (errorStatus(error) === 401) navigate(paths.login)
    } finally {
      setToggling(null)
    }
  }

  const confirmDelete = async (post: JobPost) => {
    try {
      await deletePost(post._id).unwrap()
    } catch {
      // A failed delete is silent; the post simply stays in the list.
    }
    setDialog(null)
  }

  const reset = () => {
    setView('grid')
    setOrder('recent')
    setOnline('all')
    setStateFilter('all')
  }

  return (
    <section className="settings-list-page" aria-labelledby="my-posts-title">
      <header className="settings-list-header">
        <h1 id="my-posts-title">
          My posts
          <InfoTooltip text={MY_POSTS_INFO} />
        </h1>
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => dispatch(modalOpened({ kind: 'addPost' }))}
        >
          Add a post
        </button>
      </header>
      <div className="toolbar">
        <ViewToggle view={view} onChange={setView} />
        <SortSelect value={order} onChange={setOrder} />
        <Select label="Status" value={online} options={ONLINE_OPTIONS} onChange={setOnline} />
        <Select
          label="State"
          value={stateFilter}
          options={STATE_OPTIONS}
          onChange={setStateFilter}
        />
        <ResetButton onClick={reset} />
      </div>

      {notice && (
        <p className="my-post-notice" role="status">
          {notice}
        </p>
      )}
      {isLoading ? (
        <p className="page-loading" role="status">
          Loading posts...
        </p>
      ) : isError ? (
        <p className="error-state" role="alert">
          {Messages.post.fetchFailed}
        </p>
      ) : shown.length === 0 ? (
        <p className="empty-state">
          No posts found. Click &quot;Add a post&quot; to create your first post.
        </p>
      ) : (
        <ul className={view === 'grid' ? 'grid' : 'list'} aria-label="My posts" role="list">
          {shown.map((post) => (
            <li key={post._id} className="card settings-card" aria-label={post.title}>
              <Picture
                className="settings-card-picture"
                picture={post.jobPicture}
                use="card"
                sizes={settingsCardSizes(view)}
                alt=""
              />
              <div className="card-body">
                <h3 className="settings-card-title">{post.title}</h3>
                <p className={`my-post-state my-post-state-${stateOf(post)}`}>
                  {STATE_LABELS[stateOf(post)]}
                  {post.expirationDate && stateOf(post) !== 'filled' && (
                    <span className="muted"> · last day {post.expirationDate}</span>
                  )}
                </p>
                {post.location && <p className="muted">{post.location}</p>}
                {post.takenDown && (
                  <p className="my-post-taken-down" role="note">
                    {TAKEN_DOWN}
                  </p>
                )}
                <div className="settings-card-actions">
                  <button
                    type="button"
                    className="btn btn-small"
                    onClick={() => setDialog({ kind: 'details', post })}
                  >
                    Details
                  </button>
                  <button
                    type="button"
                    role="switch"
                    aria-checked={post.isOnline}
                    aria-label={`${post.title} online`}
                    className="my-post-switch"
                    disabled={toggling === post._id || post.takenDown}
                    onClick={() => toggleOnline(post)}
                  >
                    <span className="my-post-switch-knob" aria-hidden="true" />
                    {post.isOnline ? 'Online' : 'Offline'}
                  </button>
                  {canFill(post) && (
                    <button
                      type="button"
                      className="btn btn-small"
                      aria-label={`Mark ${post.title} filled`}
                      onClick={() => openDialog('fill', post)}
                    >
                      Mark filled
                    </button>
                  )}
                  {canRelist(post) && (
                    <button
                      type="button"
                      className="btn btn-small btn-primary"
                      aria-label={`Relist ${post.title}`}
                      onClick={() => openDialog('relist', post)}
                    >
                      Relist
                    </button>
                  )}
                  <IconButton
                    label={`Delete ${post.title}`}
                    onClick={() => setDialog({ kind: 'delete', post })}
                  />
                </div>
              </div>
            </li>
          ))}
        </ul>
      )}

      {dialog?.kind === 'details' && (
        <MyPostDetailsModal
          post={dialog.post}
          onClose={() => setDialog(null)}
          onDelete={() => setDialog({ kind: 'delete', post: dialog.post })}
          onModify={() => setDialog({ kind: 'modify', post: dialog.post })}
        />
      )}
      {dialog?.kind === 'modify' && (
        <PostModifyModal post={dialog.post} onClose={() => setDialog(null)} />
      )}
      {dialog?.kind === 'fill' && (
        <ConfirmModal
          title="Mark filled"
          message={`Mark "${dialog.post.title}" filled? It leaves the feed and takes no more requests; your conversations stay, and those still waiting are told.`}
          confirmLabel="Mark filled"
          danger={false}
          busy={fillState.isLoading}
          error={actionError}
          onCancel={() => setDialog(null)}
          onConfirm={() => confirmFill(dialog.post)}
        />
      )}
      {dialog?.kind === 'relist' && (
        <ConfirmModal
          title="Relist for 30 days"
          message={`Relist "${dialog.post.title}"? It goes back to the top of the feed as new and stays for 30 days.`}
          confirmLabel="Relist for 30 days"
          danger={false}
          busy={relistState.isLoading}
          error={actionError}
          onCancel={() => setDialog(null)}
          onConfirm={() => confirmRelist(dialog.post)}
        />
      )}
      {dialog?.kind === 'delete' && (
        <ConfirmModal
          title="Delete Post"
          message={`Are you sure you want to delete "${dialog.post.title}"?`}
          confirmLabel="Delete"
          busy={deleteState.isLoading}
          onCancel={() => setDialog(null)}
          onConfirm={() => confirmDelete(dialog.post)}
        />
      )}
    </section>
  )
}
