import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Pagination } from '@/components/ui/Pagination'

describe('Pagination', () => {
  it('reads "Page X of Y" and disables Previous on the first page', async () => {
    const onPageChange = jest.fn()
    render(<Pagination page={1} totalPages={3} onPageChange={onPageChange} />)
    expect(screen.getByText('Page 1 of 3')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled()
    await userEvent.click(screen.getByRole('button', { name: 'Next' }))
    expect(onPageChange).toHaveBeenCalledWith(2)
  })

  it('disables Next on the last page and goes back with Previous', async () => {
    const onPageChange = jest.fn()
    render(<Pagination page={3} totalPages={3} onPageChange={onPageChange} />)
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled()
    await userEvent.click(screen.getByRole('button', { name: 'Previous' }))
    expect(onPageChange).toHaveBeenCalledWith(2)
  })

  it('keeps the shown page between 1 and the number of pages', () => {
    const { rerender } = render(<Pagination page={9} totalPages={2} onPageChange={jest.fn()} />)
    expect(screen.getByText('Page 2 of 2')).toBeInTheDocument()
    rerender(<Pagination page={0} totalPages={0} onPageChange={jest.fn()} />)
    expect(screen.getByText('Page 1 of 1')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled()
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled()
  })
})
