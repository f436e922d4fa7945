import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { renderRoutes, sampleUser, signIn } from '@/test/helpers'
import { createStore } from '@/app/store'
import SettingsLayout from '@/features/settings/SettingsLayout'

function renderLayout(roles: string[]) {
  const store = createStore()
  signIn(store, { ...sampleUser, roles })
  return renderRoutes(
    [
      {
        element: <SettingsLayout />,
        children: [{ path: '/settings-security', element: <p>Security page</p> }],
      },
    ],
    { at: '/settings-security', store },
  )
}

describe('settings layout', () => {
  it('lists every entry of the settings navigation in order and highlights the current one', () => {
    renderLayout(['2000'])
    const nav = screen.getByRole('navigation', { name: 'Settings' })
    const links = within(nav).getAllByRole('link')
    expect(links.map((link) => link.textContent)).toEqual([
      'Account',
      'My Profile',
      'My Posts',
      'Posts I requested',
      'Requests on my posts',
      'People I requested',
      'People requested me',
      'Messages',
      'Favorite people',
      'Favorite posts',
      'Security',
      'Blocked users',
      'Saved searches',
      'Notifications',
      'Help & Support',
      'Others',
      'Stats',
      'Rate your workers',
    ])
    expect(within(nav).getByRole('link', { name: 'Security' })).toHaveAttribute(
      'aria-current',
      'page',
    )
    expect(within(nav).getByRole('link', { name: 'Rate your workers' })).toHaveAttribute(
      'href',
      '/settings-rate-your-workers',
    )
    expect(screen.getByText('Security page')).toBeInTheDocument()
  })

  it('adds Moderation and Analytics for administrators and editors only', () => {
    const { unmount } = renderLayout(['2000', '2002'])
    expect(screen.getByRole('link', { name: 'Moderation' })).toHaveAttribute(
      'href',
      '/settings-moderation',
    )
    expect(screen.getByRole('link', { name: 'Analytics' })).toHaveAttribute(
      'href',
      '/settings-analytics',
    )
    unmount()
    renderLayout(['2000'])
    expect(screen.queryByRole('link', { name: 'Moderation' })).toBeNull()
    expect(screen.queryByRole('link', { name: 'Analytics' })).toBeNull()
  })

  describe('on mobile', () => {
    const original = window.matchMedia
    beforeEach(() => {
      window.matchMedia = ((query: string) => ({
        matches: true,
        media: query,
        addEventListener: () => {},
        removeEventListener: () => {},
      })) as unknown as typeof window.matchMedia
    })
    afterEach(() => {
      window.matchMedia = original
    })

    it('collapses the menu behind a toggle and closes it after an entry is chosen', async () => {
      const { router } = renderLayout(['2000'])
      const toggle = screen.getByRole('button', { name: 'Settings menu' })
      expect(toggle).toHaveAttribute('aria-expanded', 'false')
      expect(screen.queryByRole('navigation', { name: 'Settings' })).toBeNull()
      await userEvent.click(toggle)
      const nav = screen.getByRole('navigation', { name: 'Settings' })
      await userEvent.click(within(nav).getByRole('link', { name: 'Security' }))
      expect(router.state.location.pathname).toBe('/settings-security')
      expect(screen.queryByRole('navigation', { name: 'Settings' })).toBeNull()
      expect(screen.getByRole('button', { name: 'Settings menu' })).toHaveAttribute(
        'aria-expanded',
        'false',
      )
    })
  })
})
