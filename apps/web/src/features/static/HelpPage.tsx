import { Link } from 'react-router-dom'
import { paths } from '@/config/paths'
import { TableOfContents } from '@/features/static/TableOfContents'
import { useTrackOnMount } from '@/lib/use-analytics'
import '@/features/static/static.css'

/**
 * /help. The product's design left the last two contents entries without a section; here
 * every entry has one (a contents link to nowhere is a bug, not copy).
 */
const SECTIONS = [
  { id: 'getting-started', title: 'Getting Started' },
  { id: 'common-actions', title: 'Common Actions' },
  { id: 'faq', title: 'Frequently Asked Questions' },
  { id: 'troubleshooting', title: 'Troubleshooting' },
  { id: 'contact-support', title: 'Contact Support' },
  { id: 'safety', title: 'Safety and Best Practices' },
] as const

const s = paths.settings

export default function HelpPage() {
  useTrackOnMount('help_viewed')
  return (
    <article className="static-page">
      <h1>Help Center</h1>
      <p>Everything you need to find work, find help, and get the most out of the marketplace.</p>
      <TableOfContents entries={SECTIONS} />

      <section id="getting-started" aria-labelledby="getting-started-title">
        <h2 id="getting-started-title">Getting Started</h2>
        <h3>Creating your account</h3>
        <ol>
          <li>
            Choose <Link to={paths.signup}>Sign up</Link> and enter your first and last name, email,
            phone number, date of birth (you must be at least 18) and a password of 8 to 24
            characters with a lowercase letter, an uppercase letter, a digit and one of ! @ # $ %.
          </li>
          <li>
            We email you a 6-digit verification code. Enter it on the verification page; it is valid
            for 15 minutes, and you can ask for a new one from the same page.
          </li>
          <li>
            Once your email is verified, <Link to={paths.login}>log in</Link>. Tick &quot;Keep me
            signed in&quot; on your own device to stay signed in.
          </li>
        </ol>
        <h3>Setting up your profile</h3>
        <p>
          Your account holds your name, email and phone number; you can change the name, phone and
          password in <Link to={s.account}>Settings › Account</Link>. To request posts or be found
          by people who need help, create your worker profile in{' '}
          <Link to={s.myWorkerProfile}>Settings › My Profile</Link>: a title (what you do), your
          skills, availability, payment type, location, a photo, and optionally more information and
          contacts. You decide whether your contacts are visible to everyone or only to the people
          on whose posts you made a request. The Online/Offline switch there shows or hides your
          availability.
        </p>
        <h3>Finding your way around</h3>
        <ul>
          <li>
            <strong>Home feed:</strong> switch between posts and people, pick a category, and sort
            by most recent or oldest. View them as a grid or a list.
          </li>
          <li>
            <strong>Search:</strong> type keywords in the search bar, and filter by location,
            payment type and contact type.
          </li>
          <li>
            <strong>Requests:</strong> the requests you sent are in{' '}
            <Link to={s.postsIRequested}>Posts I requested</Link> and{' '}
            <Link to={s.peopleIRequested}>People I requested</Link>; the ones you received are in{' '}
            <Link to={s.requestsOnMyPosts}>Requests on my posts</Link> and{' '}
            <Link to={s.peopleRequestedMe}>People requested me</Link> (see{' '}
            <a href="#common-actions">Common Actions</a>).
          </li>
          <li>
            <strong>Favorites:</strong> save posts and people with the heart, and find them in{' '}
            <Link to={s.favoritePosts}>Favorite posts</Link> and{' '}
            <Link to={s.favoritePeople}>Favorite people</Link>.
          </li>
          <li>
            <strong>Notifications:</strong> the bell in the top bar lists what happened to your
            posts and requests; choose which ones you get in{' '}
            <Link to={s.notifications}>Settings › Notifications</Link>.
          </li>
          <li>
            <strong>Post creation:</strong> &quot;Make a post&quot; in the menu under your name in
            the top bar (in the menu button on a phone).
          </li>
          <li>
            <strong>Reports:</strong> the Report button on any post or person.
          </li>
        </ul>
      </section>

      <section id="common-actions" aria-labelledby="common-actions-title">
        <h2 id="common-actions-title">Common Actions</h2>
        <h3>Creating a post</h3>
        <ol>
          <li>Choose &quot;Make a post&quot; in the menu under your name.</li>
          <li>
            Fill in the <strong>Title</strong> (required) and <strong>Where</strong> (required),
            then optionally <strong>When</strong>, <strong>How much</strong> and the payment
            options, a <strong>Contact</strong> method with, if you like, how to reach you by it (so
            an accepted worker can reach you; otherwise you share it in the conversation), more
            information and an expiration date.
          </li>
          <li>
            Add a job picture if you like: .png, .jpg or .jpeg, up to 5 MB. If the upload fails, the
            post is created without a picture.
          </li>
          <li>
            Choose whether the exact location and your contact stay private: private details are
            shown only to the people whose request you accept.
          </li>
          <li>Preview the post, then publish it.</li>
        </ol>
        <h3>Managing your posts</h3>
        <p>
          In <Link to={s.myPosts}>Settings › My Posts</Link>, every post you published is listed.
          Open <strong>Details</strong> to read it, <strong>Modify</strong> to change it (the title
          stays as it is) and <strong>Confirm Changes</strong> to save. The Online/Offline switch
          stops or restarts requests on a post, and <strong>Delete</strong> removes it for good.
        </p>
        <h3>Requests on your posts</h3>
        <p>
          <Link to={s.requestsOnMyPosts}>Requests on my posts</Link> lists the people who asked to
          do your jobs. Accept or decline each one; you can undo a decision, which puts the request
          back to pending. An accepted person sees the hidden location and contact of your post.
        </p>
        <h3>People who asked for you</h3>
        <p>
          <Link to={s.peopleRequestedMe}>People requested me</Link> lists the post owners who asked
          you for one of their posts. Accept or decline; a decided request can then only be deleted.
        </p>
        <h3>Posts you requested and people you asked</h3>
        <p>
          <Link to={s.postsIRequested}>Posts I requested</Link> shows the posts you asked to do and
          the status of each request; once accepted, you see the post&apos;s hidden details.{' '}
          <Link to={s.peopleIRequested}>People I requested</Link> shows the workers you asked for
          your posts. You can withdraw a request at any time.
        </p>
      </section>

      <section id="faq" aria-labelledby="faq-title">
        <h2 id="faq-title">Frequently Asked Questions</h2>
        <dl className="static-faq">
          <dt>Does it cost anything?</dt>
          <dd>No. The marketplace is free, and we take no part of what you agree with others.</dd>
          <dt>Why can&apos;t I request a post?</dt>
          <dd>
            You need a worker profile first (Settings › My Profile). You also cannot request your
            own post, a post that is offline, or the same post twice.
          </dd>
          <dt>Who sees my phone number and contacts?</dt>
          <dd>
            Your account phone number is not shown on your profile. The contacts of your worker
            profile are shown to everyone or only to the people on whose posts you made a request,
            as you chose.
          </dd>
          <dt>How do I stop the emails?</dt>
          <dd>
            Turn off Email Notifications, or only the kinds you do not want, in Settings ›
            Notifications.
          </dd>
          <dt>Can I undo deleting my account?</dt>
          <dd>
            Yes, for 30 days: sign in with your email and password and choose &quot;Keep my
            account&quot;. After 30 days the account and its data are deleted for good.
          </dd>
        </dl>
      </section>

      <section id="troubleshooting" aria-labelledby="troubleshooting-title">
        <h2 id="troubleshooting-title">Troubleshooting</h2>
        <ul>
          <li>
            <strong>No verification code?</strong> Check your spam folder, then ask for a new code
            on the verification page. A code works once and for 15 minutes.
          </li>
          <li>
            <strong>Forgot your password?</strong> Use{' '}
            <Link to={paths.forgotPassword}>Forgot password</Link>: we email you a code to set a new
            one.
          </li>
          <li>
            <strong>&quot;Too many attempts&quot;?</strong> For your safety, repeated attempts are
            paused for a few minutes. Wait for the time shown and try again.
          </li>
          <li>
            <strong>Signed out unexpectedly?</strong> Changing your password signs you out on every
            other device. Log in again; tick &quot;Keep me signed in&quot; on your own device.
          </li>
          <li>
            <strong>Picture not uploading?</strong> Post pictures must be .png, .jpg or .jpeg;
            profile photos may also be .webp or .gif. Either must be 5 MB or less.
          </li>
          <li>
            <strong>Page not loading?</strong> Reload it. If it keeps failing, check your connection
            and tell us through the contact form.
          </li>
        </ul>
      </section>

      <section id="contact-support" aria-labelledby="contact-support-title">
        <h2 id="contact-support-title">Contact Support</h2>
        <p>
          Signed in, write to us from <Link to={s.helpSupport}>Settings › Help &amp; Support</Link>;
          otherwise use the <Link to={paths.contactUs}>Contact us</Link> page and leave the email
          address we should answer. We read every message and reply by email. To report a post or a
          person, use the Report button on it instead: reports are reviewed within 24 hours.
        </p>
      </section>

      <section id="safety" aria-labelledby="safety-title">
        <h2 id="safety-title">Safety and Best Practices</h2>
        <ul>
          <li>Keep the exact location and your contact private until you accept someone.</li>
          <li>Agree on the work, the price and the payment before the job starts.</li>
          <li>
            Never pay in advance for a job you are going to do, and never share your password.
          </li>
          <li>Meet in a public place first when you can, and tell someone where you are going.</li>
          <li>Report any post or person that looks like a scam, harassment or illegal work.</li>
        </ul>
      </section>
    </article>
  )
}
