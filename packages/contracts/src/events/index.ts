export * from './envelope'
export * from './registry'
