import { useState, type FormEvent } from 'react'
import {
  Messages,
  isPasswordChangeRequested,
  splitFullName,
  validateAccountForm,
  type AccountForm,
} from '@marketplace/contracts/validation'
import { useAppSelector } from '@/app/hooks'
import { selectCurrentUser } from '@/lib/auth-slice'
import {
  useChangePasswordMutation,
  useGetUserQuery,
  useUpdateAccountMutation,
} from '@/features/settings/account-api'
import { HomePlaceForm } from '@/features/settings/account/HomePlaceForm'
import { errorMessage } from '@/lib/api'
import type { PersonSelfView } from '@marketplace/contracts/api'
import { FormField } from '@/components/ui/FormField'
import '@/features/settings/settings.css'
import '@/features/settings/account/account.css'
import { PAGE_HEADINGS } from '@/config/page-headings'

const ACCOUNT_SAVED = 'Your account has been updated.'

const formOf = (profile: PersonSelfView): AccountForm => ({
  name: [profile.firstName, profile.lastName].filter(Boolean).join(' '),
  phoneNumber: profile.phoneNumber ?? '',
  currentPassword: '',
  newPassword: '',
  confirmPassword: '',
})

/** The account data, edited after 'Edit my account'. */
export default function AccountPage() {
  const user = useAppSelector(selectCurrentUser)
  if (!user) {
    return (
      <div className="settings-page">
        <p className="empty-state">{Messages.account.loginToView}</p>
      </div>
    )
  }
  return <AccountDetails userId={user._id} email={user.email} />
}

