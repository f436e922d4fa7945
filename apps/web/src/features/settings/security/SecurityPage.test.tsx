import { screen } from '@testing-library/react'
import SecurityPage from '@/features/settings/security/SecurityPage'
import { renderPage } from '@/test/settings-helpers'

describe('security page', () => {
  it('shows only what works: e-mail codes are active, SMS is plainly not offered', () => {
    renderPage(<SecurityPage />)
    expect(screen.getByRole('heading', { name: 'Email' })).toBeInTheDocument()
    expect(
      screen.getByText(
        'Every sign-in already needs your password; e-mail codes protect sign-up and password resets.',
      ),
    ).toBeInTheDocument()
    expect(screen.getByRole('heading', { name: 'SMS' })).toBeInTheDocument()
    expect(screen.getByText('SMS verification is not offered yet.')).toBeInTheDocument()
    expect(screen.getByRole('checkbox', { name: 'Send me a code by SMS' })).toBeDisabled()
  })
})
