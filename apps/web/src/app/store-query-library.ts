/** RTK Query with React Redux, evaluated in a task of its own (store-libraries.ts says why). */
export { createApi } from '@reduxjs/toolkit/query/react'