function AccountDetails({ userId, email }: { userId: string; email: string }) {
  const { data: profile, isLoading, isError, error, refetch } = useGetUserQuery(userId)
  const [updateAccount, { isLoading: savingAccount }] = useUpdateAccountMutation()
  const [changePassword, { isLoading: savingPassword }] = useChangePasswordMutation()
  const [editing, setEditing] = useState(false)
  const [form, setForm] = useState<AccountForm | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const [notice, setNotice] = useState<string | null>(null)

  if (isLoading) {
    // The page's title, the account form's frame and the home place's section show at once,
    // with the first render, not after the account's data: the section's hint is what a phone
    // paints largest on this page (largest contentful paint), and painted only after the data
    // it put that paint seconds later on a slow phone. The form is there at its full size, so
    // the section below it does not move when the data comes (layout shift); both are the same
    // elements once it has come, their fields filled in then.
    return (
      <div className="settings-page account-page">
        <h1>{PAGE_HEADINGS.account}</h1>
        <AccountFormWhileLoading email={email} />
        <HomePlaceForm userId={userId} saved="" loading />
      </div>
    )
  }
  if (isError || !profile) {
    return (
      <div className="settings-page error-state" role="alert">
        <p>{errorMessage(error, 'Failed to load your account. Please try again later.')}</p>
        <button type="button" className="btn" onClick={() => void refetch()}>
          Try again
        </button>
      </div>
    )
  }

  const values = editing && form ? form : formOf(profile)
  const change = (field: keyof AccountForm) => (value: string) =>
    setForm({ ...values, [field]: value })

  const startEditing = () => {
    setForm(formOf(profile))
    setProblem(null)
    setNotice(null)
    setEditing(true)
  }

  const undo = () => {
    setForm(null)
    setProblem(null)
    setEditing(false)
  }

  const save = async (event: FormEvent) => {
    event.preventDefault()
    setNotice(null)
    const invalid = validateAccountForm(values)
    if (invalid) {
      setProblem(invalid)
      return
    }
    setProblem(null)
    const { firstName, lastName } = splitFullName(values.name)
    try {
      await updateAccount({
        id: userId,
        firstName,
        lastName,
        phoneNumber: values.phoneNumber.trim(),
      }).unwrap()
      if (isPasswordChangeRequested(values)) {
        await changePassword({
          oldPassword: values.currentPassword ?? '',
          newPassword: values.newPassword ?? '',
        }).unwrap()
        setNotice(Messages.forgotPassword.changed)
      } else {
        setNotice(ACCOUNT_SAVED)
      }
      setEditing(false)
      setForm(null)
      void refetch()
    } catch (failure) {
      setProblem(errorMessage(failure, 'Failed to update your account. Please try again.'))
    }
  }

  const saving = savingAccount || savingPassword

  return (
    <div className="settings-page account-page">
      <h1>{PAGE_HEADINGS.account}</h1>
      <form className="card card-body account-form" onSubmit={save} noValidate>
        <FormField id="account-name" label="Name">
          <input
            id="account-name"
            value={values.name}
            readOnly={!editing}
            autoComplete="name"
            onChange={(event) => change('name')(event.target.value)}
          />
        </FormField>
        <FormField id="account-email" label="Email">
          <input id="account-email" value={profile.email || email} readOnly disabled />
        </FormField>
        <FormField id="account-phone" label="Phone Number">
          <input
            id="account-phone"
            type="tel"
            value={values.phoneNumber}
            readOnly={!editing}
            autoComplete="tel"
            onChange={(event) => change('phoneNumber')(event.target.value)}
          />
        </FormField>
        {editing && (
          <fieldset className="account-passwords">
            <legend className="muted">
              To change your password, fill in all three password fields.
            </legend>
            <PasswordField
              id="account-current-password"
              label="Current Password"
              autoComplete="current-password"
              value={values.currentPassword ?? ''}
              onChange={change('currentPassword')}
            />
            <PasswordField
              id="account-new-password"
              label="New Password"
              autoComplete="new-password"
              value={values.newPassword ?? ''}
              onChange={change('newPassword')}
            />
            <PasswordField
              id="account-confirm-password"
              label="Confirm Password"
              autoComplete="new-password"
              value={values.confirmPassword ?? ''}
              onChange={change('confirmPassword')}
            />
          </fieldset>
        )}
        {problem && (
          <p className="form-error" role="alert">
            {problem}
          </p>
        )}
        {notice && (
          <p className="form-success" role="status">
            {notice}
          </p>
        )}
        <div className="account-actions">
          {editing ? (
            <>
              <button type="button" className="btn" onClick={undo} disabled={saving}>
                Undo Changes
              </button>
              <button type="submit" className="btn btn-primary" disabled={saving}>
                {saving ? 'Saving...' : 'Save Changes'}
              </button>
            </>
          ) : (
            <button type="button" className="btn btn-primary" onClick={startEditing}>
              Edit my account
            </button>
          )}
        </div>
      </form>
      <HomePlaceForm userId={userId} saved={profile.homePlace ?? ''} />
    </div>
  )
}

/**
 * The account form while the account loads: its fields where the form has them, empty and
 * disabled (the email is the session's, known already), and the status where the form's
 * button will be, in a button's box so the form keeps its height.
 */
function AccountFormWhileLoading({ email }: { email: string }) {
  return (
    <form className="card card-body account-form" aria-busy="true" noValidate>
      <FormField id="account-name" label="Name">
        <input id="account-name" value="" readOnly disabled />
      </FormField>
      <FormField id="account-email" label="Email">
        <input id="account-email" value={email} readOnly disabled />
      </FormField>
      <FormField id="account-phone" label="Phone Number">
        <input id="account-phone" type="tel" value="" readOnly disabled />
      </FormField>
      <div className="account-actions">
        <span className="btn btn-placeholder page-loading" role="status">
          Loading...
        </span>
      </div>
    </form>
  )
}

function PasswordField({
  id,
  label,
  value,
  autoComplete,
  onChange,
}: {
  id: string
  label: string
  value: string
  autoComplete: string
  onChange: (value: string) => void
}) {
  return (
    <FormField id={id} label={label}>
      <input
        id={id}
        type="password"
        value={value}
        autoComplete={autoComplete}
        onChange={(event) => onChange(event.target.value)}
      />
    </FormField>
  )
}
