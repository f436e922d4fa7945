import { Link } from 'react-router-dom'
import { BRAND_NAME } from '@/app/shell/TopBar'
import { paths } from '@/config/paths'

/** The copyright line with the current year, and the static pages. */
export function Footer() {
  return (
    <footer className="footer">
      <p className="footer-copyright">
        © {new Date().getFullYear()} {BRAND_NAME}. All rights reserved.
      </p>
      <nav aria-label="Footer">
        <ul className="footer-links">
          <li>
            <Link to={paths.terms}>Terms</Link>
          </li>
          <li>
            <Link to={paths.about}>About</Link>
          </li>
          <li>
            <Link to={paths.contactUs}>Contact us</Link>
          </li>
          <li>
            <Link to={paths.help}>Help</Link>
          </li>
        </ul>
      </nav>
    </footer>
  )
}
