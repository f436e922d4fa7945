import { Outlet } from 'react-router-dom'
import ModalHost from '@/features/modals/ModalHost'

export default function Layout() {
  return (
    <>
      <main>
        <Outlet />
      </main>
      <ModalHost />
    </>
  )
}
