import { Link } from 'react-router-dom'
import { paths } from '@/config/paths'
import '@/features/static/static.css'

/**
 * The address business inquiries go to. The support inbox is set per installation
 * (SUPPORT_INBOX, infra/k8s/configmap.yaml); this is the production one.
 */
const BUSINESS_EMAIL = 'support@marketplace.example.com'
const BUSINESS_MAILTO = `mailto:${BUSINESS_EMAIL}?subject=${encodeURIComponent('Business inquiry')}`

/** /about, a static page. */
export default function AboutPage() {
  return (
    <article className="static-page">
      <h1>About Us</h1>
      <p>
        We are a community marketplace for short jobs and for the people who do them. Someone needs
        a hand moving boxes on Saturday, a tutor for the exam next week, or a gardener for the
        spring: they publish a post. Someone has time and skills: they keep a worker profile and
        answer the posts near them. We put the two in touch, and get out of the way.
      </p>

      <h2>What we believe</h2>
      <ul>
        <li>
          <strong>Free for everyone.</strong> Publishing a post, creating a worker profile and
          sending requests cost nothing, and we take no cut of what you agree.
        </li>
        <li>
          <strong>Your details, your choice.</strong> The exact location of a job and your contacts
          can stay hidden until you accept someone.
        </li>
        <li>
          <strong>Real people.</strong> Every member verifies their email, uses their real name, and
          any post or person can be reported; reports are reviewed within 24 hours.
        </li>
        <li>
          <strong>Nothing in the way.</strong> No ads and no clutter: the feed shows posts and
          people, sorted the way you choose.
        </li>
      </ul>

      <h2>How it works</h2>
      <ol>
        <li>Sign up with your email and confirm it with the 6-digit code we send you.</li>
        <li>Publish a post for a job you need done, or create your worker profile.</li>
        <li>
          Send and receive requests. When a post owner accepts your request, you see the job&apos;s
          hidden details and can get in touch.
        </li>
      </ol>

      <h2>Get in touch</h2>
      <p>
        A question, an idea or a problem? <Link to={paths.contactUs}>Contact us</Link> and we will
        get back to you.
      </p>
      <p>
        For partnerships, press and other business inquiries, write to{' '}
        <a href={BUSINESS_MAILTO}>{BUSINESS_EMAIL}</a>.
      </p>
    </article>
  )
}
