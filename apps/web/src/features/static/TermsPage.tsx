import { Link } from 'react-router-dom'
import {
  ACCOUNT_DELETION_GRACE_DAYS,
  CLOSED_ACCOUNT_DATA_REMOVAL_DAYS,
  REPORT_REVIEW_HOURS,
  TERMINATION_APPEAL_WINDOW_DAYS,
  TERMS_CHANGE_NOTICE_DAYS,
} from '@marketplace/contracts/marketplace'
import { paths } from '@/config/paths'
import { TableOfContents } from '@/features/static/TableOfContents'
import '@/features/static/static.css'

const SECTIONS = [
  { id: 'user-rights', title: 'User Rights and Responsibilities' },
  { id: 'content-rules', title: 'Content Rules' },
  { id: 'service-usage', title: 'Service Usage' },
  { id: 'privacy', title: 'Privacy and Data Protection' },
  { id: 'account-termination', title: 'Account Termination' },
  { id: 'changes-to-terms', title: 'Changes to Terms' },
] as const

/** /terms, with the periods the system keeps. */
export default function TermsPage() {
  return (
    <article className="static-page">
      <h1>Terms of Service</h1>
      <p>
        These terms govern your use of the marketplace: a community place where people publish posts
        for short jobs and opportunities, and where people with a worker profile can be found and
        asked to do them. By creating an account you agree to these terms.
      </p>
      <TableOfContents entries={SECTIONS} />

      <section id="user-rights" aria-labelledby="user-rights-title">
        <h2 id="user-rights-title">1. User Rights and Responsibilities</h2>
        <h3>Registration</h3>
        <ul>
          <li>
            You register with a valid email address, which you verify with the 6-digit code we send
            to it before you can use the marketplace.
          </li>
          <li>
            You use your real first and last name and a phone number where you can be reached.
          </li>
          <li>You must be at least 18 years old.</li>
          <li>
            You choose a password and keep it to yourself; you are responsible for what is done with
            your account.
          </li>
        </ul>
        <h3>What you can do</h3>
        <ul>
          <li>Publish posts, receive requests on them and accept or decline them.</li>
          <li>
            Create a worker profile with your skills, availability, payment preferences and
            location, and request posts published by others.
          </li>
          <li>Keep favorite posts and people, and choose which notifications you receive.</li>
          <li>Correct your account data at any time and delete your account whenever you wish.</li>
        </ul>
        <h3>What you are responsible for</h3>
        <ul>
          <li>Keeping your information accurate and up to date.</li>
          <li>
            The agreements you make with other members: the marketplace connects people, and the
            work, its price and its payment are agreed between the poster and the worker.
          </li>
          <li>Treating other members with respect and honouring what you agreed to do.</li>
        </ul>
      </section>

      <section id="content-rules" aria-labelledby="content-rules-title">
        <h2 id="content-rules-title">2. Content Rules</h2>
        <p>Posts, profiles, pictures and messages must not:</p>
        <ul>
          <li>be false, misleading or a scam, or ask for payment before any work is done;</li>
          <li>offer illegal, dangerous or adult work or goods;</li>
          <li>harass, threaten or discriminate against anyone;</li>
          <li>include someone else&apos;s personal data or pictures without their consent;</li>
          <li>be spam, repeated posts or advertising unrelated to a job.</li>
        </ul>
        <p>
          Any member can report a post or a person. Reports are reviewed within{' '}
          {REPORT_REVIEW_HOURS} hours. The platform may verify users, edit or remove content that
          breaks these rules, and suspend or terminate the accounts responsible.
        </p>
      </section>

      <section id="service-usage" aria-labelledby="service-usage-title">
        <h2 id="service-usage-title">3. Service Usage</h2>
        <ul>
          <li>The marketplace is free to use.</li>
          <li>
            Use it as a person, through the website. Automated access, scraping, and attempts to get
            around rate limits or security measures are not allowed.
          </li>
          <li>
            Hidden details of a post (its exact location or contact) are shown only to the people
            the owner accepts; do not share them further.
          </li>
          <li>
            We work to keep the service available but cannot promise it will never be interrupted,
            and we are not a party to the jobs agreed through it.
          </li>
        </ul>
      </section>

      <section id="privacy" aria-labelledby="privacy-title">
        <h2 id="privacy-title">4. Privacy and Data Protection</h2>
        <p>
          We keep what the service needs: your names, email, phone number, password (stored only as
          a secure hash), profile picture, worker profile (title, skills, availability, location,
          payment preferences), your posts, requests and favorites, your account creation date and
          whether your email is verified.
        </p>
        <ul>
          <li>
            Other members see your public profile and posts. Contacts and locations you mark as
            hidden are shown only to the people you choose through requests.
          </li>
          <li>We never sell your data.</li>
          <li>
            You can read and correct your data in Settings and choose the notifications you receive.
          </li>
          <li>
            When an account is closed, its data is deleted within {CLOSED_ACCOUNT_DATA_REMOVAL_DAYS}{' '}
            days.
          </li>
        </ul>
      </section>

      <section id="account-termination" aria-labelledby="account-termination-title">
        <h2 id="account-termination-title">5. Account Termination</h2>
        <h3>When you delete your account</h3>
        <p>
          You can delete your account in Settings, under Others. Your account, profile and posts
          leave the marketplace at once and you are signed out everywhere. A{' '}
          {ACCOUNT_DELETION_GRACE_DAYS}-day grace period then starts: during it you can cancel the
          deletion by signing in with your email and password and choosing &quot;Keep my
          account&quot;. After it, your account and data are deleted permanently.
        </p>
        <h3>When we terminate an account</h3>
        <p>
          We may suspend or terminate an account that breaks these terms. You are told of the
          decision and its reason, and you may appeal within {TERMINATION_APPEAL_WINDOW_DAYS} days
          by writing to us through the <Link to={paths.contactUs}>contact page</Link>.
        </p>
      </section>

      <section id="changes-to-terms" aria-labelledby="changes-to-terms-title">
        <h2 id="changes-to-terms-title">6. Changes to Terms</h2>
        <p>
          We may update these terms. Major changes are announced by email and on the site{' '}
          {TERMS_CHANGE_NOTICE_DAYS} days before they apply; using the marketplace after that date
          means you accept them. If you do not, you can delete your account at any time.
        </p>
        <p>
          Questions about these terms? <Link to={paths.contactUs}>Contact us</Link>.
        </p>
      </section>
    </article>
  )
}
