import { render, screen } from '@testing-library/react'
import { PasswordStrengthMeter } from '@/features/auth/components/PasswordStrengthMeter'

describe('PasswordStrengthMeter', () => {
  it('shows no label for an empty password', () => {
    render(<PasswordStrengthMeter password="" />)
    expect(screen.getByRole('meter', { name: 'Password strength' })).toHaveAttribute(
      'aria-valuenow',
      '0',
    )
    expect(screen.queryByText(/Weak|Medium|Strong/)).not.toBeInTheDocument()
  })

  it.each([
    ['a', 1, 'Weak'],
    ['abcdefgh', 2, 'Weak'],
    ['abcdefgH', 3, 'Medium'],
    ['abcdefH1', 4, 'Medium'],
    ['abcdeH1!', 5, 'Strong'],
  ])('labels %p (score %i) %s', (password, score, label) => {
    render(<PasswordStrengthMeter password={password} />)
    expect(screen.getByRole('meter')).toHaveAttribute('aria-valuenow', String(score))
    expect(screen.getByText(label)).toBeInTheDocument()
  })
})
