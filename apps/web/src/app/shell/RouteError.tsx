import { useEffect } from 'react'
import { isRouteErrorResponse, Link, useRouteError } from 'react-router-dom'
import { paths } from '@/config/paths'
import { reportClientError } from '@/lib/client-errors'

/**
 * What a page that failed to render shows instead of the router's developer screen: a
 * plain message and a way on. A chunk that could not load after its retries (a deploy
 * replaced it, or the network dropped) is fixed by reloading.
 */
export default function RouteError() {
  const error = useRouteError()
  console.error('Page failed to render:', error)
  const notFound = isRouteErrorResponse(error) && error.status === 404
  useEffect(() => {
    // A 404 is a wrong address, not a fault of the app.
    if (!isRouteErrorResponse(error)) reportClientError(error, 'render')
  }, [error])
  return (
    <div className="page-narrow" role="alert">
      <h1>{notFound ? 'Page not found' : 'Something went wrong'}</h1>
      <p className="muted">
        {notFound
          ? 'This page does not exist.'
          : 'This page could not be shown. Reloading usually fixes it.'}
      </p>
      <div className="modal-actions">
        <Link className="btn" to={paths.home}>
          Return to Home
        </Link>
        <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
          Reload
        </button>
      </div>
    </div>
  )
}
