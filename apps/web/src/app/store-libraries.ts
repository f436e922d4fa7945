/**
 * The store's libraries, each a module boot.tsx imports on its own (a dynamic import makes a
 * chunk): Redux Toolkit's core (Redux, Immer, Reselect) here, RTK Query with React Redux in
 * store-query-library.ts, so their evaluation is two tasks of the start, not one with the
 * store's own code. One name each: a dynamic import keeps every export of the module it
 * names, so the packages are never imported whole, and what the store's modules import of
 * them is shaken as before.
 */
export { configureStore } from '@reduxjs/toolkit'
