import { useState, type ChangeEvent, type FormEvent } from 'react'
import { Link, useNavigate } from 'react-router-dom'
import { INTERESTS } from '@marketplace/contracts/marketplace'
import {
  formatPhoneNumber,
  isValidDateOfBirth,
  isValidEmail,
  isValidName,
  isValidPassword,
  isValidPhoneNumber,
  isoDateOf,
  localToday,
  Messages,
  normalizeEmail,
  passwordsMatch,
  validateSignupForm,
  type SignupForm,
  type SignupPayload,
} from '@marketplace/contracts/validation'
import { paths } from '@/config/paths'
import { responseStatus, useSignupMutation } from '@/features/auth/auth-api'
import { FormField, hintIdOf } from '@/components/ui/FormField'
import { PasswordInput } from '@/features/auth/components/PasswordInput'
import { PasswordStrengthMeter } from '@/features/auth/components/PasswordStrengthMeter'
import '@/features/auth/auth.css'

const emptyForm: SignupForm = {
  firstname: '',
  lastname: '',
  email: '',
  phoneNumber: '',
  dateOfBirth: '',
  password: '',
  confirmPassword: '',
  interest: '',
  emailPreferences: false,
  termsAgreed: false,
}

type TextField = Exclude<keyof SignupForm, 'emailPreferences' | 'termsAgreed'>

const hints = Messages.hints

/** Which message a refused sign-up shows. */
function signupFailure(error: unknown): string {
  const status = responseStatus(error)
  if (status === null) return Messages.signup.noServerResponse
  if (status === 409) return Messages.signup.emailAlreadyRegistered
  return Messages.signup.registrationFailed
}

