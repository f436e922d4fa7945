import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from '@/app/App'
import { createStore } from '@/app/store'
import { loadAppConfig } from '@/config/env'
import '@/styles/global.css'

const store = createStore()

void loadAppConfig().then(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App store={store} />
    </StrictMode>,
  )
})
