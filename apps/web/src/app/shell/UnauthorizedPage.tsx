import { useNavigate } from 'react-router-dom'
import { paths } from '@/config/paths'
import './shell.css'

/** /unauthorized: a signed-in user without the role a page needs. */
export default function UnauthorizedPage() {
  const navigate = useNavigate()
  return (
    <section className="page-narrow status-page" aria-labelledby="unauthorized-title">
      <h1 id="unauthorized-title">Unauthorized Access</h1>
      <p>You do not have permission to view this page.</p>
      <button type="button" className="btn btn-primary" onClick={() => navigate(paths.home)}>
        Return to Home
      </button>
    </section>
  )
}