/** /signup "Create Account". */
export default function SignupPage() {
  const navigate = useNavigate()
  const [signup, { isLoading }] = useSignupMutation()
  const [form, setForm] = useState<SignupForm>(emptyForm)
  const [touched, setTouched] = useState<Partial<Record<TextField, boolean>>>({})
  const [error, setError] = useState<string | null>(null)

  // The browser's local day, so that late in the evening "today" is not tomorrow's UTC date.
  const today = localToday()
  const valid: Record<TextField, boolean> = {
    firstname: isValidName(form.firstname),
    lastname: isValidName(form.lastname),
    email: isValidEmail(form.email),
    phoneNumber: isValidPhoneNumber(form.phoneNumber),
    dateOfBirth: isValidDateOfBirth(form.dateOfBirth, today),
    password: isValidPassword(form.password),
    confirmPassword:
      form.confirmPassword !== '' && passwordsMatch(form.password, form.confirmPassword),
    interest: true,
  }
  const ready = validateSignupForm(form, today) === null
  // A field shows its hint as an error once it was left, or typed into, and is wrong.
  const invalid = (field: TextField) =>
    !valid[field] && (touched[field] === true || form[field] !== '')

  const change = <K extends keyof SignupForm>(field: K, value: SignupForm[K]) => {
    setForm((current) => ({ ...current, [field]: value }))
    // The failed-submit message clears when any field changes.
    setError(null)
  }
  const text = (field: TextField) => (event: ChangeEvent<HTMLInputElement | HTMLSelectElement>) =>
    change(
      field,
      field === 'phoneNumber' ? formatPhoneNumber(event.target.value) : event.target.value,
    )
  const leave = (field: TextField) => () => setTouched((current) => ({ ...current, [field]: true }))
  const described = (field: TextField) => ({
    id: `signup-${field}`,
    'aria-describedby': hintIdOf(`signup-${field}`),
    'aria-invalid': invalid(field),
    onChange: text(field),
    onBlur: leave(field),
  })

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const problem = validateSignupForm(form, today)
    if (problem) {
      setError(problem)
      return
    }
    // The server gets no confirm password (the signup body has no such field).
    const payload: SignupPayload = {
      firstname: form.firstname,
      lastname: form.lastname,
      email: form.email.trim(),
      phoneNumber: form.phoneNumber,
      password: form.password,
      dateOfBirth: form.dateOfBirth,
      interest: form.interest || null,
      emailPreferences: form.emailPreferences === true,
      termsAgreed: form.termsAgreed,
    }
    try {
      const answer = await signup(payload).unwrap()
      const email = answer?.email ?? normalizeEmail(form.email)
      setForm(emptyForm)
      setTouched({})
      navigate(paths.verify, { state: { email } })
    } catch (failure) {
      setError(signupFailure(failure))
    }
  }

  return (
    <section className="page-narrow auth-page auth-page-wide" aria-labelledby="signup-title">
      <h1 id="signup-title">Create Account</h1>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <form onSubmit={submit} noValidate>
        <div className="auth-row">
          <FormField
            id="signup-firstname"
            label="First name"
            hint={hints.name}
            invalid={invalid('firstname')}
          >
            <input
              {...described('firstname')}
              value={form.firstname}
              autoComplete="given-name"
              maxLength={24}
              required
            />
          </FormField>
          <FormField
            id="signup-lastname"
            label="Last name"
            hint={hints.name}
            invalid={invalid('lastname')}
          >
            <input
              {...described('lastname')}
              value={form.lastname}
              autoComplete="family-name"
              maxLength={24}
              required
            />
          </FormField>
        </div>
        <FormField id="signup-email" label="Email" hint={hints.email} invalid={invalid('email')}>
          <input
            {...described('email')}
            type="email"
            value={form.email}
            autoComplete="email"
            required
          />
        </FormField>
        <FormField
          id="signup-phoneNumber"
          label="Phone number"
          hint={hints.phone}
          invalid={invalid('phoneNumber')}
        >
          <input
            {...described('phoneNumber')}
            type="tel"
            inputMode="tel"
            placeholder="(123) 456-7890"
            value={form.phoneNumber}
            autoComplete="tel-national"
            required
          />
        </FormField>
        <FormField
          id="signup-dateOfBirth"
          label="Date of birth"
          hint={hints.dateOfBirth}
          invalid={invalid('dateOfBirth')}
        >
          <input
            {...described('dateOfBirth')}
            type="date"
            max={isoDateOf(today)}
            value={form.dateOfBirth}
            autoComplete="bday"
            required
          />
        </FormField>
        <FormField
          id="signup-password"
          label="Password"
          hint={Messages.auth.passwordRules}
          invalid={invalid('password')}
        >
          <PasswordInput
            {...described('password')}
            value={form.password}
            autoComplete="new-password"
            required
          />
          <PasswordStrengthMeter password={form.password} />
        </FormField>
        <FormField
          id="signup-confirmPassword"
          label="Confirm password"
          hint={hints.confirmPassword}
          invalid={invalid('confirmPassword')}
        >
          <PasswordInput
            {...described('confirmPassword')}
            value={form.confirmPassword}
            autoComplete="new-password"
            required
          />
        </FormField>
        <FormField id="signup-interest" label="Interested in" optional>
          <select id="signup-interest" value={form.interest ?? ''} onChange={text('interest')}>
            <option value="">Choose one</option>
            {INTERESTS.map((interest) => (
              <option key={interest} value={interest}>
                {interest}
              </option>
            ))}
          </select>
        </FormField>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={form.emailPreferences === true}
            onChange={(event) => change('emailPreferences', event.target.checked)}
          />
          Send me marketing updates by email (optional)
        </label>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={form.termsAgreed}
            onChange={(event) => change('termsAgreed', event.target.checked)}
            required
          />
          <span>
            I agree to the <Link to={paths.terms}>Terms of Service</Link>
          </span>
        </label>
        <button type="submit" className="btn btn-primary btn-block" disabled={!ready || isLoading}>
          Create my account
        </button>
      </form>
      <p className="auth-alt">
        Already have an account? <Link to={paths.login}>Log in</Link>
      </p>
    </section>
  )
}
