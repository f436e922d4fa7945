import { passwordStrength } from '@marketplace/contracts/validation'

const MAX_SCORE = 5

/**
 * A hint, not the rule. Scores 0 to 5 and reads Weak (1-2), Medium (3-4) or
 * Strong (5); an empty password shows an empty bar and no label.
 */
export function PasswordStrengthMeter({ password, id }: { password: string; id?: string }) {
  const { score, label } = passwordStrength(password)
  const level = label ? label.toLowerCase() : 'none'
  return (
    <div className={`strength strength-${level}`} id={id}>
      <div
        className="strength-bar"
        role="meter"
        aria-label="Password strength"
        aria-valuemin={0}
        aria-valuemax={MAX_SCORE}
        aria-valuenow={score}
        aria-valuetext={label || 'No password'}
      >
        {Array.from({ length: MAX_SCORE }, (_, index) => (
          <span key={index} className={index < score ? 'strength-step filled' : 'strength-step'} />
        ))}
      </div>
      {label && (
        <span className="strength-label">
          Strength: <strong>{label}</strong>
        </span>
      )}
    </div>
  )
}
