import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import NotFoundPage from '@/app/shell/NotFoundPage'
import UnauthorizedPage from '@/app/shell/UnauthorizedPage'
import { renderRoutes } from '@/test/helpers'

describe('UnauthorizedPage', () => {
  it('explains the refusal and "Return to Home" goes home', async () => {
    renderRoutes(
      [
        { path: '/unauthorized', element: <UnauthorizedPage /> },
        { path: '/', element: <p>home page</p> },
      ],
      { at: '/unauthorized' },
    )
    expect(screen.getByRole('heading', { name: 'Unauthorized Access' })).toBeInTheDocument()
    expect(screen.getByText(/do not have permission/)).toBeInTheDocument()
    await userEvent.setup().click(screen.getByRole('button', { name: 'Return to Home' }))
    expect(screen.getByText('home page')).toBeInTheDocument()
  })
})

describe('NotFoundPage', () => {
  it('links home', () => {
    renderRoutes([{ path: '*', element: <NotFoundPage /> }], { at: '/nowhere' })
    expect(screen.getByRole('heading', { name: 'Page not found' })).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/')
  })
})
