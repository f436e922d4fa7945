import { Outlet, useLocation } from 'react-router-dom'
import { BottomNav } from '@/app/shell/BottomNav'
import { Footer } from '@/app/shell/Footer'
import { RenderRetryBoundary } from '@/app/shell/RenderRetryBoundary'
import { TopBar } from '@/app/shell/TopBar'
import ModalHost from '@/app/modals/ModalHost'
import { usePageViews } from '@/lib/use-analytics'
import './shell.css'

/** The frame of every page: top bar, the page, footer, mobile bottom navigation. */
export default function Layout() {
  usePageViews()
  const { pathname } = useLocation()
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <TopBar />
      <main id="main" tabIndex={-1}>
        {/* A page that fails to render is retried, then offers a way out, in the frame. */}
        <RenderRetryBoundary resetKey={pathname}>
          <Outlet />
        </RenderRetryBoundary>
      </main>
      <Footer />
      <BottomNav />
      <ModalHost />
    </>
  )
}
