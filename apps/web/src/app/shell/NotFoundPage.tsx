import { Link } from 'react-router-dom'
import { paths } from '@/config/paths'
import './shell.css'

/** Any address the app does not know. */
export default function NotFoundPage() {
  return (
    <section className="page-narrow status-page" aria-labelledby="not-found-title">
      <p className="status-code" aria-hidden="true">
        404
      </p>
      <h1 id="not-found-title">Page not found</h1>
      <p>We looked everywhere, but there is nothing at this address.</p>
      <Link to={paths.home} className="btn btn-primary">
        Go to the home page
      </Link>
    </section>
  )
}
