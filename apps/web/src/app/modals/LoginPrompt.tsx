import { useNavigate } from 'react-router-dom'
import { useAppDispatch } from '@/app/hooks'
import { modalClosed } from '@/app/ui-slice'
import { paths } from '@/config/paths'

/** What guests see in place of an action that needs an account. */
export function LoginPrompt({ message }: { message?: string }) {
  const dispatch = useAppDispatch()
  const navigate = useNavigate()
  const go = (to: string) => {
    dispatch(modalClosed())
    navigate(to)
  }
  return (
    <>
      {message && <p className="muted">{message}</p>}
      <div className="modal-actions">
        <button type="button" className="btn" onClick={() => go(paths.signup)}>
          Create account
        </button>
        <button type="button" className="btn btn-primary" onClick={() => go(paths.login)}>
          Login
        </button>
      </div>
    </>
  )
}
