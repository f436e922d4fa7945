import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import SecurityPage from '@/features/settings/security/SecurityPage'
import { renderPage } from '@/test/settings-helpers'
import { jsonResponse, stubFetch } from '@/test/helpers'

let fetchStub: ReturnType<typeof stubFetch> | null = null
afterEach(() => fetchStub?.restore())

const off = { email: false, authenticator: false, recoveryCodesLeft: 0 }

describe('security page', () => {
  it('SMS is plainly not offered, with the reason, its checkbox off and disabled', async () => {
    fetchStub = stubFetch(() => jsonResponse(200, off))
    renderPage(<SecurityPage />)
    expect(screen.getByRole('heading', { name: 'SMS' })).toBeInTheDocument()
    expect(
      screen.getByText(/NIST SP 800-63B lists them as a restricted authenticator/),
    ).toBeInTheDocument()
    const sms = screen.getByRole('checkbox', { name: 'SMS' })
    expect(sms).toBeDisabled()
    expect(sms).not.toBeChecked()
    expect(sms).toHaveAccessibleDescription(/NIST SP 800-63B/)
    expect(
      await screen.findByRole('checkbox', { name: 'Send me a code by email when I sign in' }),
    ).not.toBeChecked()
  })

  it('turning email codes on asks for the password and shows the answer', async () => {
    const user = userEvent.setup()
    const sent: unknown[] = []
    fetchStub = stubFetch(async (path, request) => {
      if (path === '/api/auth/two-step/email') {
        sent.push(await request.json())
        return jsonResponse(200, {
          message: 'Two-step sign-in by email is on.',
          status: { ...off, email: true },
        })
      }
      return jsonResponse(200, off)
    })
    renderPage(<SecurityPage />)
    const box = await screen.findByRole('checkbox', {
      name: 'Send me a code by email when I sign in',
    })
    // Shown at once, usable once the status has loaded (a click before does nothing).
    await waitFor(() => expect(box).toBeEnabled())
    await user.click(box)
    await user.type(screen.getByLabelText('Password'), 'Secret1!x')
    await user.click(screen.getByRole('button', { name: 'Confirm' }))
    expect(await screen.findByText('Two-step sign-in by email is on.')).toBeInTheDocument()
    expect(sent).toEqual([{ enabled: true, password: 'Secret1!x' }])
    expect(
      screen.getByRole('checkbox', { name: 'Send me a code by email when I sign in' }),
    ).toBeChecked()
  })

  it('sets up an authenticator with the server-drawn QR code and shows the recovery codes once', async () => {
    const user = userEvent.setup()
    const codes = Array.from({ length: 10 }, (_, i) => `ABCDE-2345${i}`)
    fetchStub = stubFetch((path) => {
      if (path.endsWith('/authenticator/setup'))
        return jsonResponse(200, {
          secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
          otpauthUri: 'otpauth://totp/x',
          qrCode: 'data:image/svg+xml;base64,PHN2Zy8+',
        })
      if (path.endsWith('/authenticator/confirm'))
        return jsonResponse(200, {
          message: 'Authenticator app turned on. Keep your recovery codes somewhere safe.',
          recoveryCodes: codes,
          status: { email: false, authenticator: true, recoveryCodesLeft: 10 },
        })
      return jsonResponse(200, off)
    })
    renderPage(<SecurityPage />)
    const setUp = await screen.findByRole('button', { name: 'Set up an authenticator app' })
    await waitFor(() => expect(setUp).toBeEnabled())
    await user.click(setUp)
    await user.type(screen.getByLabelText('Password'), 'Secret1!x')
    await user.click(screen.getByRole('button', { name: 'Confirm' }))
    expect(
      await screen.findByRole('img', { name: 'QR code to scan with your authenticator app' }),
    ).toHaveAttribute('src', 'data:image/svg+xml;base64,PHN2Zy8+')
    await user.type(screen.getByLabelText('Code from the app'), '123456')
    await user.click(screen.getByRole('button', { name: 'Turn on' }))
    expect(await screen.findByText('ABCDE-23450')).toBeInTheDocument()
    expect(screen.getAllByRole('listitem')).toHaveLength(10)
    expect(screen.getByText('10 recovery codes left.')).toBeInTheDocument()
  })
})
