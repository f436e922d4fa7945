import { useState } from 'react'
import { useNavigate } from 'react-router-dom'
import { useAppDispatch } from '@/app/hooks'
import { modalOpened } from '@/app/ui-slice'
import {
  useDeletePostMutation,
  useGetMyPostsQuery,
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
import { errorStatus } from '@/lib/api'
import { Picture } from '@/components/ui/Picture'
import { settingsCardSizes } from '@/components/ui/settings-card-sizes'
import type { JobPost } from '@marketplace/contracts/api'
import { Messages } from '@marketplace/contracts/validation'
import { MyPostDetailsModal } from './MyPostDetailsModal'
import { PostModifyModal } from './PostModifyModal'
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
  'Here are the posts you published. Open Details to modify or delete one, and switch a post Offline to stop receiving requests on it.'

type Dialog = { kind: 'details' | 'modify' | 'delete'; post: JobPost } | null

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
  const [dialog, setDialog] = useState<Dialog>(null)
  const [toggling, setToggling] = useState<string | null>(null)

  const shown = sortByDate(
    posts.filter((post) => online === 'all' || post.isOnline === (online === 'online')),
    (post) => post.createdAt,
    order,
  )

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
        <ResetButton onClick={reset} />
      </div>

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
